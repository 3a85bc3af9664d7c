import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { auth, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ConnectorProvider } from '../test/support/oauth-connector';
import { signUpOverHttp } from './support/auth';
import { buyOverHttp } from './support/buyer';

/**
 * An agent platform connects to one knowledge base as claude.ai's and ChatGPT's connectors do (docs/api.md §10.7),
 * with the official MCP SDK's client-side OAuth: discovery from the 401 of its MCP URL, dynamic registration, the
 * consent page in Chromium (sign in, choose the subscription, allow), the code exchanged with PKCE, tools/call with the
 * token, a refresh, then the buyer revokes the grant on the account page and the token is refused.
 */
const KB_TITLE = 'U.S. Constitution Companion';
const REDIRECT = 'http://127.0.0.1:9/callback';
const STATE = 'e2e-state';

/** Over HTTP: the purchase pages are driven by journey.spec.ts and account-recovery.spec.ts. */
async function buyStarter(page: Page, kbId: string): Promise<void> {
  await signUpOverHttp(page.request);
  await buyOverHttp(page.request, kbId, 'Starter');
}

const connector = () => new Client({ name: 'e2e-connector', version: '1' });

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
  const mcpUrl = new URL(`${origin}/kb/${kbId}/mcp`);

  // The SDK meets the 401, follows its resource metadata to the authorization server, registers, and asks for the
  // browser to be sent to the authorization endpoint with PKCE and the MCP URL as the resource.
  const provider = new ConnectorProvider({ clientName: 'E2E Connector', redirectUrl: REDIRECT, state: STATE });
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(connector().connect(first)).rejects.toThrow();
  expect(provider.info?.client_id).toBeTruthy();
  const authorize = provider.authorizationUrl!;
  expect(authorize.origin + authorize.pathname).toBe(`${origin}/oauth/authorize`);
  expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
    response_type: 'code',
    client_id: provider.info!.client_id,
    code_challenge_method: 'S256',
    resource: mcpUrl.href,
    state: STATE,
  });

  // The buyer has a subscription; the consent page in the browser.
  await buyStarter(page, kbId);
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
  expect(callback!.searchParams.get('state')).toBe(STATE);

  // The SDK checks `iss` and exchanges the code with its verifier; then a tool call with the token.
  await first.finishAuth(callback!.searchParams);
  expect(provider.saved).toMatchObject({
    token_type: 'Bearer',
    expires_in: 3600,
    access_token: expect.stringMatching(/^alm_at_/),
    refresh_token: expect.stringMatching(/^alm_rt_/),
  });
  const client = connector();
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const asked = await client.callTool({ name: 'ask', arguments: { query: 'How many senators does each state have?' } });
  expect(asked.isError).toBeFalsy();
  expect((asked.structuredContent as { citations: unknown[] }).citations.length).toBeGreaterThan(0);
  await client.close();

  // A refresh through the SDK rotates both tokens.
  const before = provider.saved!;
  expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
  expect(provider.saved!.access_token).not.toBe(before.access_token);
  expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
  const refreshed = provider.saved!;
  expect((await mcpCall(request, mcpUrl.href, refreshed.access_token)).status()).toBe(200);

  // The grant is on the account page beside the keys; revoking it there cuts the connector off.
  await page.goto('/account');
  const row = page.getByRole('row').filter({ hasText: 'OAuth: E2E Connector' });
  await row.getByRole('link', { name: /^Revoke access of OAuth: E2E Connector/ }).click();
  await expect(page.getByRole('heading', { name: 'Revoke this app’s access?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, revoke its access' }).click();
  await expect(page.getByText("The app's access was revoked.")).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'OAuth: E2E Connector' })).toContainText('Revoked');
  await expect.poll(async () => (await mcpCall(request, mcpUrl.href, refreshed.access_token)).status(), { timeout: 5_000 }).toBe(401);
});
