// Hands the fast lane from the app (lane.ts, built by Next, run from instrumentation.ts) to scripts/serve.mjs. Next
// bundles its own copy of this module, so the two copies meet on a globalThis symbol rather than a module variable.
const SLOT = Symbol.for('almanac.gateway.fast-lane');

export function registerFastLane(lane) {
  globalThis[SLOT] = lane;
}

export function findFastLane() {
  return globalThis[SLOT];
}
