import { z } from 'zod';
import { CATEGORIES } from './categories';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, MAX_QUERY_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, SORTS } from './params';

/** The marketplace API's inputs and outputs (docs/api.md §2) as zod schemas: the one source of their shapes and limits. */

export const categorySchema = z.enum(CATEGORIES);

const count = z.int().min(0);

export const knowledgeBaseListItemSchema = z.object({
  id: z.string().regex(/^kb_/),
  title: z.string(),
  publisher: z.string().meta({ description: 'The publisher’s display name.' }),
  summary: z.string(),
  category: categorySchema,
  tags: z.array(z.string()),
  subscribersCount: count.meta({ description: 'Subscriptions active now.' }),
  queryVolume: count.meta({ description: 'Successful (200) queries ever.' }),
  updatedAt: z.iso.datetime().meta({ description: 'ISO 8601 UTC, e.g. 2026-01-31T12:00:00.000Z' }),
});

export const knowledgeBaseListSchema = z.object({
  items: z.array(knowledgeBaseListItemSchema),
  total: count,
  page: z.int().min(1),
  pageSize: z.int().min(1).max(MAX_PAGE_SIZE),
  totalPages: count.meta({ description: 'ceil(total / pageSize); 0 when nothing matches.' }),
});

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: count,
  currency: z.string(),
  queriesPerPeriod: count,
  requestsPerMinute: z.int().min(1),
});

export const knowledgeBaseDetailSchema = knowledgeBaseListItemSchema
  .extend({
    description: z.string(),
    plans: z.array(planSchema),
    documentsCount: count,
    language: z.string(),
    licence: z.string(),
    sampleQuestions: z.array(z.string()),
  })
  .meta({ description: 'The nine listing fields plus description, plans, document count, language, licence and sample questions.' });

export const listingParametersSchema = z.object({
  query: z
    .string()
    .max(MAX_QUERY_LENGTH)
    .optional()
    .meta({ description: 'Full-text search (stemmed, accent- and case-insensitive, last word as prefix; U.S. = US).' }),
  category: categorySchema.optional().meta({ description: 'Case-insensitive.' }),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z]{2})?$/)
    .optional()
    .meta({
      examples: ['es'],
      description: 'An extension: the language of the content (en, es, de, fr, pt-BR…), case-insensitive; matched on its primary subtag, so pt finds pt-BR.',
    }),
  tags: z
    .array(z.string().max(MAX_TAG_LENGTH))
    .max(MAX_TAGS)
    .optional()
    .meta({ description: 'All must match; repeated (tags=a&tags=b), comma-separated (tags=a,b) or tags[]=a; case-insensitive.' }),
  sort: z
    .enum(SORTS)
    .default('popular')
    .meta({ description: 'relevance (an extension): title matches first, then the popular order; without query it equals popular.' }),
  page: z.int().min(1).max(MAX_PAGE).default(1),
  pageSize: z
    .int()
    .min(1)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `Values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}.` }),
});

export type KnowledgeBaseListItem = z.infer<typeof knowledgeBaseListItemSchema>;
export type KnowledgeBaseDetail = z.infer<typeof knowledgeBaseDetailSchema>;
