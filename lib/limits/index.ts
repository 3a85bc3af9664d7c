import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';
import { createMemoryRateLimiter } from './memory';
import { createRedisRateLimiter, probeRateLimiter } from './redis';
import type { RateLimiter } from './types';
import { createUpstashRateLimiter } from './upstash';

export * from './types';
export { createMemoryRateLimiter, createRedisRateLimiter, createUpstashRateLimiter, probeRateLimiter };

const SLOT = 'rate-limiter';

/** Upstash when its URL and token are set, else Redis when REDIS_URL is set, else in-process. */
function createConfiguredRateLimiter(): RateLimiter {
  const env = getEnv();
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return createUpstashRateLimiter({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, prefix: env.RATE_LIMIT_PREFIX });
  }
  if (env.REDIS_URL) return createRedisRateLimiter({ url: env.REDIS_URL, prefix: `${env.RATE_LIMIT_PREFIX}:` });
  return createMemoryRateLimiter();
}

export function getRateLimiter(): RateLimiter {
  return processSingleton(SLOT, createConfiguredRateLimiter);
}
