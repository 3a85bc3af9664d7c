import { encode } from 'gpt-tokenizer';

/** Tokens of a text with the cl100k/o200k-family tokenizer that gpt-tokenizer ships (no download, no network). */
export function countTokens(text: string): number {
  if (!text) return 0;
  return encode(text).length;
}
