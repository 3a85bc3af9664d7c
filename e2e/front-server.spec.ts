import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { FRONT_SERVER_TIMEOUTS } from '../lib/server/front-server.mjs';
import { securityHeaders } from '../lib/platform/security-headers.mjs';

/**
 * What `npm start`'s front server (scripts/serve.mjs) adds to every answer, checked on Playwright's own server, which
 * is that server: the security headers on pages, route handlers, Next's 404 and the gateway's fast lane; pages that
 * still work under the Content-Security-Policy; and a client that sends its headers too slowly is cut off.
 */
const EXPECTED = securityHeaders({ https: false });

test('every kind of answer carries the security headers', async ({ request }) => {
  const list = await (await request.get('/api/marketplace/knowledge-bases?pageSize=1')).json();
  const answers = {
    home: await request.get('/'),
    'knowledge-base page': await request.get(`/knowledge-bases/${list.items[0].id}`),
    'sign-in page': await request.get('/signin'),
    'missing page': await request.get('/no-such-page'),
    'route handler': await request.get('/api/health'),
    'listing API': await request.get('/api/marketplace/knowledge-bases?pageSize=1'),
    'fast lane (query API)': await request.post(`/kb/${list.items[0].id}/query`, { data: { query: 'x' } }),
    'static asset': await request.get('/icon.svg'),
  };
  for (const [name, response] of Object.entries(answers)) {
    for (const { key, value } of EXPECTED) expect(response.headers()[key.toLowerCase()], `${key} on ${name}`).toBe(value);
    expect(response.headers()['strict-transport-security'], `no HSTS over http (${name})`).toBeUndefined();
  }
  expect(answers['fast lane (query API)'].status()).toBe(401);
});

test('pages work under the Content-Security-Policy: no violation, no console error, forms and navigation run', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await page.goto('/knowledge-bases');
  await page.waitForLoadState('networkidle');
  // Client-side navigation (React, the RSC payload) into a knowledge base.
  await page.locator('main a[href^="/knowledge-bases/kb_"]').first().click();
  await expect(page).toHaveURL(/\/knowledge-bases\/kb_/);
  await page.waitForLoadState('networkidle');
  await page.goto('/signin');
  await page.waitForLoadState('networkidle');
  // A server action under the policy: a wrong password gets its message back.
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.getByLabel('Password').fill('not a password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('That email and password do not match an account.');
  expect(problems).toEqual([]);
});

test('a client that dribbles its request headers is cut off with 408', async ({ baseURL }) => {
  test.setTimeout(FRONT_SERVER_TIMEOUTS.headersTimeoutMs + 20_000);
  const url = new URL(baseURL!);
  // Timed to the 408's arrival, which the server's timeout decides; the socket must then close too (the promise waits
  // for it), but when the close reaches a client on a busy machine is not the server's timeout.
  const outcome = await new Promise<{ ms: number; answer: string }>((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const started = Date.now();
    let answer = '';
    let answeredMs = Infinity;
    socket.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\n`);
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 500);
    socket.on('data', (chunk) => {
      if (!answer) answeredMs = Date.now() - started;
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ ms: answeredMs, answer });
    });
  });
  expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(outcome.ms).toBeGreaterThanOrEqual(FRONT_SERVER_TIMEOUTS.headersTimeoutMs - 100);
  expect(outcome.ms).toBeLessThan(FRONT_SERVER_TIMEOUTS.headersTimeoutMs + FRONT_SERVER_TIMEOUTS.checkIntervalMs + 2_000);
});
