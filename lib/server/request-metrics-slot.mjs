// How scripts/serve.mjs reports each answer to /metrics and traces the keyed endpoints (metrics.ts, tracing.ts, built
// by Next). Plain JavaScript, imported without a build step; they meet on globalThis symbols, like fast-lane-slot.mjs.
const OBSERVER = Symbol.for('almanac.metrics.observe-request');
const TRACER = Symbol.for('almanac.tracing.request-span');

export function registerRequestObserver(observe) {
  globalThis[OBSERVER] = observe;
}

/** Nothing is counted before instrumentation registers the observer. */
export function reportRequest(method, url, status, seconds) {
  globalThis[OBSERVER]?.(method, url, status, seconds);
}

export function registerRequestTracer(trace) {
  globalThis[TRACER] = trace;
}

/** Inside a span when traces are on (the gateway's stage spans nest in it). */
export function traceRequest(name, work) {
  const trace = globalThis[TRACER];
  return trace ? trace(name, work) : work();
}
