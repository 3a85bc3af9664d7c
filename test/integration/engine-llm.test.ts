import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { NO_ANSWER_TEXT } from '@/lib/engine/answer';
import { ingestDocument } from '@/lib/engine/ingest';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import type { LlmConfig } from '@/lib/engine/llm';
import { itemAt } from '@/lib/platform/arrays';

/**
 * LLM mode against a local fake OpenAI-compatible chat-completions server: the model's reply is scripted per
 * test; the server records what it received so the request shape can be asserted.
 */
const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;
let kb: string;
let server: Server;
let llm: LlmConfig;
let reply: (body: { model: string; messages: Array<{ role: string; content: string }> }) => { status?: number; json?: unknown; delayMs?: number };
const received: Array<{
  auth: string | undefined;
  path: string;
  body: { model: string; messages: Array<{ role: string; content: string }>; temperature?: number };
}> = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

/** The passage number the fake model "uses": the one whose text contains the needle. */
function passageNumber(prompt: string, needle: string): number {
  const blocks = prompt.split(/\n\n(?=\[\d+\] )/);
  const hit = blocks.find((b) => b.includes(needle));
  return hit ? Number(/^\[(\d+)\]/.exec(hit.replace(/^Passages:\n\n/, ''))?.[1]) : -1;
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  const created = await createHostedKnowledgeBase(db, {
    title: 'LLM Test Base',
    publisher: 'LLM Test Press',
    category: 'health',
    tags: [],
    summary: 'Knowledge base for LLM mode tests.',
  });
  if (!created.ok) throw new Error(created.message);
  kb = created.id;
  for (const [name, text] of <Array<[string, string]>>[
    ['boil.md', '# Water Safety\n\nBoil drinking water for one full minute to make it safe. At altitudes above 2,000 metres, boil water for three minutes.'],
    ['storage.md', '# Water Storage\n\nStore treated water in clean, covered containers. Replace stored water every six months.'],
    [
      'filters.md',
      '# Filters\n\nCeramic filters remove bacteria but not viruses. Combine filtering with chemical disinfection for full protection of drinking water.',
    ],
  ]) {
    const r = await ingestDocument(db, kb, { sourceName: name, bytes: enc(text) });
    if (!r.ok) throw new Error(r.message);
  }
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    received.push({ auth: req.headers.authorization, path: req.url ?? '', body });
    const out = reply(body);
    if (out.delayMs) await new Promise((r) => setTimeout(r, out.delayMs));
    res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out.json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  llm = { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-fake-test-key', model: 'fake-model-1', timeoutMs: 2_000 };
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('LLM mode', () => {
  it('sends numbered passages, keeps only the passages the model cites, and reports the model usage', async () => {
    reply = (body) => {
      const prompt = itemAt(body.messages, 1).content;
      const n = passageNumber(prompt, 'three minutes');
      return {
        json: {
          choices: [{ message: { role: 'assistant', content: `Boil water for one minute, or three minutes at high altitude [${n}].` } }],
          usage: { prompt_tokens: 321, completion_tokens: 17, total_tokens: 338 },
        },
      };
    };
    const answer = await answerHostedQuery({ kbId: kb, query: 'How long should I boil drinking water?', requestId: 'req_llm' }, db, { llm });
    const last = itemAt(received, received.length - 1);
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-fake-test-key');
    expect(last.body.model).toBe('fake-model-1');
    expect(last.body.messages[1]?.content).toMatch(/\[1\] /);
    expect(answer.tokens_used).toBe(338);
    expect(answer.answer).toBe('Boil water for one minute, or three minutes at high altitude [1].');
    expect(answer.citations).toHaveLength(1);
    expect(answer.citations[0]?.title).toBe('Water Safety');
    expect(answer.citations[0]?.excerpt).toBe('At altitudes above 2,000 metres, boil water for three minutes.');
  });

  it('renumbers several markers and ignores markers of passages that do not exist', async () => {
    reply = (body) => {
      const prompt = itemAt(body.messages, 1).content;
      const a = passageNumber(prompt, 'Ceramic filters');
      const b = passageNumber(prompt, 'one full minute');
      return {
        json: {
          choices: [{ message: { content: `Filter and disinfect [${a}]; boiling also works [${b}, 99]. See also [42].` } }],
          usage: { total_tokens: 50 },
        },
      };
    };
    const answer = await answerHostedQuery({ kbId: kb, query: 'How do I make drinking water safe with filters or boiling?', requestId: 'req_llm' }, db, {
      llm,
    });
    expect(answer.citations.map((c) => c.title)).toEqual(['Filters', 'Water Safety']);
    expect(answer.answer).toBe('Filter and disinfect [1]; boiling also works [2]. See also.');
  });

  it('a model that finds no answer gives the plain no-information answer without citations', async () => {
    reply = () => ({ json: { choices: [{ message: { content: 'NO_ANSWER' } }], usage: { total_tokens: 120 } } });
    const answer = await answerHostedQuery({ kbId: kb, query: 'How long should drinking water be stored?', requestId: 'req_llm' }, db, { llm });
    expect(answer).toEqual({ answer: NO_ANSWER_TEXT, citations: [], tokens_used: 120 });
  });

  it('does not call the model when nothing relevant was retrieved', async () => {
    const before = received.length;
    const answer = await answerHostedQuery({ kbId: kb, query: 'Who won the chess olympiad?', requestId: 'req_llm' }, db, { llm });
    expect(received.length).toBe(before);
    expect(answer.citations).toEqual([]);
  });

  it('falls back to an extractive answer when the model fails or times out', async () => {
    for (const failure of [{ status: 500, json: { error: 'boom' } }, { json: { choices: [] } }, { delayMs: 3_000, json: {} }]) {
      reply = () => failure;
      const answer = await answerHostedQuery({ kbId: kb, query: 'How often should stored water be replaced?', requestId: 'req_llm' }, db, { llm });
      expect(answer.answer).toContain('every six months');
      expect(answer.citations[0]?.title).toBe('Water Storage');
    }
  });
});
