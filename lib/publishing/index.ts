/** Publishing: creating hosted knowledge bases and finding knowledge bases in every state for operators. Public surface. */
export * from './knowledge-base-lookup';
export * from './knowledge-bases';
