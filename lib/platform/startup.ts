import { getEnv } from './env';
import { log } from './log';
import { getServerSecret } from './server-secret';

/**
 * Next logs a throw from instrumentation and then serves a 500 to every request with its health check green; a server
 * that cannot run must stop at once with the reason, so no load balancer sends it traffic.
 */
export async function startOrExit(steps: () => Promise<void> | void): Promise<void> {
  try {
    await steps();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The logger itself reads the configuration: when that is what failed, the sentence below still gets out.
    try {
      log.fatal({ err: error }, 'start-up failed');
    } catch {}
    console.error(`Almanac cannot start: ${reason}`);
    process.exit(1);
  }
}

/** Configuration that can only be judged together, checked before anything uses it. */
export function checkConfiguration(): void {
  const env = getEnv();
  if (env.DATABASE_URL) getServerSecret();
}
