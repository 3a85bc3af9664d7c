import { startAppServer, type AppServer } from '../../e2e/support/app-server';
import { send } from './wire';

/**
 * The server the fuzz runs against: the production build served as `npm start` serves it (e2e/support/app-server.ts),
 * seeded, on a scratch PostgreSQL database of its own, so no other test shares its rows, limits or logs.
 *
 * Limits that would turn most cases into a 429 before the check they aim at are raised (the public listing's
 * per-client limit, sign-ups per address) or shortened (the per-key window: 60 a second instead of a minute); a
 * 429 is a fine answer, but an unreached check is an untested one.
 */
const FUZZ_SERVER_ENV = {
  SEED_ON_START: 'true',
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
  SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000000',
  RATE_LIMIT_WINDOW_MS: '1000',
};

async function until(what: string, deadlineMs: number, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`the fuzz server: ${what} within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Starts the server and waits until the sample marketplace is seeded and the fast lane answers /kb/{id}/query. */
export async function startFuzzServer(): Promise<AppServer> {
  const app = await startAppServer({ name: 'fuzz', readyPath: '/api/health?probe=live', env: FUZZ_SERVER_ENV });
  const base = new URL(app.url);
  try {
    await until('no seeded knowledge base', 120_000, async () => {
      const result = await send(base, { method: 'GET', path: '/api/marketplace/knowledge-bases?pageSize=1', headers: [] });
      return result.ok && result.response.status === 200 && (JSON.parse(result.response.body.toString()) as { total: number }).total > 0;
    });
    // Next answers the query path itself until instrumentation.ts registers the fast lane (its answers vary on rsc).
    await until('no fast lane', 30_000, async () => {
      const result = await send(base, { method: 'POST', path: '/kb/kb_probe/query', headers: [['Content-Type', 'application/json']], body: Buffer.from('{}') });
      return result.ok && result.response.status === 401 && !/\brsc\b/i.test(String(result.response.headers.vary ?? ''));
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
