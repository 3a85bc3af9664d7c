/** Publishing: publisher profiles and the console's ownership rule, listings, plans, and operator lookups. Public surface. */
export * from './knowledge-base-lookup';
export * from './knowledge-bases';
export * from './ownership';
