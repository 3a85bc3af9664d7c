import { z } from 'zod';
import { describeTextProblem, textProblem } from '@/lib/platform/text-input';

/** The keyed API's inputs and outputs (docs/api.md §3, §10) as zod schemas: the one source of their shapes and limits. */

export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_QUERY_CHARS = 2_000;
const DEFAULT_TOP_K = 5;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const MAX_TOP_K = 20;

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export const queryTextSchema = z
  .string({ error: (issue) => (issue.input === undefined ? '"query" is required.' : '"query" must be a string.') })
  .trim()
  .min(1, { error: '"query" must not be blank.', abort: true })
  // Characters are code points, as JSON Schema's maxLength counts them (an emoji is one, not two UTF-16 units), so
  // zod's .max (UTF-16 units) would refuse queries the document allows; the bound is declared for JSON Schema below.
  .refine((query) => codePoints(query) <= MAX_QUERY_CHARS, { error: `"query" must be at most ${MAX_QUERY_CHARS} characters.`, abort: true })
  .refine((query) => textProblem(query) === null, {
    error: (issue) => `"query" is refused: ${describeTextProblem(textProblem(String(issue.input))!)}.`,
  })
  .meta({
    maxLength: MAX_QUERY_CHARS,
    description: `Trimmed; not blank; at most ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters; no control characters but tab, CR and LF.`,
  });

export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .regex(/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/);

const TOP_K_MESSAGE = `"top_k" must be an integer from 1 to ${MAX_TOP_K}.`;
export const topKSchema = z
  .int({ error: TOP_K_MESSAGE })
  .min(1, { error: TOP_K_MESSAGE })
  .max(MAX_TOP_K, { error: TOP_K_MESSAGE })
  .default(DEFAULT_TOP_K)
  .meta({ description: `How many passages: an integer from 1 to ${MAX_TOP_K}, default ${DEFAULT_TOP_K}.` });

const SCORE_THRESHOLD_MESSAGE = '"retrieval_setting.score_threshold" must be a number from 0 to 1.';
export const scoreThresholdSchema = z
  .number({ error: SCORE_THRESHOLD_MESSAGE })
  .min(0, { error: SCORE_THRESHOLD_MESSAGE })
  .max(1, { error: SCORE_THRESHOLD_MESSAGE })
  .default(0)
  .meta({ description: 'Passages scoring below it are not records.' });

// Members other than these are ignored (docs/api.md §3.3), so the request objects are open.

export const queryRequestSchema = z.looseObject({ query: queryTextSchema });

export const searchRequestSchema = z.looseObject({ query: queryTextSchema, top_k: topKSchema });

export const difyRetrievalRequestSchema = z.looseObject({
  knowledge_id: z.string().min(1).meta({ description: 'The knowledge base id, slug or publisher/slug.' }),
  query: queryTextSchema,
  retrieval_setting: z.looseObject({ top_k: topKSchema, score_threshold: scoreThresholdSchema }).optional(),
  metadata_condition: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Accepted and ignored: Almanac keeps no document metadata to filter on.' }),
});

const pageSchema = z.int().min(1).nullable().meta({ description: '1-based page where the source has pages; null where it has none.' });

export const searchResultSchema = z.object({
  document_id: z.string().min(1),
  title: z.string(),
  excerpt: z.string(),
  page: pageSchema,
  score: z
    .number()
    .gt(0)
    .max(1)
    .meta({ description: 'The first passage scores 1; the others in proportion to their ranking score, never above the passage before them.' }),
});

export const searchResultsSchema = z.object({ results: z.array(searchResultSchema).max(MAX_TOP_K) });

const count = z.int().min(0);

export const usageReportSchema = z.object({
  used: count,
  cap: count,
  remaining: count,
  resets_at: z.iso.datetime().meta({ description: 'When the next billing period starts.' }),
  rate_limit: z.object({ limit: z.int().min(1), remaining: count, reset: z.int().meta({ description: 'Unix seconds.' }) }),
});

export const difyRecordsSchema = z.object({
  records: z.array(
    z.object({
      content: z.string(),
      score: z.number().min(0).max(1),
      title: z.string(),
      metadata: z.object({ document_id: z.string(), page: pageSchema }),
    }),
  ),
});

export type SearchResults = z.infer<typeof searchResultsSchema>;
export type UsageReport = z.infer<typeof usageReportSchema>;
export type DifyRecords = z.infer<typeof difyRecordsSchema>;
