import '../support/gateway-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { POST as query } from '@/app/kb/[kbId]/query/route';
import { GET as getMetrics } from '@/app/metrics/route';
import { GET as getLive } from '@/app/api/health/live/route';
import { GET as getReady } from '@/app/api/health/ready/route';
import { buildOpenApiDocument } from '@/lib/openapi';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createJobQueues } from '@/lib/platform/job-queues';
import { enqueueJob, startJobQueue } from '@/lib/platform/jobs';
import { provideGauge } from '@/lib/platform/metrics';
import { databasePoolState } from '@/lib/platform/db';
import { queueDepth } from '@/lib/platform/jobs';
import { createTestDatabase } from '../support/db';
import {
  buyKey,
  createHttpKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/** GET /metrics (Prometheus text, METRICS_TOKEN or a private address) and the separate liveness and readiness probes. */
const TOKEN = 'metrics-token-for-tests-0123456789';
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let kb: string;
let failingKb: string;

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN;
  resetEnvForTesting();
  rememberSecret(TOKEN);
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher();
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  const pub = await createPublisher(handle.db);
  const secrets = { infraKey: publisher.infraKey, signingSecret: publisher.signingSecret };
  kb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, ...secrets });
  failingKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: `${bad.base}/status-500`, ...secrets });
  // What instrumentation.ts provides on a server.
  provideGauge('jobs', async () => queueDepth(handle));
  provideGauge('db-pool', databasePoolState);
});

afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  resetEnvForTesting();
  await publisher?.stop();
  await bad?.stop();
});

const ask = (kbId: string, key: string) =>
  query(
    new Request(`http://localhost/kb/${kbId}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: 'What is a tide?' }),
    }),
    {
      params: Promise.resolve({ kbId: kbId }),
    },
  );

const scrape = (authorization?: string) =>
  getMetrics(new Request('http://localhost/metrics', { headers: authorization ? { Authorization: authorization } : {} }));

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

describe('GET /metrics', () => {
  it('refuses a scrape without the token, or with another, in the one error shape', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized', message: expect.any(String), request_id: response.headers.get('x-request-id') });
    }
  });

  it('counts gateway stages, answers, refusals by code, publisher errors and the job queue', async () => {
    const before = await (await scrape(`Bearer ${TOKEN}`)).text();
    const capped = await buyKey(handle.db, kb, { cap: 1 });
    expect((await ask(kb, capped.key)).status).toBe(200);
    expect((await ask(kb, capped.key)).status).toBe(429);
    const failing = await buyKey(handle.db, failingKb, { cap: 5 });
    expect((await ask(failingKb, failing.key)).status).toBe(502);
    await createJobQueues(await startJobQueue(), ['metrics-test']);
    await enqueueJob(handle.db, { queue: 'metrics-test', payload: {}, runAt: new Date(Date.now() + 3_600_000) });

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const grew = (series: string, by: number) => expect((sample(text, series) ?? 0) - (sample(before, series) ?? 0), series).toBe(by);
    grew('almanac_gateway_stage_duration_seconds_count{stage="auth"}', 3);
    grew('almanac_gateway_stage_duration_seconds_count{stage="limits"}', 3);
    grew('almanac_gateway_stage_duration_seconds_count{stage="quota"}', 3);
    grew('almanac_gateway_stage_duration_seconds_count{stage="backend"}', 2);
    grew('almanac_gateway_answers_total{result="answered"}', 1);
    grew('almanac_gateway_refusals_total{code="query_cap_exceeded"}', 1);
    grew('almanac_gateway_refusals_total{code="publisher_error"}', 1);
    expect(sample(text, 'almanac_jobs_queued{queue="metrics-test"}')).toBe(1);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toContain(capped.key);
  });
});

describe('GET /api/health/live and /api/health/ready', () => {
  it('answers liveness with no I/O, and readiness with the database, the queue and the limiter store', async () => {
    const checker = new OpenApiChecker(buildOpenApiDocument('http://almanac.test'));
    const read = async (response: Response) => ({ status: response.status, headers: response.headers, body: await response.json() });
    const live = await read(await getLive(new Request('http://localhost/api/health/live')));
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    checker.expectConforms('/api/health/live', 'GET', live);
    const ready = await read(await getReady(new Request('http://localhost/api/health/ready')));
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    checker.expectConforms('/api/health/ready', 'GET', ready);
    expect(ready.body).toMatchObject({
      status: 'ok',
      database: { ok: true },
      rateLimiter: 'memory',
      rateLimiterReachable: true,
      queue: { ok: true, depth: expect.any(Number) },
    });
  });
});
