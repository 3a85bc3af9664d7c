import { expect, test } from '@playwright/test';

/**
 * The premise of the `scale-out` project (playwright.config.ts, e2e/support/scale-out.mjs): its base URL is a proxy
 * that alternates requests between two instances, both ready on PostgreSQL and Redis, so the journeys that run there
 * go back and forth between them on every page, asset, form post and API call.
 */
test('requests alternate between two ready instances on PostgreSQL and Redis', async ({ request }) => {
  const answers = [];
  for (let i = 0; i < 4; i++) {
    const response = await request.get('/api/health/ready');
    expect(response.status()).toBe(200);
    answers.push({ instance: response.headers()['x-almanac-instance'], body: await response.json() });
  }
  const instances = answers.map((a) => a.instance);
  expect(new Set(instances)).toEqual(new Set(['app1', 'app2']));
  for (let i = 1; i < instances.length; i++) expect(instances[i]).not.toBe(instances[i - 1]);
  for (const { body } of answers) {
    expect(body).toMatchObject({ status: 'ok', database: { ok: true, kind: 'postgres' }, rateLimiter: 'redis', rateLimiterReachable: true });
  }
});
