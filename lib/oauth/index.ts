export * from './authorize';
export * from './clients';
export * from './metadata';
export * from './tokens';
export { type ClientMetadataOptions } from './client-metadata';
export { isLoopbackRedirect } from './redirect-uris';
export { purgeExpiredOAuthState, startOAuthPurge } from './housekeeping';
