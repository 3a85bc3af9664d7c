/**
 * Runs `work` while a timer ticks every `periodMs`, and returns its result with the worst delay a tick saw (ms): how
 * long the event loop, which answers health checks and every other request, was held while `work` ran.
 */
export async function withEventLoopLag<T>(work: () => Promise<T>, periodMs = 5): Promise<{ result: T; worstMs: number }> {
  let worstMs = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    worstMs = Math.max(worstMs, now - last - periodMs);
    last = now;
  }, periodMs);
  try {
    const result = await work();
    // A hold at the very end of the work has had no tick after it yet: the gap since the last tick is its length.
    return { result, worstMs: Math.max(worstMs, performance.now() - last - periodMs) };
  } finally {
    clearInterval(tick);
  }
}
