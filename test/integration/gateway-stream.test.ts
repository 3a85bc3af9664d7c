import '../support/gateway-env';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { POST } from '@/app/kb/[kbId]/query/route';
import { streamGatewayQuery, type EventStreamWriter } from '@/lib/gateway/stream';
import { createTestDatabase } from '../support/db';
import {
  buyKey,
  createHttpKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { readTimedEvents } from '../support/event-stream';
import { rememberSecret } from '../support/log-scan';

/** Streaming answers on POST /kb/{kb_id}/query with Accept: text/event-stream (docs/api.md §10.4). */
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let kb: string;
let slowKb: string;
let failingKb: string;
let streamingKb: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher({ slowMs: 1_200 });
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  const pub = await createPublisher(handle.db);
  const secrets = { infraKey: publisher.infraKey, signingSecret: publisher.signingSecret };
  kb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, ...secrets });
  slowKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: `${bad.base}/slow`, ...secrets, timeoutMs: 5_000 });
  failingKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: `${bad.base}/status-500`, ...secrets });
  streamingKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: `${bad.base}/stream`, ...secrets, timeoutMs: 5_000 });
});

afterAll(async () => {
  await publisher?.stop();
  await bad?.stop();
});

async function buy(kbId: string, cap = 10): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, { cap, perMinute: 1_000 });
  rememberSecret(k.key);
  return k;
}

const used = async (subscriptionId: string) =>
  (await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, subscriptionId))).reduce(
    (s, r) => s + r.used,
    0,
  );

function request(kbId: string, key: string | null, query: string, signal?: AbortSignal) {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' });
  if (key) headers.set('Authorization', `Bearer ${key}`);
  return POST(new Request(`http://localhost/kb/${kbId}/query`, { method: 'POST', headers, body: JSON.stringify({ query }), signal }), {
    params: Promise.resolve({ kbId: kbId }),
  });
}

function parseEvents(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('event:'))
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) };
    });
}

describe('Accept: text/event-stream', () => {
  it('streams citations, then deltas that make up the answer, then done with the counted usage', async () => {
    const k = await buy(kb);
    const response = await request(kb, k.key, 'Which light does a vessel at anchor show?');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('X-Request-Id')).toMatch(/^req_/);
    expect(response.headers.get('X-RateLimit-Limit')).toBe('1000');
    const events = parseEvents(await response.text());
    expect(events[0]!.event).toBe('citations');
    expect(events[0]!.data[0]).toMatchObject({ document_id: 'lights' });
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ event: 'done', data: { tokens_used: expect.any(Number), usage: { used: 1, cap: 10, remaining: 9 } } });
    expect(events.map((e) => e.event)).toEqual(['citations', ...deltas.map(() => 'delta'), 'done']);
    expect(deltas.map((d) => d.data.text).join('')).toContain('anchor');
    expect(await used(k.subscriptionId)).toBe(1);
  });

  it('passes a publisher’s streamed answer through as it arrives, counted once at done (measured)', async () => {
    const k = await buy(streamingKb);
    const started = performance.now();
    const response = await request(streamingKb, k.key, 'When does the tide turn?');
    expect(response.status).toBe(200);
    const arrivals = await readTimedEvents(response, started);
    expect(arrivals.map((a) => a.event)).toEqual(['citations', 'delta', 'delta', 'delta', 'delta', 'done']);
    expect(
      arrivals
        .filter((a) => a.event === 'delta')
        .map((a) => a.data.text)
        .join(''),
    ).toBe('The tide turns twice a day.');
    const first = (event: string) => arrivals.find((a) => a.event === event)!.ms;
    const whole = first('done');
    // The publisher takes 2 s in all: citations come at once and the first piece after 0.4 s, not with the rest.
    expect(first('citations')).toBeLessThan(whole - 1_500);
    expect(first('delta')).toBeLessThan(whole - 1_000);
    console.log(
      `streamed answer over 2 s: first citations at ${first('citations').toFixed(0)} ms, first delta at ${first('delta').toFixed(0)} ms, done at ${whole.toFixed(0)} ms`,
    );
    expect(arrivals.at(-1)!.data).toEqual({ tokens_used: 7, usage: { used: 1, cap: 10, remaining: 9 } });
    expect(await used(k.subscriptionId)).toBe(1);
    // The same publisher without a stream asked of it: JSON after the whole 2 s, as before.
    const json = await POST(
      new Request(`http://localhost/kb/${streamingKb}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${k.key}` },
        body: JSON.stringify({ query: 'tide' }),
      }),
      { params: Promise.resolve({ kbId: streamingKb }) },
    );
    expect(await json.json()).toMatchObject({ answer: 'The tide turns twice a day.' });
  });

  it('refusals before the stream are the usual JSON errors', async () => {
    const k = await buy(kb, 1);
    const noKey = await request(kb, null, 'tides');
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('Content-Type')).toContain('application/json');
    expect((await noKey.json()).error).toBe('missing_api_key');
    await (await request(kb, k.key, 'Which light does a vessel at anchor show?')).text();
    const capped = await request(kb, k.key, 'tides');
    expect(capped.status).toBe(429);
    expect((await capped.json()).error).toBe('query_cap_exceeded');
  });

  it('a backend failure after the stream opened is an error event, and is not counted', async () => {
    const k = await buy(failingKb);
    const response = await request(failingKb, k.key, 'tides');
    expect(response.status).toBe(200);
    const events = parseEvents(await response.text());
    expect(events).toEqual([
      { event: 'error', data: { error: 'publisher_error', message: expect.any(String), request_id: response.headers.get('X-Request-Id') } },
    ]);
    expect(await used(k.subscriptionId)).toBe(0);
  });

  it('a client that disconnects before done is not counted', async () => {
    const k = await buy(slowKb);
    const hangUp = new AbortController();
    const response = await request(slowKb, k.key, 'tides', hangUp.signal);
    expect(response.status).toBe(200);
    hangUp.abort();
    await response.body?.cancel().catch(() => {});
    await new Promise((r) => setTimeout(r, 1_600));
    expect(await used(k.subscriptionId)).toBe(0);
  });

  it('sends a heartbeat comment while a slow backend works', async () => {
    const k = await buy(slowKb);
    const written: string[] = [];
    let open = false;
    const writer: EventStreamWriter = {
      open: () => void (open = true),
      send: (event) => written.push(event) > 0,
      comment: (text) => written.push(`: ${text}`) > 0,
      close: () => void (open = false),
      get isOpen() {
        return open;
      },
    };
    const outcome = await streamGatewayQuery(
      {
        kbId: slowKb,
        requestId: 'req_heartbeat',
        authorization: `Bearer ${k.key}`,
        contentType: 'application/json',
        readBody: async () => ({ ok: true, text: JSON.stringify({ query: 'tides' }) }),
      },
      writer,
      { heartbeatMs: 200 },
    );
    expect(outcome.ok).toBe(true);
    expect(written.filter((w) => w === ': heartbeat').length).toBeGreaterThanOrEqual(3);
    expect(written.at(-1)).toBe('done');
    expect(written.indexOf('citations')).toBeGreaterThan(written.lastIndexOf(': heartbeat'));
  });
});
