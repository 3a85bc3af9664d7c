import { categoryEnum } from '@/db/schema';

/** The five categories; the database enum is the one source (docs/api.md lists them for the public listing). */
export const CATEGORIES = categoryEnum.enumValues;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
