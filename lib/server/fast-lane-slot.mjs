// The one place where the fast lane is handed from the app (lane.ts, compiled by Next and run from
// instrumentation.ts) to the plain Node server in front of it (scripts/serve.mjs). Plain JavaScript, because
// serve.mjs imports it without a build step; typed by fast-lane-slot.d.mts. Next bundles its own copy of this module,
// so the two copies meet on a registered symbol of globalThis rather than on a module variable.
const SLOT = Symbol.for('almanac.gateway.fast-lane');

/** @param {import('./fast-lane-slot.d.mts').FastLane} lane */
export function registerFastLane(lane) {
  globalThis[SLOT] = lane;
}

/** @returns {import('./fast-lane-slot.d.mts').FastLane | undefined} */
export function findFastLane() {
  return globalThis[SLOT];
}
