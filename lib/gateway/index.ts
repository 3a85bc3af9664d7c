/**
 * The keyed query gateway: the pipeline (check order, quota, metering) and its faces — the Web face for Next's route
 * handler, the Node face for npm start's fast lane. Public surface.
 */
export { runSubscriberQuery } from './pipeline';
export {
  difyRecordsSchema,
  difyRetrievalRequestSchema,
  idempotencyKeySchema,
  MAX_BODY_BYTES,
  queryRequestSchema,
  searchRequestSchema,
  searchResultSchema,
  searchResultsSchema,
  usageReportSchema,
} from './schemas';
export { USAGE_REQUESTS_PER_MINUTE } from './usage';
export { keyedRoute } from './endpoints';
export { registerNodeGateway } from './node';
export { getUsageRecorder } from './usage-recorder';
export { startIdempotencyPurge } from './idempotency';
export { previewAllowance, previewsOffered, runPreviewQuery } from './preview';
