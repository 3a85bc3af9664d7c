import '../support/gateway-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConnector } from '@/lib/routing/http-connector';
import { startExamplePublisher, startMisbehavingPublisher, type RunningPublisher } from '../support/gateway-fixtures';

/**
 * The kept connector (lib/routing/http-connector.ts): prepared once per knowledge-base route and reused by every query of
 * that route, so what it checks once must still hold for every call. Publisher failure modes through the whole
 * gateway are in gateway-metering.test.ts.
 */
const loopbackAllowed = { development: false, allowPrivate: true };
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;

beforeAll(async () => {
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher({ slowMs: 3_000 });
});

afterAll(async () => {
  await publisher?.stop();
  await bad?.stop();
});

const ask = (connector: HttpConnector, query: string, signal?: AbortSignal) =>
  connector.call({ kbId: 'kb_connector', query, requestId: `req_${query.length}`, signal });

describe('HttpConnector', () => {
  it('answers many calls, concurrent and one after another, each signed afresh (the example publisher verifies every one)', async () => {
    const connector = new HttpConnector(
      { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret, timeoutMs: 5_000 },
      loopbackAllowed,
    );
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => ask(connector, 'When do spring tides occur?')));
    const sequential = [await ask(connector, 'Which knot makes a fixed loop?'), await ask(connector, 'Which light shows to port?')];
    for (const outcome of [...concurrent, ...sequential]) expect(outcome.ok).toBe(true);
    const [knot] = sequential;
    expect(knot?.ok && knot.answer.citations[0]?.document_id).toBe('knots');
  });

  it('keeps its wrong secrets wrong: a refused call stays a publisher_error on every later call', async () => {
    const connector = new HttpConnector(
      { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: `wrong_sign_${'z'.repeat(32)}`, timeoutMs: 5_000 },
      loopbackAllowed,
    );
    for (let i = 0; i < 3; i++) expect(await ask(connector, 'tides')).toEqual({ ok: false, code: 'publisher_error', reason: 'publisher answered HTTP 401' });
  });

  it('checks the endpoint address before the first call and, when it is refused, never connects', async () => {
    const strict = new HttpConnector(
      { endpointUrl: `${bad.base}/ok`, infraKey: 'infra_key_0123456789', signingSecret: 's'.repeat(32), timeoutMs: 5_000 },
      { development: false, allowPrivate: false },
    );
    const before = bad.hits();
    for (let i = 0; i < 3; i++) {
      const outcome = await ask(strict, 'tides');
      expect(outcome.ok).toBe(false);
      expect(!outcome.ok && outcome.reason).toMatch(/^endpoint refused: /);
    }
    expect(bad.hits()).toBe(before);
  });

  it("ends the call when the caller goes away, as a publisher_error, long before the publisher's timeout", async () => {
    const connector = new HttpConnector(
      { endpointUrl: `${bad.base}/slow`, infraKey: 'infra_key_0123456789', signingSecret: 's'.repeat(32), timeoutMs: 5_000 },
      loopbackAllowed,
    );
    const caller = new AbortController();
    const started = Date.now();
    setTimeout(() => caller.abort(), 100);
    expect(await ask(connector, 'tides', caller.signal)).toEqual({ ok: false, code: 'publisher_error', reason: 'request aborted by the caller' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out each call on its own clock', async () => {
    const connector = new HttpConnector(
      { endpointUrl: `${bad.base}/slow`, infraKey: 'infra_key_0123456789', signingSecret: 's'.repeat(32), timeoutMs: 200 },
      loopbackAllowed,
    );
    const outcomes = await Promise.all([ask(connector, 'a'), new Promise((r) => setTimeout(r, 100)).then(() => ask(connector, 'b'))]);
    for (const outcome of outcomes) expect(outcome).toEqual({ ok: false, code: 'publisher_timeout', reason: 'no answer within 200 ms' });
  });
});
