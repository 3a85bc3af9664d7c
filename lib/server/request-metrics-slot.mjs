// How the plain Node server in front of Next (scripts/serve.mjs) reports each answered request to /metrics and runs
// the keyed endpoints inside a trace span (lib/platform/metrics.ts and tracing.ts, compiled by Next and registered
// from instrumentation.ts). Plain JavaScript, because serve.mjs imports it without a build step; the two meet on
// registered symbols of globalThis, as the fast lane does (fast-lane-slot.mjs).
const OBSERVER = Symbol.for('almanac.metrics.observe-request');
const TRACER = Symbol.for('almanac.tracing.request-span');

/** @param {(method: string, url: string, status: number, seconds: number) => void} observe */
export function registerRequestObserver(observe) {
  globalThis[OBSERVER] = observe;
}

/** Reports one request whose response was sent; before instrumentation registered the observer, nothing is counted. */
export function reportRequest(method, url, status, seconds) {
  globalThis[OBSERVER]?.(method, url, status, seconds);
}

/** @param {<T>(name: string, work: () => Promise<T>) => Promise<T>} trace */
export function registerRequestTracer(trace) {
  globalThis[TRACER] = trace;
}

/** Runs `work` inside a span named `name` when traces are on (the gateway's stage spans nest in it), else just runs it. */
export function traceRequest(name, work) {
  const trace = globalThis[TRACER];
  return trace ? trace(name, work) : work();
}
