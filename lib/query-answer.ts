import { z } from 'zod';

/**
 * The query-answer schema (docs/api.md §3.3, §6.4): what the gateway returns to buyers, what a publisher's backend
 * must answer, and what the built-in engine produces. One schema for all three.
 */
export const citationSchema = z.object({
  document_id: z.string().min(1).max(200),
  title: z.string().max(500),
  excerpt: z.string().max(5_000),
  /** 1-based page where the source has pages; null where it has none. */
  page: z.number().int().min(1).nullable(),
});

export const queryAnswerSchema = z.object({
  answer: z.string().max(100_000),
  citations: z.array(citationSchema).max(50),
  tokens_used: z.number().int().min(0),
});

export type Citation = z.infer<typeof citationSchema>;
export type QueryAnswer = z.infer<typeof queryAnswerSchema>;

/** A streaming backend (§10.4) reports the citations once, then text pieces; it still returns the whole answer. */
export interface AnswerProgress {
  citations(citations: Citation[]): void;
  delta(text: string): void;
}

/** What the gateway hands to a backend (hosted engine or publisher connector). */
export interface QueryRequest {
  kbId: string;
  query: string;
  requestId: string;
  signal?: AbortSignal;
  progress?: AnswerProgress;
}
