/** The keyed query gateway: the check order, its faces and the endpoint table that both HTTP stacks serve. */
export { runSubscriberQuery } from './pipeline';
export { type BodyReadResult } from './request-body';
export { MAX_BODY_BYTES, MAX_QUERY_CHARS } from './schemas';
export { gatewayErrorReply, gatewayReply, type GatewayReply } from './web';
export { sseFrame, streamGatewayQuery, wantsEventStream, type EventStreamWriter } from './stream';
export { answerMcpPost, serveMcpRequest } from './mcp';
export { KEYED_ENDPOINTS, keyedRoute, servedMethods, type KeyedEndpointName } from './endpoints';
export {
  difyRecordsSchema,
  difyRetrievalRequestSchema,
  idempotencyKeySchema,
  queryRequestSchema,
  searchRequestSchema,
  searchResultSchema,
  searchResultsSchema,
  usageReportSchema,
} from './schemas';
export { USAGE_REQUESTS_PER_MINUTE } from './usage';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
export { previewAllowance, previewsOffered, runPreviewQuery } from './preview';
