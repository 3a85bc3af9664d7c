import type { PreparedRoute } from '@/lib/routing';
import { processSingleton } from '@/lib/platform/singleton';
import type { GatewayKeyRecord } from './key-lookup';

/** Process-wide key and knowledge-base caches, short so every instance sees a revocation within half a second (docs/api.md §4.3). */
const CACHE_TTL_MS = 500;
const CACHE_MAX_ENTRIES = 50_000;

/**
 * Unknown (null) results and failed loads are not kept: a key issued a moment ago must work at once. A settled hit is
 * a plain value, not a promise: awaiting one costs a microtask and Next's async-context hooks on every request.
 */
class LookupCache<V> {
  private entries = new Map<string, { loading: Promise<V | null>; value: V | undefined; expires: number }>();

  lookup(key: string, load: () => Promise<V | null>): V | Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value ?? hit.loading;
    if (this.entries.size >= CACHE_MAX_ENTRIES) this.entries.clear();
    const entry = { loading: load(), value: undefined as V | undefined, expires: now + CACHE_TTL_MS };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    entry.loading.then((value) => (value === null ? forget() : (entry.value = value)), forget);
    return entry.loading;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

interface Caches {
  keys: LookupCache<GatewayKeyRecord>;
  kbs: LookupCache<PreparedRoute>;
}

export function caches(): Caches {
  return processSingleton('gateway-caches', () => ({ keys: new LookupCache(), kbs: new LookupCache() }));
}

export function clearGatewayCaches(): void {
  caches().keys.clear();
  caches().kbs.clear();
}
