import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { resetEnvForTesting } from './env';

/** What the OAuth sign-in could hand the logger (next-auth's error metadata, provider answers) leaves no secret. */

const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'almanac-log-')), 'app.log');
let log: typeof import('./log').log;

beforeAll(async () => {
  vi.stubEnv('LOG_FILE', logFile);
  vi.stubEnv('LOG_LEVEL', 'info');
  resetEnvForTesting();
  ({ log } = await import('./log'));
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTesting();
});

const githubToken = 'gho_16C7e42F292c6912E7710c838347Ae178B4a';
const clientSecret = 'f2e1d0c9b8a7f2e1d0c9b8a7f2e1d0c9b8a7f2e1';
const idToken = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
const almanacToken = 'alm_at_Zq3x9P0bW4n8cV1kL7mJ2hG5fD6sA0qR_-tY8uI9oPw';

it.each([
  ['token fields at any depth', { detail: { account: { access_token: githubToken, refresh_token: 'ghr_1234567890abcdefghij', id_token: idToken } } }],
  ['a provider configuration', { detail: { provider: { clientId: 'Iv1.abc', clientSecret } } }],
  ['a token request body', { request: { client_secret: clientSecret, code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' } }],
  ['a GitHub token inside an error message', { err: new Error(`GitHub said no to ${githubToken}`) }],
  ['an Authorization header in a string', { detail: `Authorization: token ${githubToken}` }],
  ['an Almanac access token inside an error message', { err: new Error(`token ${almanacToken} refused`) }],
])('%s', (_name, entry) => {
  log.error(entry, 'next-auth error');
  const line = readFileSync(logFile, 'utf8').trim().split('\n').at(-1)!;
  expect(line).toContain('next-auth error');
  for (const secret of [almanacToken, githubToken, clientSecret, idToken, 'ghr_1234567890abcdefghij', 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk']) {
    expect(line).not.toContain(secret);
  }
  expect(line).toMatch(/\[redacted\]/);
});
