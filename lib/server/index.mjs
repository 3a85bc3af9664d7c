// The server in front of Next, as scripts/serve.mjs (`npm start`) sees it: the front server with its timeouts and
// peer stamp, the security headers of every answer, the request metrics, and the fast lane that instrumentation.ts
// registers from inside Next's build (lane.ts). Plain JavaScript, because serve.mjs runs without a build step.
export { createFrontServer } from './front-server.mjs';
export { findFastLane } from './fast-lane-slot.mjs';
export { reportRequest, traceRequest } from './request-metrics-slot.mjs';
export { isHttpsUrl, securityHeaders } from '../platform/security-headers.mjs';
