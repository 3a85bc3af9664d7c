/** The public catalog: listing, detail, the marketplace pages' reads and how the public endpoints serve them. */
export * from './catalog-page';
export * from './categories';
export * from './documents';
export * from './http';
export * from './cards';
export * from './knowledge-base';
export * from './listing';
export * from './publisher-page';
export * from './params';
export * from './public-answers';
export * from './public-endpoint';
export * from './public-limit';
export * from './facets';
export * from './suggest';
export * from './search-query';
export {
  categorySchema,
  knowledgeBaseDetailSchema,
  knowledgeBaseListSchema,
  knowledgeBaseListItemSchema,
  listingParametersSchema,
  planSchema,
} from './schemas';
