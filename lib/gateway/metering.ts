import { siteUrl } from '@/lib/platform/base-url';
import { ERROR_STATUS } from '@/lib/platform/errors';
import { log } from '@/lib/platform/log';
import { countAnswer, observeStage } from '@/lib/platform/metrics';
import { noteUsage } from '@/lib/alerts';
import type { KeyedRun } from './keyed';
import { deny, type GatewayOutcome } from './outcome';
import { releaseQueryUnit, reserveQueryUnit, usageHeaders } from './quota';
import { getUsageRecorder } from './usage-recorder';
import { accountPaths } from '@/lib/site/paths';

/**
 * Rows 9–11 of every metered call (docs/api.md §3.6, §3.7): a unit reserved before the backend runs is given back on
 * failure, on an empty result or when the caller hung up, so exactly the delivered results count.
 */

type BackendFailure = { ok: false; code: 'publisher_error' | 'publisher_timeout' | 'internal_error'; reason: string };
export type BackendResult<T> = { ok: true; value: T } | BackendFailure;

export interface MeteredCall<T> extends KeyedRun {
  call: () => Promise<BackendResult<T>>;
  isEmpty: (value: T) => boolean;
  tokensOf: (value: T) => number;
  /** For streams: whether the result reached the client; one that left before `done` is not counted. */
  deliver?: (value: T, usage: { used: number; cap: number }) => Promise<boolean>;
  onReserved?: () => void;
}

export async function meter<T>(metered: MeteredCall<T>): Promise<GatewayOutcome<T>> {
  const { admitted, headers, requestId } = metered;
  const { db, kb, period, cap, record } = admitted;
  // Row 9: reserve one unit of the cap before routing (exact under any concurrency).
  const reservation = await observeStage('quota', () => reserveQueryUnit(db, period, cap), { 'almanac.request_id': requestId, 'almanac.kb_id': kb.id });
  if (!reservation.ok) {
    getUsageRecorder().recordRefusal({ kbId: kb.id, code: 'query_cap_exceeded', at: new Date() });
    Object.assign(headers, usageHeaders({ used: reservation.used, cap }));
    return deny('query_cap_exceeded', `This subscription has used all ${cap} queries of the current billing period.`, headers, {
      usage: { used: reservation.used, cap },
      resets_at: period.periodEnd.toISOString(),
      upgrade_url: siteUrl(accountPaths.subscription(record.subscription.id)),
    });
  }
  metered.onReserved?.();
  let result: BackendResult<T>;
  try {
    result = await observeStage(kb.backend.kind === 'hosted' ? 'engine' : 'backend', () => metered.call(), {
      'almanac.request_id': requestId,
      'almanac.kb_id': kb.id,
    });
  } catch (err) {
    log.error({ err, request_id: requestId, kb_id: kb.id }, 'routing failed');
    result = { ok: false, code: 'internal_error', reason: 'routing failed' };
  }
  const recorder = getUsageRecorder();
  const base = { requestId, kbId: kb.id, subscriptionId: record.subscription.id, keyId: record.keyId, at: new Date(), keyLastUsedAt: record.keyLastUsedAt };
  if (result.ok) {
    const abstained = metered.isEmpty(result.value);
    countAnswer(abstained);
    let usage = { used: abstained ? await releaseQueryUnit(db, period) : reservation.used, cap };
    const delivered = metered.deliver ? await metered.deliver(result.value, usage) : true;
    if (!delivered && !abstained) usage = { used: await releaseQueryUnit(db, period), cap };
    // A comparison on the count just returned; any recording runs off this request's path.
    if (delivered && !abstained) noteUsage(db, { ...period, used: usage.used, cap });
    recorder.record({
      ...base,
      status: delivered ? 200 : 499,
      errorCode: delivered ? null : 'client_closed',
      abstained,
      tokensUsed: metered.tokensOf(result.value),
      latencyMs: Date.now() - metered.started,
    });
    Object.assign(headers, usageHeaders(usage));
    return { ok: true, status: 200, answer: result.value, usage, headers };
  }
  const usedAfter = await releaseQueryUnit(db, period);
  Object.assign(headers, usageHeaders({ used: usedAfter, cap }));
  recorder.record({ ...base, status: ERROR_STATUS[result.code], errorCode: result.code, tokensUsed: 0, latencyMs: Date.now() - metered.started });
  log.warn({ request_id: requestId, kb_id: kb.id, code: result.code, reason: result.reason }, 'query not answered');
  const message =
    result.code === 'publisher_timeout'
      ? `The publisher did not answer within ${kb.timeoutMs} ms. This query was not counted.`
      : result.code === 'publisher_error'
        ? "The publisher's backend failed to answer. This query was not counted."
        : 'Something went wrong on our side. This query was not counted; quote the request id if you contact support.';
  return deny(result.code, message, headers);
}
