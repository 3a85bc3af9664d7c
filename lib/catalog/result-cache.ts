/**
 * An in-process result cache for the public catalog (docs/api.md §2.7): an entry lives `ttlMs` from the START of its
 * load, LRU within a count and byte budget, concurrent misses share one load, failures are not kept. In-process because
 * it saves a round trip and our CPU; N instances cost N loads per key per TTL, which Cache-Control already allows.
 */
export interface ResultCacheOptions<V> {
  /** Read at every call; 0 turns the cache off. */
  ttlMs: number | (() => number);
  maxEntries: number;
  maxBytes: number;
  sizeOf: (value: V) => number;
  now?: () => number;
}

export interface ResultCacheStats {
  hits: number;
  misses: number;
  shared: number;
  entries: number;
  bytes: number;
}

export interface ResultCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
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
