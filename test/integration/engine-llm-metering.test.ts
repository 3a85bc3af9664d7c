import '../support/gateway-env';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { ingestDocument } from '@/lib/engine/ingest';
import { clearGatewayCaches } from '@/lib/gateway/pipeline';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createTestDatabase } from '../support/db';
import { callGateway, jsonQuery } from '../support/gateway-client';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';

/**
 * The LLM path through the keyed endpoint (issue 14 part 5): with a chat model configured, a local fake
 * OpenAI-compatible server misbehaves in every way it can (an error status, a body that is not JSON, no message
 * content, an answer citing only passages it was not given, an answer citing nothing, a reply after the timeout).
 * Each time the buyer still gets the extractive answer with its citation, and each query counts exactly once.
 */
type Behaviour = 'good' | 'error' | 'not-json' | 'no-content' | 'invented-citation' | 'no-citation' | 'slow';
let behaviour: Behaviour = 'good';
let handle: DatabaseHandle;
let server: Server;
let kb: string;
let key: BoughtKey;
const prompts: string[] = [];
const saved = { LLM_BASE_URL: process.env.LLM_BASE_URL, LLM_API_KEY: process.env.LLM_API_KEY, LLM_MODEL: process.env.LLM_MODEL, LLM_TIMEOUT_MS: process.env.LLM_TIMEOUT_MS };

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { messages: Array<{ content: string }> };
    const prompt = body.messages[1].content;
    prompts.push(prompt);
    const n = /\[(\d+)\] [^\n]*\n[^\n]*six months/.exec(prompt)?.[1] ?? '1';
    const send = (status: number, payload: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(payload);
    };
    const content = (text: string) => JSON.stringify({ choices: [{ message: { content: text } }], usage: { total_tokens: 99 } });
    switch (behaviour) {
      case 'good':
        return send(200, content(`Replace stored water every six months [${n}].`));
      case 'error':
        return send(503, '{"error":"overloaded"}');
      case 'not-json':
        return send(200, '<html>gateway error</html>');
      case 'no-content':
        return send(200, JSON.stringify({ choices: [{ message: { role: 'assistant' } }] }));
      case 'invented-citation':
        return send(200, content('Replace it yearly [7].'));
      case 'no-citation':
        return send(200, content('Replace it whenever it tastes stale.'));
      case 'slow':
        await new Promise((r) => setTimeout(r, 2_500));
        return send(200, content(`Too late [${n}].`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.LLM_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  process.env.LLM_API_KEY = 'sk-fake-llm-key-for-tests';
  process.env.LLM_MODEL = 'fake-model';
  process.env.LLM_TIMEOUT_MS = '1000';
  resetEnvForTesting();
  handle = await createTestDatabase();
  kb = await createKnowledgeBase(handle.db, await createPublisher(handle.db), { title: 'Water Handbook' });
  const enc = (s: string) => new TextEncoder().encode(s);
  for (const [name, text] of [
    ['storage.md', '# Water Storage\n\n## Containers\n\nStore treated water in clean, covered containers. Replace stored water every six months.'],
    ['boil.md', '# Water Safety\n\nBoil drinking water for one full minute to make it safe.'],
  ]) {
    const r = await ingestDocument(handle.db, kb, { sourceName: name, bytes: enc(text) });
    if (!r.ok) throw new Error(r.message);
  }
  key = await buyKey(handle.db, kb, { cap: 100 });
  rememberSecret(key.key);
  clearGatewayCaches();
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTesting();
});

async function used(): Promise<number> {
  const rows = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, key.subscriptionId));
  return rows.reduce((n, r) => n + Number(r.used), 0);
}

describe('LLM answers through the keyed endpoint', () => {
  it('the prompt carries the passages with their headings; the model cites them', async () => {
    behaviour = 'good';
    const before = await used();
    const reply = await callGateway({ kbId: kb, authorization: `Bearer ${key.key}`, body: jsonQuery('How often should stored water be replaced?') });
    expect(reply.status).toBe(200);
    expect(reply.body.answer).toBe('Replace stored water every six months [1].');
    expect(reply.body.citations).toHaveLength(1);
    expect(prompts.at(-1)).toContain('Water Storage > Containers');
    expect(await used()).toBe(before + 1);
  });

  for (const misbehaviour of ['error', 'not-json', 'no-content', 'invented-citation', 'no-citation', 'slow'] as const) {
    it(`a model answering with ${misbehaviour} falls back to the extractive answer, counted once`, async () => {
      behaviour = misbehaviour;
      const before = await used();
      const reply = await callGateway({ kbId: kb, authorization: `Bearer ${key.key}`, body: jsonQuery('How often should stored water be replaced?') });
      expect(reply.status).toBe(200);
      expect(reply.body.answer).toContain('every six months');
      expect(reply.body.answer).not.toContain('[7]');
      expect(reply.body.citations[0].title).toBe('Water Storage');
      expect(await used()).toBe(before + 1);
    });
  }
});
