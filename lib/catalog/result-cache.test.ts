import { describe, expect, it } from 'vitest';
import { createResultCache, type ResultCacheOptions } from './result-cache';

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const options = (overrides: Partial<ResultCacheOptions<string>> = {}): ResultCacheOptions<string> => ({
  ttlMs: 30_000,
  maxEntries: 100,
  maxBytes: 1_000_000,
  sizeOf: (v) => v.length,
  ...overrides,
});

describe('createResultCache', () => {
  it('serves a fresh entry without loading again, and loads again once the time to live has passed', async () => {
    const time = clock();
    const cache = createResultCache(options({ now: time.now }));
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get('k', load)).toBe('v1');
    time.advance(29_999);
    expect(await cache.get('k', load)).toBe('v1');
    time.advance(1);
    expect(await cache.get('k', load)).toBe('v2');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, entries: 1 });
  });

  it('counts the time to live from the start of the load, so a slow load is not served longer', async () => {
    const time = clock();
    const cache = createResultCache(options({ now: time.now }));
    const slow = deferred<string>();
    const first = cache.get('k', () => slow.promise);
    time.advance(20_000);
    slow.resolve('old');
    expect(await first).toBe('old');
    time.advance(10_000);
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('keeps different keys apart', async () => {
    const cache = createResultCache(options());
    expect(await cache.get('a', async () => 'A')).toBe('A');
    expect(await cache.get('b', async () => 'B')).toBe('B');
    expect(await cache.get('a', async () => 'other')).toBe('A');
  });

  it('shares one load between concurrent misses of one key', async () => {
    const cache = createResultCache(options());
    const gate = deferred<string>();
    let loads = 0;
    const load = () => {
      loads++;
      return gate.promise;
    };
    const waiting = Array.from({ length: 50 }, () => cache.get('k', load));
    gate.resolve('shared');
    expect(await Promise.all(waiting)).toEqual(Array(50).fill('shared'));
    expect(loads).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 1, shared: 49 });
  });

  it('does not keep a failed load: its waiters all get the error, the next caller loads again', async () => {
    const cache = createResultCache(options());
    const gate = deferred<string>();
    const a = cache.get('k', () => gate.promise);
    const b = cache.get('k', async () => 'never');
    gate.reject(new Error('database down'));
    await expect(a).rejects.toThrow('database down');
    await expect(b).rejects.toThrow('database down');
    expect(await cache.get('k', async () => 'recovered')).toBe('recovered');
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = createResultCache(options({ maxEntries: 2 }));
    await cache.get('a', async () => 'A');
    await cache.get('b', async () => 'B');
    await cache.get('a', async () => 'x'); // a is now the most recently used
    await cache.get('c', async () => 'C');
    expect(await cache.get('a', async () => 'reloaded')).toBe('A');
    expect(await cache.get('b', async () => 'reloaded')).toBe('reloaded');
    expect(cache.stats().entries).toBe(2);
  });

  it('keeps the sum of sizes within maxBytes, and never keeps a value larger than the budget', async () => {
    const cache = createResultCache(options({ maxBytes: 10 }));
    await cache.get('a', async () => 'aaaa');
    await cache.get('b', async () => 'bbbb');
    await cache.get('c', async () => 'cccc');
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 8 });
    expect(await cache.get('a', async () => 'gone')).toBe('gone');
    expect(await cache.get('huge', async () => 'x'.repeat(11))).toBe('x'.repeat(11));
    expect(await cache.get('huge', async () => 'loaded again')).toBe('loaded again');
    expect(cache.stats().bytes).toBeLessThanOrEqual(10);
  });

  it('clear() forgets entries and loads under way', async () => {
    const cache = createResultCache(options());
    await cache.get('a', async () => 'A');
    const slow = deferred<string>();
    const pending = cache.get('b', () => slow.promise);
    cache.clear();
    slow.resolve('from before the clear');
    expect(await pending).toBe('from before the clear');
    expect(await cache.get('a', async () => 'A2')).toBe('A2');
    expect(await cache.get('b', async () => 'B2')).toBe('B2');
  });

  it('with a time to live of 0 it is off: every call loads', async () => {
    const cache = createResultCache(options({ ttlMs: 0 }));
    let loads = 0;
    await Promise.all([cache.get('k', async () => String(++loads)), cache.get('k', async () => String(++loads))]);
    await cache.get('k', async () => String(++loads));
    expect(loads).toBe(3);
    expect(cache.stats().entries).toBe(0);
  });
});
