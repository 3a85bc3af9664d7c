/** The public catalog: categories, listing parameters, the listing and detail queries, their HTTP headers. Public surface. */
export * from './categories';
export * from './http';
export * from './listing';
export * from './params';
export * from './search-query';
