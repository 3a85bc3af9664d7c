import '../support/gateway-env';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, oauthClients, oauthTokens, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import * as mcpRoute from '@/app/kb/[kbId]/mcp/route';
import * as queryRoute from '@/app/kb/[kbId]/query/route';
import * as usageRoute from '@/app/kb/[kbId]/usage/route';
import * as asMetadataRoute from '@/app/.well-known/oauth-authorization-server/route';
import * as prMetadataRoute from '@/app/.well-known/oauth-protected-resource/[...resource]/route';
import * as registerRoute from '@/app/oauth/register/route';
import * as tokenRoute from '@/app/oauth/token/route';
import { ingestDocument } from '@/lib/engine';
import { revokeKey } from '@/lib/keys';
import { approveAuthorization, parseAuthorizationRequest, type ClientMetadataOptions, type TokenPair } from '@/lib/oauth';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';
import { listenOnLoopback } from '../support/listen';
import { ConnectorProvider } from '../support/oauth-connector';
import { rememberSecret } from '../support/log-scan';

/**
 * OAuth 2.1 for agents (docs/api.md §10.7), driven as a connector drives it, with the official MCP SDK's client-side
 * OAuth: discovery from the 401, dynamic registration, the authorization request (the consent page's own logic stands
 * in for the browser), the token exchange with PKCE, tools/call, refresh with rotation, revocation; then the security
 * table on tokens. A loopback server hands each path to its route handler, as Next does.
 */
type Handler = (request: Request, context: { params: Promise<Record<string, unknown>> }) => Promise<Response>;
const ROUTES: Array<[RegExp, Record<string, Handler>, (m: RegExpExecArray) => Record<string, unknown>]> = [
  [/^\/kb\/([^/]+)\/mcp$/, mcpRoute as never, (m) => ({ kbId: decodeURIComponent(m[1]!) })],
  [/^\/kb\/([^/]+)\/query$/, queryRoute as never, (m) => ({ kbId: decodeURIComponent(m[1]!) })],
  [/^\/kb\/([^/]+)\/usage$/, usageRoute as never, (m) => ({ kbId: decodeURIComponent(m[1]!) })],
  [/^\/\.well-known\/oauth-authorization-server$/, asMetadataRoute as never, () => ({})],
  [/^\/\.well-known\/oauth-protected-resource\/(.+)$/, prMetadataRoute as never, (m) => ({ resource: m[1]!.split('/').map(decodeURIComponent) })],
  [/^\/oauth\/register$/, registerRoute as never, () => ({})],
  [/^\/oauth\/token$/, tokenRoute as never, () => ({})],
];

let handle: DatabaseHandle;
let server: { url: string; close(): Promise<void> };
let kb: string;
let otherKb: string;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  handle = await createTestDatabase();
  const pub = await createPublisher(handle.db);
  kb = await createKnowledgeBase(handle.db, pub, { title: 'Lighthouse Handbook' });
  otherKb = await createKnowledgeBase(handle.db, pub, { title: 'Other' });
  const text = 'Lighthouse Handbook\n\nThe Fresnel lens concentrates the beam of a lighthouse so that it can be seen far out at sea.';
  expect((await ingestDocument(handle.db, kb, { sourceName: 'l.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' })).ok).toBe(true);
  server = await listenOnLoopback(
    http.createServer(async (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const route = ROUTES.map(([pattern, module, params]) => ({ match: pattern.exec(path), module, params })).find((r) => r.match);
      if (!route) return void res.writeHead(404).end();
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      const request = new Request(`${server.url}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
      const response = await route.module[req.method ?? 'GET']!(request, { params: Promise.resolve(route.params(route.match!)) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    }),
  );
  // The issuer, resource and Origin checks name this server.
  process.env.APP_URL = server.url;
  resetEnvForTesting();
});

afterAll(async () => {
  await server?.close();
});

/** A connector's OAuth state, named "Test Agent"; `clientMetadataUrl` makes it use a client ID metadata document. */
const testProvider = (clientMetadataUrl?: string) =>
  new ConnectorProvider({
    clientName: 'Test Agent',
    redirectUrl: REDIRECT,
    clientMetadataUrl,
    onTokens: (tokens) => rememberSecret(tokens.access_token, ...(tokens.refresh_token ? [tokens.refresh_token] : [])),
  });

const mcpUrl = (kbId: string) => new URL(`${server.url}/kb/${kbId}/mcp`);

/** The buyer on the consent page: signed in, choosing the subscription, allowing. Returns what the browser carries back (code, state, iss). */
async function consent(k: BoughtKey, authorizationUrl: URL, options: ClientMetadataOptions = {}): Promise<URLSearchParams> {
  const parsed = await parseAuthorizationRequest(handle.db, authorizationUrl.searchParams, options);
  if (!parsed.ok) throw new Error(parsed.description);
  expect(parsed.request).toMatchObject({ kbId: k.kbId, kbTitle: 'Lighthouse Handbook', client: { name: 'Test Agent' } });
  const approved = await approveAuthorization(handle.db, k.userId, parsed.request, k.subscriptionId);
  if (!approved.ok) throw new Error(approved.description);
  const back = new URL(approved.redirect);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
  expect(back.searchParams.get('iss')).toBe(server.url);
  return back.searchParams;
}

/** A connected client after the whole flow, and what it was given. */
async function connectWithOAuth(
  k: BoughtKey,
  provider = testProvider(),
  options: ClientMetadataOptions = {},
): Promise<{ client: Client; provider: ConnectorProvider }> {
  const first = new StreamableHTTPClientTransport(mcpUrl(k.kbId), { authProvider: provider });
  await expect(new Client({ name: 'agent', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }).connect(first)).rejects.toThrow();
  expect(provider.authorizationUrl, 'the client was sent to the authorization endpoint').toBeDefined();
  expect(provider.authorizationUrl!.origin + provider.authorizationUrl!.pathname).toBe(`${server.url}/oauth/authorize`);
  expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(mcpUrl(k.kbId).href);
  await first.finishAuth(await consent(k, provider.authorizationUrl!, options));
  const client = new Client({ name: 'agent', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(k.kbId), { authProvider: provider }));
  return { client, provider };
}

async function buy(kbId: string): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, { cap: 10, perMinute: 1_000 });
  rememberSecret(k.key);
  return k;
}

const usedBy = async (k: BoughtKey) =>
  (await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId))).reduce(
    (s, r) => s + r.used,
    0,
  );

const mcpPost = (kbId: string, authorization?: string) =>
  fetch(mcpUrl(kbId), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(authorization ? { Authorization: authorization } : {}) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });

const tokenRequest = (form: Record<string, string>) =>
  fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

describe('OAuth 2.1 for agents', () => {
  it('publishes its metadata, and a 401 on MCP points to it', async () => {
    const challenge = (await mcpPost(kb)).headers.get('WWW-Authenticate');
    expect(challenge).toBe(`Bearer realm="almanac", resource_metadata="${server.url}/.well-known/oauth-protected-resource/kb/${kb}/mcp", scope="kb:query"`);
    expect((await mcpPost(kb, 'Bearer alm_at_nope')).headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    const resource = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/kb/${kb}/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${server.url}/kb/${kb}/mcp`, authorization_servers: [server.url], scopes_supported: ['kb:query'] });
    const issuer = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(issuer).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    expect((await fetch(`${server.url}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);
  });

  it('registration takes exact https or loopback redirect URIs only', async () => {
    const register = (metadata: unknown) =>
      fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(metadata) });
    const ok = await register({ client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      client_id: expect.stringMatching(/^cli_/),
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    });
    expect(await (await register({ redirect_uris: ['http://evil.example/cb'] })).json()).toMatchObject({ error: 'invalid_redirect_uri' });
    expect(await (await register({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' })).json()).toMatchObject({
      error: 'invalid_client_metadata',
    });
  });

  it('a connector connects in one flow: discovery, registration, consent, PKCE exchange, tools/call metered on the subscription', async () => {
    const k = await buy(kb);
    const { client, provider } = await connectWithOAuth(k);
    expect(provider.saved).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'kb:query',
      access_token: expect.stringMatching(/^alm_at_/),
      refresh_token: expect.stringMatching(/^alm_rt_/),
    });
    const asked = await client.callTool({ name: 'ask', arguments: { query: 'What does the Fresnel lens do?' } });
    expect(asked.isError).toBeFalsy();
    expect(await usedBy(k)).toBe(1);
    // The grant is a key of the subscription, named for the client, listed beside the buyer's keys.
    const [grant] = await handle.db.select().from(apiKeys).where(eq(apiKeys.oauthClientId, provider.info!.client_id));
    expect(grant).toMatchObject({ subscriptionId: k.subscriptionId, name: 'OAuth: Test Agent' });
    // The same token on the REST faces.
    const bearer = { Authorization: `Bearer ${provider.saved!.access_token}` };
    const usage = await fetch(`${server.url}/kb/${kb}/usage`, { headers: bearer });
    expect(await usage.json()).toMatchObject({ used: 1, cap: 10 });
    const query = await fetch(`${server.url}/kb/${kb}/query`, {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'Fresnel lens' }),
    });
    expect(query.status).toBe(200);
    expect(await usedBy(k)).toBe(2);
    await client.close();
  });

  it('refresh rotates; reusing a rotated refresh token revokes the whole grant', async () => {
    const k = await buy(kb);
    const { client, provider } = await connectWithOAuth(k);
    await client.close();
    const clientId = provider.info!.client_id;
    const first = provider.saved!;
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId });
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as TokenPair;
    rememberSecret(next.access_token, next.refresh_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpPost(kb, `Bearer ${next.access_token}`)).status).toBe(200);
    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    await new Promise((r) => setTimeout(r, 600)); // the key cache's half second
    expect((await mcpPost(kb, `Bearer ${next.access_token}`)).status).toBe(401);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: next.refresh_token, client_id: clientId })).status).toBe(400);
  });

  it('the security table on tokens: wrong audience, wrong knowledge base, expired, revoked from the dashboard, bad PKCE', async () => {
    const k = await buy(kb);
    const { client, provider } = await connectWithOAuth(k);
    await client.close();
    const token = provider.saved!.access_token;
    // Bound to one knowledge base: another one's endpoint refuses it as it refuses a key of another knowledge base.
    const foreign = await mcpPost(otherKb, `Bearer ${token}`);
    expect([foreign.status, (await foreign.json()).error.data.error]).toEqual([403, 'key_scope_mismatch']);
    // A code cannot be exchanged for another resource, nor without the right verifier.
    const again = testProvider();
    await expect(new Client({ name: 'a', version: '1' }).connect(new StreamableHTTPClientTransport(mcpUrl(kb), { authProvider: again }))).rejects.toThrow();
    const code = (await consent(k, again.authorizationUrl!)).get('code')!;
    const base = { grant_type: 'authorization_code', code, client_id: again.info!.client_id, redirect_uri: REDIRECT };
    expect(await (await tokenRequest({ ...base, code_verifier: 'x'.repeat(43) })).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await tokenRequest({ ...base, code_verifier: again.verifier, resource: mcpUrl(otherKb).href })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    // A consent given twice (a double click) makes two codes but no key until one is exchanged; a code used twice
    // revokes what it granted.
    await consent(k, again.authorizationUrl!);
    const grantsOf = async () => (await handle.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.oauthClientId, again.info!.client_id))).length;
    expect(await grantsOf()).toBe(0);
    const exchanged = (await (await tokenRequest({ ...base, code_verifier: again.verifier })).json()) as TokenPair;
    rememberSecret(exchanged.access_token, exchanged.refresh_token);
    expect(await grantsOf()).toBe(1);
    expect((await mcpPost(kb, `Bearer ${exchanged.access_token}`)).status).toBe(200);
    expect(await (await tokenRequest({ ...base, code_verifier: again.verifier })).json()).toMatchObject({ error: 'invalid_grant' });
    await new Promise((r) => setTimeout(r, 600));
    expect((await mcpPost(kb, `Bearer ${exchanged.access_token}`)).status).toBe(401);
    // Expired: an hour later the access token is unknown (401 invalid_token), on MCP and REST alike.
    await handle.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.kind, 'access'));
    await new Promise((r) => setTimeout(r, 600));
    const expired = await mcpPost(kb, `Bearer ${token}`);
    expect([expired.status, (await expired.json()).error.data.error]).toEqual([401, 'invalid_api_key']);
    // Revoked from the dashboard: the grant's key, within a second, and its refresh token with it.
    const fresh = await connectWithOAuth(k);
    await fresh.client.close();
    const [grant] = await handle.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.oauthClientId, fresh.provider.info!.client_id));
    expect((await revokeKey(handle.db, { userId: k.userId, keyId: grant!.id })).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect((await mcpPost(kb, `Bearer ${fresh.provider.saved!.access_token}`)).status).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: fresh.provider.saved!.refresh_token!,
      client_id: fresh.provider.info!.client_id,
    });
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('client ID metadata documents', () => {
  /** The client's own https site, on loopback with a certificate made for the test; what it serves can be changed. */
  let site: {
    url: string;
    ca: string;
    fetches: number;
    serve: (path: string) => { status?: number; headers?: Record<string, string>; body: string };
    close(): void;
  };
  const allowLoopback = (): ClientMetadataOptions => ({ policy: { development: false, allowPrivate: true }, ca: site.ca });
  const documentOf = (url: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      client_id: url,
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-cimd-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
      site.fetches += 1;
      const answer = site.serve(req.url ?? '/');
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    site = { url, ca: cert, fetches: 0, serve: (path) => ({ body: documentOf(`${url}${path}`) }), close: () => server.close() };
  });
  afterAll(() => site?.close());

  it('the metadata says so; a connector whose client_id is its document URL connects without registering, and the document is cached', async () => {
    const issuer = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(issuer).toMatchObject({ client_id_metadata_document_supported: true });
    const k = await buy(kb);
    const clientId = `${site.url}/agent/client.json`;
    site.fetches = 0;
    const { client, provider } = await connectWithOAuth(k, testProvider(clientId), allowLoopback());
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(clientId);
    expect(provider.info, 'no dynamic registration').toMatchObject({ client_id: clientId });
    expect((await client.callTool({ name: 'ask', arguments: { query: 'What does the Fresnel lens do?' } })).isError).toBeFalsy();
    const [grant] = await handle.db.select().from(apiKeys).where(eq(apiKeys.oauthClientId, clientId));
    expect(grant).toMatchObject({ subscriptionId: k.subscriptionId, name: 'OAuth: Test Agent' });
    await client.close();
    // A second connection within the document's cache lifetime does not fetch it again.
    const again = await connectWithOAuth(k, testProvider(clientId), allowLoopback());
    await again.client.close();
    expect(site.fetches).toBe(1);
    // Refresh needs no document: the grant remembers its client.
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: again.provider.saved!.refresh_token!, client_id: clientId });
    expect(rotated.status).toBe(200);
    rememberSecret(((await rotated.json()) as TokenPair).refresh_token);
  });

  it('refuses a document that does not match, names a redirect URI it does not list, is too big, or is served from a refused address', async () => {
    const k = await buy(kb);
    const parse = (clientId: string, redirectUri = REDIRECT, options = allowLoopback()) =>
      parseAuthorizationRequest(
        handle.db,
        new URLSearchParams({
          client_id: clientId,
          redirect_uri: redirectUri,
          response_type: 'code',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          resource: mcpUrl(k.kbId).href,
        }),
        options,
      );
    const cases: Array<[string, (path: string) => { status?: number; headers?: Record<string, string>; body: string }, RegExp]> = [
      ['/mismatch.json', () => ({ body: documentOf(`${site.url}/other.json`) }), /client_id is not the URL/],
      ['/secret.json', (p) => ({ body: documentOf(`${site.url}${p}`, { token_endpoint_auth_method: 'client_secret_basic' }) }), /token_endpoint_auth_method/],
      ['/http-redirect.json', (p) => ({ body: documentOf(`${site.url}${p}`, { redirect_uris: ['http://evil.example/cb'] }) }), /redirect_uris/],
      ['/big.json', (p) => ({ body: documentOf(`${site.url}${p}`, { padding: 'x'.repeat(6000) }) }), /larger than 5120 bytes/],
      ['/moved.json', () => ({ status: 302, headers: { Location: '/agent/client.json' }, body: '' }), /HTTP 302/],
      ['/html.json', () => ({ headers: { 'Content-Type': 'text/html' }, body: '<html></html>' }), /not served as JSON/],
      ['/broken.json', () => ({ body: '{"client_id":' }), /not valid JSON/],
    ];
    for (const [path, serve, reason] of cases) {
      site.serve = serve;
      const parsed = await parse(`${site.url}${path}`);
      expect(parsed.ok, path).toBe(false);
      expect(parsed.ok ? null : [parsed.redirect, parsed.description], path).toEqual([null, expect.stringMatching(reason)]);
    }
    site.serve = (p) => ({ body: documentOf(`${site.url}${p}`) });
    // A failure is not cached: once the document is right, it is used.
    expect((await parse(`${site.url}/broken.json`)).ok).toBe(true);
    // The redirect URI must be one the document lists, exactly.
    expect(await parse(`${site.url}/broken.json`, 'http://127.0.0.1:9/other')).toMatchObject({ ok: false, redirect: null });
    // URL rules: https, a path, no dot segments.
    for (const bad of [`${site.url}`, `${site.url}/`, `${site.url}/a/../b.json`, `${site.url}/a.json#x`]) {
      expect((await parse(bad)).ok, bad).toBe(false);
    }
    // The production policy (no private addresses) refuses loopback before connecting.
    site.fetches = 0;
    const refused = await parse(`${site.url}/fresh.json`, REDIRECT, { policy: { development: false, allowPrivate: false } });
    expect(refused).toMatchObject({ ok: false, description: expect.stringMatching(/address is refused/) });
    expect(site.fetches).toBe(0);
    // no-store: fetched on every use.
    site.serve = (p) => ({ headers: { 'Cache-Control': 'no-store' }, body: documentOf(`${site.url}${p}`) });
    await parse(`${site.url}/nostore.json`);
    await parse(`${site.url}/nostore.json`);
    expect(site.fetches).toBe(2);
    const [row] = await handle.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.id, `${site.url}/nostore.json`));
    expect(row).toMatchObject({ name: 'Test Agent', redirectUris: [REDIRECT] });
  });

  it('one address causes at most ten fetches a minute; a cached document is not counted, and other addresses are not held up', async () => {
    const k = await buy(kb);
    const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const parse = (clientId: string, requesterAddress: string) =>
      parseAuthorizationRequest(
        handle.db,
        new URLSearchParams({
          client_id: clientId,
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          resource: mcpUrl(k.kbId).href,
        }),
        { ...allowLoopback(), requesterAddress },
      );
    site.serve = (p) => ({ body: documentOf(`${site.url}${p}`) });
    expect((await parse(`${site.url}/cached.json`, address)).ok).toBe(true);
    // Failures count too (they are never cached): that is what a client hammering a host would send.
    site.serve = () => ({ status: 404, body: '' });
    site.fetches = 0;
    for (let i = 0; i < 9; i++) expect((await parse(`${site.url}/missing-${i}.json`, address)).ok).toBe(false);
    expect(site.fetches).toBe(9);
    const refused = await parse(`${site.url}/one-more.json`, address);
    expect(refused).toMatchObject({
      ok: false,
      redirect: null,
      description: expect.stringMatching(/^Too many applications were looked up from your address \(at most 10 a minute\); try again in \d+ seconds?\.$/),
    });
    expect(site.fetches, 'nothing fetched once refused').toBe(9);
    // The document fetched first is cached: it still resolves for that address.
    expect((await parse(`${site.url}/cached.json`, address)).ok).toBe(true);
    site.serve = (p) => ({ body: documentOf(`${site.url}${p}`) });
    expect((await parse(`${site.url}/other-address.json`, `${address.split('.').slice(0, 3).join('.')}.251`)).ok).toBe(true);
  });
});
