import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUp } from './support/auth';

/**
 * An agent platform connects to one knowledge base as claude.ai's and ChatGPT's connectors do (docs/api.md §10.7):
 * discovery from the 401 of its MCP URL, dynamic registration, the consent page in Chromium (sign in, choose the
 * subscription, allow), the code exchanged with PKCE, tools/call with the token, a refresh, then the buyer revokes the
 * grant on the account page and the token is refused.
 */
const KB_TITLE = 'U.S. Constitution Companion';
const REDIRECT = 'http://127.0.0.1:9/callback';

async function buyStarter(page: Page, kbId: string): Promise<void> {
  await signUp(page, undefined, `/knowledge-bases/${kbId}`);
  await page
    .getByRole('region', { name: 'Plans' })
    .getByRole('button', { name: /^Buy Starter/ })
    .click();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?handoff=/);
}

const mcpCall = (request: APIRequestContext, url: string, token?: string) =>
  request.post(url, {
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { query: 'How many senators does each state have?' } } },
  });

test('a connector connects with OAuth, queries, refreshes, and is cut off when the buyer revokes it', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const listing = await (await request.get('/api/marketplace/knowledge-bases?query=constitution&pageSize=5')).json();
  const kbId = listing.items.find((i: { title: string }) => i.title === KB_TITLE).id as string;
  const mcpUrl = `${origin}/kb/${kbId}/mcp`;

  // Discovery from the 401, as the MCP authorization specification has clients do.
  const unauthorized = await mcpCall(request, mcpUrl);
  expect(unauthorized.status()).toBe(401);
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(unauthorized.headers()['www-authenticate']!)![1]!;
  const resource = await (await request.get(resourceMetadataUrl)).json();
  expect(resource.resource).toBe(mcpUrl);
  const issuer = await (await request.get(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();
  const registered = await (await request.post(issuer.registration_endpoint, { data: { client_name: 'E2E Connector', redirect_uris: [REDIRECT] } })).json();

  // The buyer has a subscription, then the connector sends the browser to the authorization endpoint.
  await buyStarter(page, kbId);
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(issuer.authorization_endpoint);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: mcpUrl,
    scope: 'kb:query',
    state: 'e2e-state',
  }))
    authorize.searchParams.set(name, value);
  let callback: URL | undefined;
  await page.route(`${REDIRECT}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' });
  });
  await page.goto(authorize.href);
  await expect(page.getByRole('heading', { name: 'Connect E2E Connector' })).toBeVisible();
  await expect(page.getByText('answers go to 127.0.0.1:9')).toBeVisible();
  await expect(page.getByText(KB_TITLE).first()).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Starter: \d+ of \d+ queries left/ })).toBeChecked();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback?.searchParams.get('code')).toMatch(/^alm_ac_/);
  expect(callback!.searchParams.get('state')).toBe('e2e-state');
  expect(callback!.searchParams.get('iss')).toBe(issuer.issuer);

  // The code with the verifier, then a tool call with the token.
  const tokenForm = {
    grant_type: 'authorization_code',
    code: callback!.searchParams.get('code')!,
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: mcpUrl,
  };
  const tokens = await (await request.post(issuer.token_endpoint, { form: tokenForm })).json();
  expect(tokens).toMatchObject({
    token_type: 'Bearer',
    expires_in: 3600,
    access_token: expect.stringMatching(/^alm_at_/),
    refresh_token: expect.stringMatching(/^alm_rt_/),
  });
  const called = await mcpCall(request, mcpUrl, tokens.access_token);
  expect(called.status()).toBe(200);
  expect((await called.json()).result.structuredContent.citations.length).toBeGreaterThan(0);
  const refreshed = await (
    await request.post(issuer.token_endpoint, { form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: registered.client_id } })
  ).json();
  expect(refreshed.access_token).not.toBe(tokens.access_token);

  // The grant is on the account page beside the keys; revoking it there cuts the connector off.
  await page.goto('/account');
  const row = page.getByRole('row').filter({ hasText: 'OAuth: E2E Connector' });
  await row.getByRole('link', { name: /^Revoke access of OAuth: E2E Connector/ }).click();
  await expect(page.getByRole('heading', { name: 'Revoke this app’s access?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, revoke its access' }).click();
  await expect(page.getByText("The app's access was revoked.")).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'OAuth: E2E Connector' })).toContainText('Revoked');
  await expect.poll(async () => (await mcpCall(request, mcpUrl, refreshed.access_token)).status(), { timeout: 5_000 }).toBe(401);
});
