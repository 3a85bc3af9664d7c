import { afterAll } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import { closeTestDatabases } from './db';

/**
 * Setup file of the integration projects, run before every test file. When the file ends, after its own afterAll
 * hooks (Vitest runs a file's after-hooks last-registered first), the databases it opened are closed with their job
 * queue, and the environment is put back as it was before the file: in the shared processes (vitest.config.ts) the
 * next file starts from the same state as in a fresh one.
 */
const before = { ...process.env };

afterAll(async () => {
  await closeTestDatabases();
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
  resetEnvForTesting();
});
