// The catalogue page's words for a parameter lib/catalog/params.ts refuses: people get a sentence about what to do,
// the API keeps its precise message.
const MESSAGES: Record<string, string> = {
  query: 'The search text is too long or contains characters that cannot be searched. Try a shorter search.',
  category: 'There is no such category. Pick one of the categories above.',
  language: 'That is not a language code. Choose a language from the Language menu.',
  tags: 'There are too many tags, or a tag is too long. Remove some tags and try again.',
  sort: 'That sort order does not exist. Choose one from the Sort menu.',
  page: 'That page number does not exist. Page numbers are whole numbers starting at 1.',
  pageSize: 'That page size is not valid. Page sizes are whole numbers starting at 1.',
};

export function friendlyListingError(parameter: string): string {
  return MESSAGES[parameter.replace(/\[\]$/, '')] ?? 'Part of this address could not be understood.';
}

/** "page 2 of 6", and past the last page, where the results end. */
export function pagePosition(page: number, totalPages: number): string | null {
  if (totalPages <= 1 && page <= 1) return null;
  if (page > totalPages) return totalPages === 0 ? 'no pages' : `past the last page (${totalPages})`;
  return `page ${page} of ${totalPages}`;
}
