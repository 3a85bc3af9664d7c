/**
 * The keyed query gateway: the pipeline (check order, quota, metering) and its faces — the Web face for Next's route
 * handler, the Node face for npm start's fast lane. Public surface.
 */
export { clearGatewayCaches, handleGatewayRequest, runSubscriberQuery, MAX_BODY_BYTES, MAX_QUERY_CHARS, type GatewayOutcome, type GatewayRequest, type SubscriberQueryResult } from './pipeline';
export { serveQueryRequest, gatewayReply } from './web';
export { registerNodeGateway } from './node';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
