import { BlockList, isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSingleton } from './singleton';
import { inSpan } from './tracing';

/**
 * What an operator watches, in Prometheus's text format at GET /metrics: requests, the gateway's stages and refusals,
 * the job queue, the database pool and Node's own figures. One registry per process (Next may evaluate this module
 * more than once); gauges that need a query are read when Prometheus scrapes.
 */

/** The gateway's stages, in check order: rows 1–6, row 7, row 9, then the publisher's backend or the built-in engine. */
export type GatewayStage = 'auth' | 'limits' | 'quota' | 'backend' | 'engine';

interface Metrics {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  requestSeconds: Histogram<'route'>;
  stageSeconds: Histogram<'stage'>;
  refusals: Counter<'code'>;
  answers: Counter<'result'>;
  encoder: Counter<'use' | 'outcome'>;
  jobFailures: Counter<'queue' | 'final'>;
  routes: Set<string>;
}

type GaugeReader = () => Promise<Record<string, number>>;
const gaugeReaders = processSingleton('metrics.gauge-readers', () => new Map<string, GaugeReader>());

const metrics = (): Metrics =>
  processSingleton('metrics', () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const seconds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
    const readGauge = (name: string, key: string) =>
      async function collect(this: Gauge<string>) {
        const values = await gaugeReaders
          .get(name)?.()
          .catch(() => undefined);
        this.reset();
        for (const [label, value] of Object.entries(values ?? {})) this.set(key ? { [key]: label } : {}, value);
      };
    new Gauge({
      name: 'almanac_jobs_queued',
      help: 'Background jobs waiting or running, by queue.',
      labelNames: ['queue'],
      registers: [registry],
      collect: readGauge('jobs', 'queue'),
    });
    new Gauge({
      name: 'almanac_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on embedded PGlite.',
      labelNames: ['state'],
      registers: [registry],
      collect: readGauge('db-pool', 'state'),
    });
    return {
      registry,
      requests: new Counter({
        name: 'almanac_http_requests_total',
        help: 'HTTP requests answered, by route template, method and status.',
        labelNames: ['route', 'method', 'status'],
        registers: [registry],
      }),
      requestSeconds: new Histogram({
        name: 'almanac_http_request_duration_seconds',
        help: 'Time to answer an HTTP request, by route template.',
        labelNames: ['route'],
        buckets: seconds,
        registers: [registry],
      }),
      stageSeconds: new Histogram({
        name: 'almanac_gateway_stage_duration_seconds',
        help: 'Time spent in each stage of the keyed gateway.',
        labelNames: ['stage'],
        buckets: seconds,
        registers: [registry],
      }),
      refusals: new Counter({
        name: 'almanac_gateway_refusals_total',
        help: 'Keyed requests refused, by error code (query_cap_exceeded, rate_limit_exceeded, publisher_error, publisher_timeout…).',
        labelNames: ['code'],
        registers: [registry],
      }),
      answers: new Counter({
        name: 'almanac_gateway_answers_total',
        help: 'Metered calls answered, by result: answered (counted) or abstained (no citations, free).',
        labelNames: ['result'],
        registers: [registry],
      }),
      encoder: new Counter({
        name: 'almanac_engine_encoder_total',
        help: 'Questions put to the sentence encoder, by use (gate: the relevance gate left it undecided; reader: the best statements lay close) and outcome: decided, late (over ENGINE_ENCODER_BUDGET_MS), busy (too many waiting), failed; the lexical engine decides all but the first.',
        labelNames: ['use', 'outcome'],
        registers: [registry],
      }),
      jobFailures: new Counter({
        name: 'almanac_job_failures_total',
        help: 'Background job runs that failed, by queue; final="true" when no attempt is left.',
        labelNames: ['queue', 'final'],
        registers: [registry],
      }),
      routes: new Set<string>(),
    };
  });

export function provideGauge(name: 'jobs' | 'db-pool', read: GaugeReader): void {
  gaugeReaders.set(name, read);
}

export async function observeStage<T>(stage: GatewayStage, work: () => Promise<T>, attributes: Record<string, string> = {}): Promise<T> {
  const end = metrics().stageSeconds.startTimer({ stage });
  try {
    return await inSpan(`gateway.${stage}`, attributes, work);
  } finally {
    end();
  }
}

export function countRefusal(code: string): void {
  metrics().refusals.inc({ code });
}

export function countEncoderOutcome(use: 'gate' | 'reader', outcome: 'decided' | 'late' | 'busy' | 'failed'): void {
  metrics().encoder.inc({ use, outcome });
}

export function countAnswer(abstained: boolean): void {
  metrics().answers.inc({ result: abstained ? 'abstained' : 'answered' });
}

export function countJobFailure(queue: string, final: boolean): void {
  metrics().jobFailures.inc({ queue, final: String(final) });
}

/** A bounded series count: past this many route labels, new paths count as "other". */
const MAX_ROUTES = 200;
const ID_SEGMENT = /^(?:[a-z]{2,6}_[A-Za-z0-9_-]{6,}|\d+|[0-9a-f]{8}-[0-9a-f-]{27,})$/;

/** Ids become `{id}` and any 404 is `unmatched`, so a scan of random paths cannot grow the series without bound. */
export function routeLabel(url: string, status: number): string {
  if (status === 404) return 'unmatched';
  const pathname = url.split('?')[0] ?? '/';
  if (pathname.startsWith('/_next/')) return '/_next';
  const label =
    pathname
      .split('/')
      .map((segment) => (ID_SEGMENT.test(segment) ? '{id}' : segment))
      .join('/') || '/';
  const { routes } = metrics();
  if (routes.has(label)) return label;
  if (routes.size >= MAX_ROUTES) return 'other';
  routes.add(label);
  return label;
}

export function observeRequest(method: string, url: string, status: number, seconds: number): void {
  const route = routeLabel(url, status);
  const m = metrics();
  m.requests.inc({ route, method, status: String(status) });
  m.requestSeconds.observe({ route }, seconds);
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

const privateNetworks = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['169.254.0.0', 16],
  ] as const)
    list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of [
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
  ] as const)
    list.addSubnet(network, prefix, 'ipv6');
  return list;
})();

function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const family = isIP(plain);
  return family !== 0 && privateNetworks.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** With METRICS_TOKEN, its bearer; without it, only loopback or private addresses (the Prometheus beside the instances). */
export function mayReadMetrics(input: { token: string | undefined; authorization: string | null; clientAddress: string }): boolean {
  if (input.token) {
    const sent = Buffer.from(/^bearer[ \t]+(\S+)$/i.exec(input.authorization?.trim() ?? '')?.[1] ?? '');
    const expected = Buffer.from(input.token);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }
  return isPrivateAddress(input.clientAddress);
}
