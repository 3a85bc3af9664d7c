/** Routing: a query's way to a knowledge base's backend (the publisher's http endpoint or the built-in engine). */
export * from './backends';
export * from './console';
export { rotateStoredSecrets } from './secret-rotation';
export { documentationAnswer } from './examples';
