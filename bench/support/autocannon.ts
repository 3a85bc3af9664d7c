// @ts-expect-error autocannon ships no type declarations
import autocannonModule from 'autocannon';

/** autocannon's options and results as the benchmarks use them (bench/gateway, bench/scale-out). */
export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  connections: number;
  duration?: number;
  amount?: number;
  timeout?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Requests sent in turn; each one's setupRequest may change it before it is sent (another key each time, say). */
  requests?: { setupRequest?: (request: { headers?: Record<string, string> }) => { headers?: Record<string, string> } }[];
}
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
/** A run with skipAggregateResult: raw histograms that autocannon.aggregateResult merges. */
export interface RawLoadResult {
  totalCompletedRequests: number;
  non2xx: number;
  errors: number;
}
export const autocannon = autocannonModule as ((options: LoadOptions) => Promise<LoadResult>) & {
  aggregateResult(results: RawLoadResult[], opts: { url: string; connections: number }): LoadResult;
};
export const autocannonRaw = autocannonModule as (options: LoadOptions & { skipAggregateResult: true }) => Promise<RawLoadResult>;

/** Slices of one row measured apart (interleaved with other rows), merged: requests per second and latency. */
export function mergeSlices(slices: RawLoadResult[], opts: LoadOptions, seconds: number) {
  const merged = autocannon.aggregateResult(slices, { url: opts.url, connections: opts.connections });
  const total = slices.reduce((sum, r) => sum + r.totalCompletedRequests, 0);
  return {
    rps: Math.round(total / seconds),
    p50: merged.latency.p50,
    p90: merged.latency.p90,
    p99: merged.latency.p99,
    /** Mean latency (ms, two decimals): p50s are whole milliseconds. */
    mean: Number(merged.latency.average.toFixed(2)),
    non2xx: merged.non2xx,
    errors: merged.errors,
    total,
  };
}
