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
    return { result: await work(), worstMs };
  } finally {
    clearInterval(tick);
  }
}
