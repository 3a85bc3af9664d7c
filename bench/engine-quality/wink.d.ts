declare module 'wink-bm25-text-search';
declare module 'wink-nlp-utils';
