/** Accounts: users and passwords, sign-in (next-auth), sessions, OAuth providers, sign-in limits. Public surface. */
export * from './admin';
export * from './auth';
export * from './oauth-providers';
export * from './session';
export * from './sign-in-limiter';
export * from './users';
