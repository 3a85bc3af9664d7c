import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getEnv } from './env';
import { processSingleton } from './singleton';

/** Signs sessions and derives the publisher-secret key; without ALMANAC_SECRET it is generated once into DATA_DIR. */
export function getServerSecret(): string {
  return processSingleton('server-secret', () => {
    const env = getEnv();
    if (env.ALMANAC_SECRET) return env.ALMANAC_SECRET;
    // A shared database is shared by several processes (instances, the CLI) that must derive the same keys: one
    // generated into this process's DATA_DIR would sign sessions and encrypt secrets the others cannot read.
    if (env.DATABASE_URL && env.NODE_ENV !== 'test') {
      throw new Error('ALMANAC_SECRET must be set when DATABASE_URL is set: every instance and the CLI need the same secret.');
    }
    const file = path.resolve(env.DATA_DIR, 'server-secret');
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      mkdirSync(path.dirname(file), { recursive: true });
      const secret = randomBytes(32).toString('base64url');
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    }
  });
}
