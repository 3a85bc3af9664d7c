/** API keys: the format (generate, parse, checksum, hash) and the store (issue, revoke, list). */
export * from './format';
export * from './store';
