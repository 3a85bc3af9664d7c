/**
 * pg-boss debounces in windows aligned to the epoch (enqueueDebouncedJob): waits, if need be, until early in one, so
 * that a test's sends of the next few seconds fall in the same window.
 */
export async function startEarlyInWindow(seconds: number): Promise<void> {
  const window = seconds * 1000;
  if (Date.now() % window > window / 2) await new Promise((resolve) => setTimeout(resolve, window - (Date.now() % window) + 50));
}
