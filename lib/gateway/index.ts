/**
 * The keyed query gateway: the pipeline (check order, quota, metering) and its faces — the Web face for Next's route
 * handler, the Node face for npm start's fast lane. Public surface.
 */
export { clearGatewayCaches, handleGatewayRequest, runSubscriberQuery, type GatewayOutcome, type SubscriberQueryResult } from './pipeline';
export {
  DEFAULT_TOP_K,
  difyRecordsSchema,
  difyRetrievalRequestSchema,
  idempotencyKeySchema,
  MAX_BODY_BYTES,
  MAX_QUERY_CHARS,
  MAX_TOP_K,
  queryRequestSchema,
  searchRequestSchema,
  searchResultSchema,
  searchResultsSchema,
  usageReportSchema,
  type DifyRecords,
  type SearchResults,
  type UsageReport,
} from './schemas';
export type { GatewayRequest } from './keyed';
export { gatewayReply, serveKeyed, serveQueryRequest, toGatewayRequest } from './web';
export { handleSearchRequest } from './search';
export { handleUsageRequest, USAGE_REQUESTS_PER_MINUTE } from './usage';
export { difyReply, handleDifyRetrieval } from './dify';
export { serveMcpRequest } from './mcp';
export { keyedRoute } from './endpoints';
export { registerNodeGateway } from './node';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
export { previewAllowance, previewsOffered, runPreviewQuery, type PreviewAllowance, type PreviewResult } from './preview';
