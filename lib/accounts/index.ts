/** Accounts: users and passwords, sign-in, sessions, OAuth providers, sign-in limits, verification and reset links. */
export * from './admin';
export * from './account-tokens';
export * from './auth';
export { serveNextAuth } from './next-auth-route';
export * from './oauth-providers';
export * from './passwords';
export * from './recovery';
export * from './session';
export * from './session-route';
export * from './sign-in-limiter';
export * from './users';
export { endAllSessions, forgetSessionVersion } from './session-version';
