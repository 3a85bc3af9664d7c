import type { ListingValues } from './listing-form';

/** A new listing's form: empty, in English, under CC BY 4.0, answered by the hosted engine. */
export const NEW_LISTING_VALUES: ListingValues = {
  title: '',
  summary: '',
  description: '',
  category: '',
  tags: '',
  language: 'en',
  licence: 'CC BY 4.0',
  sampleQuestions: '',
  backendKind: 'hosted',
};
