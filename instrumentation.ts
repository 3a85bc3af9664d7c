/** Runs once when the server starts: migrate and (on an empty database) seed before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDatabaseHandle } = await import('./lib/db');
  await getDatabaseHandle();
}
