export { createFrontServer } from './front-server.mjs';
export { findFastLane } from './fast-lane-slot.mjs';
export { reportRequest, traceRequest } from './request-metrics-slot.mjs';
export { isHttpsUrl, securityHeaders } from '../platform/security-headers.mjs';
