/**
 * A small in-process result cache for the public catalog (docs/api.md §2.7): an entry lives at most `ttlMs` from the
 * moment its load STARTED (never older than the time to live, however long the load took), memory is bounded by an
 * entry count and a byte budget (least recently used out first), concurrent misses for one key share one load, and a
 * failed load is not kept. In-process rather than Redis because what it saves is a round trip and our own CPU per
 * request; N instances cost the database at most N loads per key per TTL, the promise Cache-Control already makes.
 */
export interface ResultCacheOptions<V> {
  /** How long an entry is served, from the start of its load (read at every call). 0 turns the cache off (every call loads). */
  ttlMs: number | (() => number);
  maxEntries: number;
  /** Budget for the sum of `sizeOf` over the entries kept. */
  maxBytes: number;
  sizeOf: (value: V) => number;
  now?: () => number;
}

export interface ResultCacheStats {
  hits: number;
  misses: number;
  /** Misses that joined a load already under way for the same key. */
  shared: number;
  entries: number;
  bytes: number;
}

export interface ResultCache<V> {
  /** The fresh value for `key`, or the result of `load` (shared with any caller already loading that key). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets every entry and zeroes the counters; loads under way when it is called are not kept either. */
  clear(): void;
  stats(): ResultCacheStats;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
  size: number;
}

export function createResultCache<V>(options: ResultCacheOptions<V>): ResultCache<V> {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order; a hit re-inserts its key, so the first key is the least recently used.
  const entries = new Map<string, Entry<V>>();
  const loading = new Map<string, Promise<V>>();
  let bytes = 0;
  let generation = 0;
  const counts = { hits: 0, misses: 0, shared: 0 };

  function remove(key: string, entry: Entry<V>) {
    entries.delete(key);
    bytes -= entry.size;
  }

  function store(key: string, value: V, expiresAt: number) {
    const size = options.sizeOf(value);
    const old = entries.get(key);
    if (old) remove(key, old);
    if (size > options.maxBytes) return;
    entries.set(key, { value, expiresAt, size });
    bytes += size;
    for (const [oldest, entry] of entries) {
      if (entries.size <= options.maxEntries && bytes <= options.maxBytes) break;
      remove(oldest, entry);
    }
  }

  return {
    get(key, load) {
      const ttlMs = typeof options.ttlMs === 'function' ? options.ttlMs() : options.ttlMs;
      if (ttlMs <= 0) return load();
      const at = now();
      const entry = entries.get(key);
      if (entry) {
        if (entry.expiresAt > at) {
          counts.hits++;
          entries.delete(key);
          entries.set(key, entry);
          return Promise.resolve(entry.value);
        }
        remove(key, entry);
      }
      const pending = loading.get(key);
      if (pending) {
        counts.shared++;
        return pending;
      }
      counts.misses++;
      const startedIn = generation;
      const promise = load().then(
        (value) => {
          if (loading.get(key) === promise) loading.delete(key);
          if (startedIn === generation) store(key, value, at + ttlMs);
          return value;
        },
        (error: unknown) => {
          if (loading.get(key) === promise) loading.delete(key);
          throw error;
        },
      );
      loading.set(key, promise);
      return promise;
    },
    clear() {
      generation++;
      entries.clear();
      loading.clear();
      bytes = 0;
      Object.assign(counts, { hits: 0, misses: 0, shared: 0 });
    },
    stats() {
      return { ...counts, entries: entries.size, bytes };
    },
  };
}
