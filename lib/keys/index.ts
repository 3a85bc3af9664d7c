/** API keys: the format (generate, parse, checksum, hash) and the store (issue, revoke, list). Public surface. */
export * from './format';
export * from './store';
