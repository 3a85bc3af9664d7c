/** Publishing: publisher profiles and the console's ownership rule, listings, plans, suspensions, and operator lookups. Public surface. */
export * from './actor';
export * from './analytics';
export * from './knowledge-base-lookup';
export * from './knowledge-bases';
export * from './listings';
export * from './moderation';
export * from './ownership';
export * from './plans';
export * from './profiles';
export * from './rules';
