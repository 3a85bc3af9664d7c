/** Routing: a query's way to a knowledge base's backend (the publisher's http endpoint or the built-in engine). Public surface. */
export * from './backends';
export { MAX_ANSWER_BYTES, signPayload, callHttpBackend, type HttpBackendTarget, type PublisherOutcome } from './http-connector';
export { type GuardPolicy } from '@/lib/platform/ssrf-guard';
export * from './alert-webhooks';
export * from './console';
export { rotateStoredSecrets, type SecretRotation } from './secret-rotation';
export { documentationAnswer } from './examples';
