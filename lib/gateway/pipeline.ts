import { ERROR_STATUS, type ErrorCode } from '@/lib/platform/errors';
import { getDb } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { routeQuery } from '@/lib/routing';
import type { AnswerProgress, QueryAnswer } from '@/lib/query-answer';
import { admitKnownKey } from './admission';
import { findKeyByHash, findSubscriberKeyHash } from './key-lookup';
import { overHttp, runKeyed, type GatewayRequest, type KeyedEndpoint, type KeyedRun } from './keyed';
import { meter, type BackendResult, type MeteredCall } from './metering';
import type { GatewayOutcome } from './outcome';
import { queryOf, validateQuery } from './request-body';

export { clearGatewayCaches } from './caches';
export type { GatewayOutcome } from './outcome';

/** POST /kb/{kb_id}/query (docs/api.md §3) and the buyer's Try-it, as adapters over the keyed endpoint (keyed.ts). */

export type AnswerDelivery = Pick<MeteredCall<QueryAnswer>, 'deliver' | 'onReserved'> & { progress?: AnswerProgress };

export function meterAnswer(run: KeyedRun, query: string, delivery: AnswerDelivery = {}): Promise<GatewayOutcome<QueryAnswer>> {
  const { admitted, requestId, signal } = run;
  return meter<QueryAnswer>({
    ...run,
    call: async (): Promise<BackendResult<QueryAnswer>> => {
      const routed = await routeQuery(admitted.kb, { kbId: admitted.kb.id, query, requestId, signal, progress: delivery.progress });
      return routed.ok ? { ok: true, value: routed.answer } : routed;
    },
    isEmpty: (answer) => answer.citations.length === 0,
    tokensOf: (answer) => answer.tokens_used,
    deliver: delivery.deliver,
    onReserved: delivery.onReserved,
  });
}

const QUERY: KeyedEndpoint<string, QueryAnswer> = { idempotent: true, parse: queryOf, call: (query, run) => meterAnswer(run, query) };

export function handleGatewayRequest(request: GatewayRequest): Promise<GatewayOutcome> {
  return runKeyed(overHttp(request), QUERY);
}

export type SubscriberQueryResult =
  | { ok: true; answer: QueryAnswer; usage: { used: number; cap: number; remaining: number } }
  | { ok: false; code: ErrorCode; message: string; status: number; extras: Record<string, unknown> };

/** Try-it: rows 3 on for the signed-in buyer, limited under the subscription's newest key and counted like any call. */
export async function runSubscriberQuery(input: {
  userId: string;
  kbId: string;
  query: string;
  requestId: string;
  signal?: AbortSignal;
}): Promise<SubscriberQueryResult> {
  const started = Date.now();
  if (!isCleanId(input.kbId))
    return { ok: false, code: 'invalid_query', status: ERROR_STATUS.invalid_query, message: 'This is not a knowledge-base id.', extras: {} };
  const db = await getDb();
  const keyHash = await findSubscriberKeyHash(db, input.userId, input.kbId);
  const record = keyHash ? await findKeyByHash(db, keyHash) : null;
  if (!keyHash || !record) {
    return {
      ok: false,
      code: 'forbidden',
      status: 403,
      message: 'You need an active subscription with an active key to query this knowledge base.',
      extras: {},
    };
  }
  const outcome = await runKeyed(
    { requestId: input.requestId, signal: input.signal, started, admit: () => admitKnownKey(db, record, keyHash, input.kbId) },
    { parse: () => validateQuery(input.query), call: (query, run) => meterAnswer(run, query) },
  );
  if (outcome.ok === 'replayed') throw new Error('The Try-it panel sends no Idempotency-Key.');
  if (outcome.ok) {
    const { used, cap } = outcome.usage;
    return { ok: true, answer: outcome.answer, usage: { used, cap, remaining: Math.max(0, cap - used) } };
  }
  return { ok: false, code: outcome.code, message: outcome.message, status: outcome.status, extras: outcome.extras };
}
