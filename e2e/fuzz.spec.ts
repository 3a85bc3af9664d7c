import { expect, test } from '@playwright/test';
import { discoverTargets } from '../test/fuzz/discover';
import { waitForMail } from './support/mail';
import { newSeed } from '../test/fuzz/random';
import { describeReport, runFuzz } from '../test/fuzz/run';
import { startFuzzServer } from '../test/fuzz/server';
import { closeWire } from '../test/fuzz/wire';
import type { AppServer } from './support/app-server';

/**
 * The fuzz in every `npm test`: a few thousand seeded malformed requests over every route handler, page,
 * form and server action of a real `npm start` server (paths, encodings, methods, headers, bodies, raw bytes). It
 * fails on any 500, any undocumented 5xx, any error under /api, /kb or /dify that is not a JSON error body with its
 * X-Request-Id, or a server that stops answering. A new seed every run, printed with the line that replays a
 * failure: FUZZ_SEED=<seed> FUZZ_ONLY=<case,…> npx playwright test e2e/fuzz.spec.ts. The full run (10,000 cases and
 * more) is bench/fuzz/run.ts.
 */

// Chosen once in the runner's process, which lists the tests; the worker that runs them inherits it.
process.env.FUZZ_SEED ??= String(newSeed());
const SEED = Number(process.env.FUZZ_SEED);
const CASES = Number(process.env.FUZZ_CASES ?? 3_000);
const ONLY = process.env.FUZZ_ONLY ? process.env.FUZZ_ONLY.split(',').map(Number) : undefined;

let app: AppServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  app = await startFuzzServer();
});

test.afterAll(async () => {
  closeWire();
  await app?.close();
});

test('malformed requests: no 500, JSON errors under /api, /kb and /dify, and the server still answers', async () => {
  test.setTimeout(180_000);
  const targets = await discoverTargets(app.url, { confirmationLink: async (email) => (await waitForMail(email, 'Confirm your email address')).link! });
  expect(targets.forms.filter((form) => form.actionId).length, 'server-action forms found').toBeGreaterThanOrEqual(5);
  const report = await runFuzz({ baseUrl: app.url, targets, seed: SEED, count: CASES, only: ONLY });
  const summary = describeReport(report, (only) => `FUZZ_SEED=${SEED} FUZZ_ONLY=${only.join(',')} npx playwright test e2e/fuzz.spec.ts`);
  console.log(summary);
  expect(report.alive, summary).toBe(true);
  expect(report.failures.length, summary).toBe(0);
});
