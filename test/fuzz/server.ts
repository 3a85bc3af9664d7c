import { startAppServer, type AppServer } from '../../e2e/support/app-server';
import { send } from './wire';

/**
 * The fuzz's own production server on a scratch database. Limits are raised or shortened: a 429 is a fine answer, but
 * an unreached check is an untested one.
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
