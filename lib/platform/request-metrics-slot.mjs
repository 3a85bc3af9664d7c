// How the plain Node server in front of Next (scripts/serve.mjs) reports each answered request to /metrics
// (lib/platform/metrics.ts, compiled by Next and registered from instrumentation.ts). Plain JavaScript, because
// serve.mjs imports it without a build step; the two meet on a registered symbol of globalThis, as the fast lane does
// (lib/gateway/fast-lane-slot.mjs).
const SLOT = Symbol.for('almanac.metrics.observe-request');

/** @param {(method: string, url: string, status: number, seconds: number) => void} observe */
export function registerRequestObserver(observe) {
  globalThis[SLOT] = observe;
}

/** Reports one request whose response was sent; before instrumentation registered the observer, nothing is counted. */
export function reportRequest(method, url, status, seconds) {
  globalThis[SLOT]?.(method, url, status, seconds);
}
