import { getEnv } from '@/lib/platform/env';
import { getRateLimiter } from '@/lib/limits';
import { admit, rateRule, type KeyedRequest } from './admission';
import { runKeyed, type KeyedEndpoint } from './keyed';
import type { GatewayOutcome } from './outcome';
import { readPeriodUsage, usageHeaders } from './quota';
import { NO_INPUT } from './request-body';
import type { UsageReport } from './schemas';

/** GET /kb/{kb_id}/usage (docs/api.md §10.5): never counted; the body's `rate_limit` is the QUERY limit's state, only read. */
export const USAGE_REQUESTS_PER_MINUTE = 30;

const USAGE: KeyedEndpoint<null, UsageReport> = {
  rateLimit: (admitted) => ({
    rule: { limit: USAGE_REQUESTS_PER_MINUTE, windowMs: getEnv().RATE_LIMIT_WINDOW_MS },
    limiterId: `usage:${admitted.record.keyId}`,
  }),
  parse: () => NO_INPUT,
  call: async (_, { admitted, headers }) => {
    const [used, queries] = await Promise.all([
      readPeriodUsage(admitted.db, admitted.period),
      getRateLimiter().peek(admitted.record.keyId, rateRule(admitted.record)),
    ]);
    const usage = { used, cap: admitted.cap };
    return {
      ok: true,
      status: 200,
      usage,
      headers: { ...headers, ...usageHeaders(usage) },
      answer: {
        used,
        cap: admitted.cap,
        remaining: Math.max(0, admitted.cap - used),
        resets_at: admitted.period.periodEnd.toISOString(),
        rate_limit: { limit: queries.limit, remaining: Math.max(0, queries.remaining), reset: Math.ceil(queries.resetAtMs / 1000) },
      },
    };
  },
};

export function handleUsageRequest(request: KeyedRequest): Promise<GatewayOutcome<UsageReport>> {
  return runKeyed({ requestId: request.requestId, admit: () => admit(request) }, USAGE);
}
