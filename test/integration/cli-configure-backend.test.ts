import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import type { Database } from '@/lib/platform/db';
import { createTestDatabase } from '@/test/support/db';
import { createCatalogFixture } from './subscriptions-fixtures';

/**
 * `configure-backend` runs under tsx in development mode, but configures an endpoint that the production server
 * (`npm start`) will call: it must judge the endpoint by that server's SSRF policy, or it reports success for an
 * endpoint every query will then fail on.
 */
const SECRETS = `${'i'.repeat(24)}\n${'s'.repeat(40)}\n`;
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  // The command reads its two secrets from standard input (fd 0).
  return {
    ...fs,
    readFileSync: (file: unknown, ...rest: unknown[]) => (file === 0 ? SECRETS : (fs.readFileSync as (...a: unknown[]) => unknown)(file, ...rest)),
  };
});

let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  resetEnvForTesting();
});

async function configureBackend(endpoint: string, env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetEnvForTesting();
  const { kbId } = await createCatalogFixture(db);
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const { publisherCommands } = await import('@/scripts/cli/publisher-commands');
  const code = await publisherCommands.find((c) => c.name === 'configure-backend')!.run(['--kb', kbId, '--endpoint', endpoint]);
  return { code, err: err.join('\n') };
}

describe('configure-backend applies the production server’s endpoint policy', () => {
  it('refuses a loopback http endpoint although the CLI itself runs in development mode', async () => {
    const result = await configureBackend('http://127.0.0.1:9/answer', { NODE_ENV: 'development', ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'false' });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/loopback addresses are not allowed/);
  });

  it('refuses an IPv6 form that carries a private IPv4 address', async () => {
    const result = await configureBackend('https://[2002:a00:1::1]/answer', { NODE_ENV: 'development', ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'false' });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/private addresses are not allowed/);
  });

  it('accepts it where the operator allows private networks on the server too', async () => {
    const result = await configureBackend('http://127.0.0.1:9/answer', { NODE_ENV: 'development', ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true' });
    expect(result).toMatchObject({ code: 0, err: '' });
  });
});
