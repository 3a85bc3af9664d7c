// What scripts/serve.mjs (`npm start`) imports of the server in front of Next; the fast lane itself is registered from
// inside Next's build (lane.ts). Plain JavaScript, because serve.mjs runs without a build step.
export { createFrontServer } from './front-server.mjs';
export { findFastLane } from './fast-lane-slot.mjs';
export { reportRequest, traceRequest } from './request-metrics-slot.mjs';
export { isHttpsUrl, securityHeaders } from '../platform/security-headers.mjs';
