import { expect, test } from '@playwright/test';

/**
 * The premise of the `scale-out` project (playwright.config.ts, e2e/support/scale-out.mjs): its base URL is a proxy
 * that alternates requests between two instances, both ready on PostgreSQL and Redis, so the journeys that run there
 * go back and forth between them on every page, asset, form post and API call.
 *
 * The proxy's turn is shared by every client, and the project's other specs may run beside this one (two workers), so
 * this spec's own requests need not alternate strictly: one of theirs can fall between two of ours. What it checks is
 * what the journeys rely on: both instances answer through the proxy, and both are ready on PostgreSQL and Redis.
 */
test('requests reach both ready instances on PostgreSQL and Redis', async ({ request }) => {
  const answers: { instance: string | undefined; body: unknown }[] = [];
  // Alone, two requests see both instances; beside another spec's traffic a few more may be needed.
  for (let i = 0; i < 20 && new Set(answers.map((a) => a.instance)).size < 2; i++) {
    const response = await request.get('/api/health/ready');
    expect(response.status()).toBe(200);
    answers.push({ instance: response.headers()['x-almanac-instance'], body: await response.json() });
  }
  expect(new Set(answers.map((a) => a.instance))).toEqual(new Set(['app1', 'app2']));
  for (const { body } of answers) {
    expect(body).toMatchObject({ status: 'ok', database: { ok: true, kind: 'postgres' }, rateLimiter: 'redis', rateLimiterReachable: true });
  }
});
