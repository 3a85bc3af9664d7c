import { itemAt } from '@/lib/platform/arrays';
import '../support/gateway-env';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { ingestDocument } from '@/lib/engine/ingest';
import { clearGatewayCaches } from '@/lib/gateway/pipeline';
import { POST } from '@/app/kb/[kbId]/query/route';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createTestDatabase } from '../support/db';
import { callGateway, jsonQuery } from '../support/gateway-client';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';
import { readTimedEvents } from '../support/event-stream';
import { rememberSecret } from '../support/log-scan';

/**
 * The LLM path through the keyed endpoint (issue 14 part 5): with a chat model configured, a local fake
 * OpenAI-compatible server misbehaves in every way it can (an error status, a body that is not JSON, no message
 * content, an answer citing only passages it was not given, an answer citing nothing, a reply after the timeout).
 * Each time the buyer still gets the extractive answer with its citation, and each query counts exactly once.
 */
type Behaviour =
  'good' | 'error' | 'not-json' | 'no-content' | 'invented-citation' | 'no-citation' | 'slow' | 'stream' | 'stream-no-citation' | 'stream-broken';
let behaviour: Behaviour = 'good';
let handle: DatabaseHandle;
let server: Server;
let kb: string;
let key: BoughtKey;
const prompts: string[] = [];
const saved = {
  LLM_BASE_URL: process.env.LLM_BASE_URL,
  LLM_API_KEY: process.env.LLM_API_KEY,
  LLM_MODEL: process.env.LLM_MODEL,
  LLM_TIMEOUT_MS: process.env.LLM_TIMEOUT_MS,
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { messages: Array<{ content: string }>; stream?: boolean };
    const prompt = itemAt(body.messages, 1).content;
    prompts.push(prompt);
    const n = /\[(\d+)\] [^\n]*\n[^\n]*six months/.exec(prompt)?.[1] ?? '1';
    const send = (status: number, payload: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(payload);
    };
    const content = (text: string) => JSON.stringify({ choices: [{ message: { content: text } }], usage: { total_tokens: 99 } });
    // A streamed reply: OpenAI's chunks, one piece every 300 ms, then the usage and [DONE].
    const stream = async (pieces: string[], broken = false) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 300));
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      }
      if (broken) return setTimeout(() => res.destroy(), 100);
      res.write(`data: ${JSON.stringify({ choices: [], usage: { total_tokens: 99 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    if (behaviour.startsWith('stream') && !body.stream) return send(400, '{"error":"expected a streamed request"}');
    switch (behaviour) {
      case 'stream':
        return stream([`Replace stored water every six months [${n}].`, ' Keep it in clean, covered containers [', `${n}]. Boil it first if in doubt [9].`]);
      case 'stream-no-citation':
        return stream(['Replace it ', 'whenever it tastes stale.']);
      case 'stream-broken':
        return stream([`Replace stored water every six months [${n}].`], true);
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
        await new Promise((r) => setTimeout(r, 6_000));
        return send(200, content(`Too late [${n}].`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.LLM_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  process.env.LLM_API_KEY = 'sk-fake-llm-key-for-tests';
  process.env.LLM_MODEL = 'fake-model';
  process.env.LLM_TIMEOUT_MS = '2500'; // room for a loaded machine's first call; 'slow' answers well after it
  resetEnvForTesting();
  handle = await createTestDatabase();
  kb = await createKnowledgeBase(handle.db, await createPublisher(handle.db), { title: 'Water Handbook' });
  const enc = (s: string) => new TextEncoder().encode(s);
  for (const [name, text] of <Array<[string, string]>>[
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

/** A streamed query (docs/api.md §10.4) with a chat model: its answer is sent as the model writes it. */
describe('streamed LLM answers', () => {
  async function streamed(query: string) {
    const started = performance.now();
    const response = await POST(
      new Request(`http://localhost/kb/${kb}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ query }),
      }),
      { params: Promise.resolve({ kbId: kb }) },
    );
    expect(response.status).toBe(200);
    return readTimedEvents(response, started);
  }

  it("sends the model's answer piece by piece as it is written, invented markers dropped, counted once at done (measured)", async () => {
    behaviour = 'stream';
    const before = await used();
    const events = await streamed('How often should stored water be replaced?');
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('citations');
    expect(names.at(-1)).toBe('done');
    expect(names.slice(1, -1).every((n) => n === 'delta')).toBe(true);
    // The citations list every passage the model was given, in its numbering; the markers refer to them.
    expect(events[0]!.data.map((c: { title: string }) => c.title).sort()).toEqual(['Water Safety', 'Water Storage']);
    const text = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join('');
    expect(text).toMatch(/^Replace stored water every six months \[\d\]\. Keep it in clean, covered containers \[\d\]\. Boil it first if in doubt\.$/);
    const cited = Number(/\[(\d)\]/.exec(text)![1]);
    expect(events[0]!.data[cited - 1].title).toBe('Water Storage');
    const first = (name: string) => events.find((e) => e.event === name)!.ms;
    // The model takes 600 ms: the first piece comes with the citations, long before the rest.
    expect(first('delta')).toBeLessThan(first('done') - 400);
    console.log(
      `streamed chat-model answer: citations at ${first('citations').toFixed(0)} ms, first delta at ${first('delta').toFixed(0)} ms, done at ${first('done').toFixed(0)} ms`,
    );
    expect(events.at(-1)!.data).toMatchObject({ tokens_used: 99, usage: { used: before + 1 } });
    expect(await used()).toBe(before + 1);
  });

  it('a streamed answer citing nothing is replaced by the extractive one before anything is sent, counted once', async () => {
    behaviour = 'stream-no-citation';
    const before = await used();
    const events = await streamed('How often should stored water be replaced?');
    expect(events.map((e) => e.event)[0]).toBe('citations');
    expect(events[0]!.data[0].title).toBe('Water Storage');
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('every six months');
    expect(events.at(-1)!.event).toBe('done');
    expect(await used()).toBe(before + 1);
  });

  it('a model that breaks off after its first piece ends the stream with an error, not counted', async () => {
    behaviour = 'stream-broken';
    const before = await used();
    const events = await streamed('How often should stored water be replaced?');
    expect(events.map((e) => e.event)).toEqual(['citations', 'delta', 'error']);
    expect(await used()).toBe(before);
  });
});
