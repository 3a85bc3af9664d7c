import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import createClient, { type Middleware } from 'openapi-fetch';
import { listedOperations, referenceDocument } from '../components/docs/reference-document';
import type { paths } from '../test/support/openapi-types';
import { signUpOverHttp } from './support/auth';

/**
 * A TypeScript developer's client, generated from our OpenAPI document: the types openapi-typescript makes of it
 * (test/support/openapi-types.ts, kept current by test/support/openapi-types.test.ts, so `npm run typecheck` checks
 * every call below against the document) and openapi-fetch calling the production server Playwright started. Every
 * operation the document lists (except the ones that only say 405, and CORS preflights) is called, and the test
 * fails if the served document has one it did not call.
 *
 * The key is bought the way a buyer buys it, through the test checkout; the key reveal then shows the MCP and Dify
 * settings with that key and links to /docs.
 */

const KB_TITLE = 'U.S. Constitution Companion';
const QUESTION = 'How many senators does each state have?';

async function buyStarter(page: Page, kbId: string): Promise<string> {
  const kbPath = `/knowledge-bases/${kbId}`;
  await signUpOverHttp(page.request);
  await page.goto(kbPath);
  await page
    .getByRole('region', { name: 'Plans' })
    .getByRole('button', { name: /^Buy Starter/ })
    .click();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?handoff=/);
  return (await page.getByTestId('api-key').textContent())!.trim();
}

test('a client generated from the OpenAPI document calls every endpoint on the real server', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const called = new Set<string>();
  const record: Middleware = {
    onRequest({ request: outgoing, schemaPath }) {
      called.add(`${outgoing.method} ${schemaPath}`);
    },
  };
  const api = createClient<paths>({ baseUrl: origin });
  api.use(record);

  const listing = await api.GET('/api/marketplace/knowledge-bases', { params: { query: { query: 'constitution', category: 'legal', pageSize: 5 } } });
  expect(listing.response.status).toBe(200);
  const item = listing.data!.items.find((i) => i.title === KB_TITLE)!;
  expect(item.id).toMatch(/^kb_/);
  expect(listing.data!.pageSize).toBe(5);

  const detail = await api.GET('/api/marketplace/knowledge-bases/{id}', { params: { path: { id: item.id } } });
  expect(detail.response.status).toBe(200);
  expect(detail.data!.plans.map((plan) => plan.name)).toContain('Starter');
  const missing = await api.GET('/api/marketplace/knowledge-bases/{id}', { params: { path: { id: 'kb_doesnotexist0000' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error!.error).toBe('knowledge_base_not_found');

  // The document itself and the health probe.
  const documentReply = await api.GET('/api/openapi.json');
  expect(documentReply.response.status).toBe(200);
  expect(documentReply.data!.openapi).toBe('3.1.0');
  const ready = await api.GET('/api/health');
  expect(ready.response.status).toBe(200);
  expect(ready.data).toMatchObject({ status: 'ok', database: { ok: true } });
  const live = await api.GET('/api/health', { params: { query: { probe: 'live' } } });
  expect(live.data).toEqual({ status: 'ok' });
  // The orchestrator's probes, apart: liveness does no I/O, readiness reads the database and the job queue.
  const liveness = await api.GET('/api/health/live');
  expect(liveness.response.status).toBe(200);
  expect(liveness.data).toMatchObject({ status: 'ok' });
  const readiness = await api.GET('/api/health/ready');
  expect(readiness.response.status).toBe(200);
  expect(readiness.data).toMatchObject({ status: 'ok', database: { ok: true } });

  // A key, bought through the test checkout; the key reveal has the agent settings with it, and the way to /docs.
  const apiKey = await buyStarter(page, item.id);
  const reveal = page.getByRole('region', { name: 'Your API key' });
  await reveal.getByText('Use it from an AI agent').click();
  await expect(reveal.getByTestId('snippet-mcp')).toContainText(`"url": "${origin}/kb/${item.id}/mcp"`);
  await expect(reveal.getByTestId('snippet-mcp')).toContainText(`"Authorization": "Bearer ${apiKey}"`);
  await expect(reveal.getByTestId('dify-registration')).toContainText(`${origin}/dify`);
  await expect(reveal.getByTestId('dify-registration')).toContainText(apiKey);
  await expect(reveal.getByRole('link', { name: 'the API reference' })).toHaveAttribute('href', `/docs?kb=${item.id}`);
  await reveal.screenshot({ path: path.resolve('e2e/artifacts/screenshots/key-reveal-agents.png') });

  // Without the key: the typed error body.
  const refused = await api.POST('/kb/{kb_id}/query', { params: { path: { kb_id: item.id } }, body: { query: QUESTION } });
  expect(refused.response.status).toBe(401);
  expect(refused.error!.error).toBe('missing_api_key');

  // The query's 200 has two media types; a client picks the one it reads.
  const keyed = createClient<paths, 'application/json'>({ baseUrl: origin, headers: { Authorization: `Bearer ${apiKey}` } });
  const streaming = createClient<paths, 'text/event-stream'>({ baseUrl: origin, headers: { Authorization: `Bearer ${apiKey}` } });
  keyed.use(record);
  streaming.use(record);
  const kb = { kb_id: item.id };

  const answer = await keyed.POST('/kb/{kb_id}/query', { params: { path: kb }, body: { query: QUESTION } });
  expect(answer.response.status).toBe(200);
  expect(answer.data!.answer.length).toBeGreaterThan(0);
  expect(answer.data!.citations.length).toBeGreaterThan(0);
  expect(answer.response.headers.get('X-Usage-Used')).toBe('1');

  // The same operation streamed (Server-Sent Events), read as text.
  const streamed = await streaming.POST('/kb/{kb_id}/query', {
    params: { path: kb },
    body: { query: QUESTION },
    headers: { Accept: 'text/event-stream' },
    parseAs: 'text',
  });
  expect(streamed.response.status).toBe(200);
  expect(streamed.response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
  expect(streamed.data).toMatch(/^event: citations$/m);
  expect(streamed.data).toMatch(/^event: done$/m);

  const search = await keyed.POST('/kb/{kb_id}/search', { params: { path: kb }, body: { query: QUESTION, top_k: 3 } });
  expect(search.response.status).toBe(200);
  expect(search.data!.results.length).toBeGreaterThan(0);
  expect(search.data!.results.length).toBeLessThanOrEqual(3);
  expect(search.data!.results[0]!.score).toBe(1);

  const dify = await keyed.POST('/dify/retrieval', {
    body: { knowledge_id: item.id, query: QUESTION, retrieval_setting: { top_k: 2, score_threshold: 0 } },
  });
  expect(dify.response.status).toBe(200);
  expect(dify.data!.records.length).toBeGreaterThan(0);
  expect(dify.data!.records[0]!.metadata.document_id).toEqual(expect.any(String));

  // MCP (Streamable HTTP, stateless, JSON responses): a client must accept both JSON and an event stream.
  const mcpHeaders = { Accept: 'application/json, text/event-stream' };
  const initialize = await keyed.POST('/kb/{kb_id}/mcp', {
    params: { path: kb },
    headers: mcpHeaders,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'almanac-e2e', version: '1.0.0' } },
    },
  });
  expect(initialize.response.status).toBe(200);
  expect(initialize.data).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: expect.any(String) } } });
  const tools = await keyed.POST('/kb/{kb_id}/mcp', { params: { path: kb }, headers: mcpHeaders, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
  expect(tools.response.status).toBe(200);
  const toolNames = (tools.data as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
  expect(toolNames.sort()).toEqual(['ask', 'search']);

  const usage = await keyed.GET('/kb/{kb_id}/usage', { params: { path: kb } });
  expect(usage.response.status).toBe(200);
  expect(usage.data!.cap).toBe(detail.data!.plans.find((plan) => plan.name === 'Starter')!.queriesPerPeriod);
  expect(usage.data!.used).toBe(4); // query, stream, search, Dify retrieval (MCP's initialize and tools/list are free)
  expect(usage.data!.remaining).toBe(usage.data!.cap - 4);

  // Every operation of the document as served (the reference's own list) went through the client.
  const operations = listedOperations(referenceDocument(documentReply.data as Record<string, unknown>));
  expect(operations.length).toBeGreaterThanOrEqual(9);
  expect(
    operations.filter((operation) => !called.has(operation)),
    'operations of /api/openapi.json this test does not call',
  ).toEqual([]);
});
