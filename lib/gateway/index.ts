/**
 * The keyed query gateway: the pipeline (check order, quota, metering) and its faces — the Web face for Next's route
 * handler, the Node face for npm start's fast lane. Public surface.
 */
export { clearGatewayCaches, handleGatewayRequest, runSubscriberQuery, type GatewayOutcome, type SubscriberQueryResult } from './pipeline';
export { MAX_BODY_BYTES, MAX_QUERY_CHARS } from './request-body';
export type { GatewayRequest } from './keyed';
export { gatewayReply, serveKeyed, serveQueryRequest, toGatewayRequest } from './web';
export { handleSearchRequest, type SearchResults } from './search';
export { handleUsageRequest, type UsageReport } from './usage';
export { difyReply, handleDifyRetrieval, type DifyRecords } from './dify';
export { serveMcpRequest } from './mcp';
export { keyedRoute } from './endpoints';
export { registerNodeGateway } from './node';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
export { previewAllowance, previewsOffered, runPreviewQuery, type PreviewAllowance, type PreviewResult } from './preview';
