/**
 * The keyed query gateway: the pipeline (check order, quota, metering), its faces and the endpoint table, which
 * Next's route handlers and npm start's keyed lane (lib/server/keyed-lane.ts) both serve. Public surface.
 */
export { clearGatewayCaches, handleGatewayRequest, runSubscriberQuery, type GatewayOutcome, type SubscriberQueryResult } from './pipeline';
export { MAX_BODY_BYTES, MAX_QUERY_CHARS, type BodyReadResult } from './request-body';
export type { GatewayRequest } from './keyed';
export { gatewayErrorReply, gatewayReply, serveKeyed, serveQueryRequest, toGatewayRequest, type GatewayReply } from './web';
export { sseFrame, streamGatewayQuery, wantsEventStream, type EventStreamWriter } from './stream';
export { handleSearchRequest, type SearchResults } from './search';
export { handleUsageRequest, type UsageReport } from './usage';
export { difyReply, handleDifyRetrieval, type DifyRecords } from './dify';
export { answerMcpPost, serveMcpRequest } from './mcp';
export { KEYED_ENDPOINTS, keyedRoute, servedMethods, type KeyedEndpointName } from './endpoints';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
export { previewAllowance, previewsOffered, runPreviewQuery, type PreviewAllowance, type PreviewResult } from './preview';
