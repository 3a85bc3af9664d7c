import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeStage } from './metrics';
import { registerRequestTracer, traceRequest } from '../server/request-metrics-slot.mjs';
import { startTracing, type Tracing } from './trace-export';
import { inSpan } from './tracing';

/** Spans of the gateway's stages reach a local OTLP/HTTP receiver (what a collector listens with on :4318). */
interface ReceivedSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  spanId: string;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string } }[];
}

let receiver: Server;
let endpoint: string;
const posts: { path: string; contentType: string; body: string }[] = [];
let tracing: Tracing | undefined;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await tracing?.shutdown();
  await new Promise((resolve) => receiver.close(resolve));
});

const spans = (): ReceivedSpan[] =>
  posts.flatMap((post) =>
    (JSON.parse(post.body) as { resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );

describe('traces', () => {
  it('sends nothing while OTEL_EXPORTER_OTLP_ENDPOINT is unset (no provider registered)', async () => {
    await observeStage('auth', async () => 'ok');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts).toEqual([]);
  });

  it('sends a span per request and per stage to <endpoint>/v1/traces, the stages nested in their request, an error marked', async () => {
    tracing = startTracing({ endpoint, serviceName: 'almanac-test' });
    // As instrumentation.ts registers it for scripts/serve.mjs's keyed requests.
    registerRequestTracer((name, work) => inSpan(name, {}, work));
    await traceRequest('POST /kb/{kb_id}/query', async () => {
      await observeStage('auth', async () => 'admitted', { 'almanac.request_id': 'req_test' });
      await observeStage('backend', async () => 'answer', { 'almanac.kb_id': 'kb_test' });
    });
    await expect(observeStage('engine', async () => Promise.reject(new Error('engine failed')))).rejects.toThrow('engine failed');
    await tracing.flush();

    expect(posts.map((p) => p.path)).toEqual(['/v1/traces']);
    expect(posts[0]!.contentType).toMatch(/^application\/json/);
    expect(posts[0]!.body).toContain('"almanac-test"');
    const byName = Object.fromEntries(spans().map((span) => [span.name, span]));
    expect(Object.keys(byName).sort()).toEqual(['POST /kb/{kb_id}/query', 'gateway.auth', 'gateway.backend', 'gateway.engine']);
    const request = byName['POST /kb/{kb_id}/query']!;
    const auth = byName['gateway.auth']!;
    const backend = byName['gateway.backend']!;
    expect(request.parentSpanId ?? '').toBe('');
    for (const stage of [auth, backend]) expect([stage.traceId, stage.parentSpanId]).toEqual([request.traceId, request.spanId]);
    expect(byName['gateway.engine']!.traceId).not.toBe(request.traceId);
    expect(backend.attributes).toContainEqual({ key: 'almanac.kb_id', value: { stringValue: 'kb_test' } });
    expect(auth.attributes).toContainEqual({ key: 'almanac.request_id', value: { stringValue: 'req_test' } });
    expect(byName['gateway.engine']!.status?.code).toBe(2);
  });
});
