export * from './authorize';
export * from './clients';
export * from './metadata';
export * from './tokens';
export { CLIENT_METADATA_MAX_BYTES, isClientMetadataUrl, type ClientMetadataOptions } from './client-metadata';
export { isLoopbackRedirect } from './redirect-uris';
export { purgeExpiredOAuthState, startOAuthPurge, type OAuthPurge } from './housekeeping';
