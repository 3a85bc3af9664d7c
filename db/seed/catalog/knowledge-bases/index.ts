import type { KnowledgeBaseSeed } from './seed';
import { DRAFT_SEEDS } from './drafts';
import { EDUCATION_SEEDS } from './education';
import { HEALTH_SEEDS } from './health';
import { LEGAL_SEEDS } from './legal';
import { POLICY_SEEDS } from './policy';
import { RESEARCH_SEEDS } from './research';

/**
 * The sample catalog (fictional sample data written for Almanac; not professional advice), one file per category.
 * Descriptions are assembled in lib/seed/sample-data.ts from `about`, `covers` and `audience` unless a knowledge base
 * gives its own `description` paragraphs (the non-English ones do, so each stays in one language). The order is part
 * of the seed: every sample choice comes from one PRNG walked in this order.
 */

export type { KnowledgeBaseSeed };

/** The shared tag vocabulary: several tags cross categories so filters combine. */
export const TAG_VOCABULARY = [
  'best-practices',
  'beginner',
  'case-law',
  'climate',
  'clinical',
  'compliance',
  'constitutional',
  'contracts',
  'curriculum',
  'economics',
  'employment',
  'europe',
  'governance',
  'guidelines',
  'higher-education',
  'history',
  'housing',
  'international',
  'k-12',
  'mathematics',
  'mental-health',
  'methodology',
  'nutrition',
  'open-data',
  'pediatrics',
  'privacy',
  'public-health',
  'reference',
  'regulation',
  'statistics',
  'teacher-resources',
  'united-states',
] as const;

export const KNOWLEDGE_BASE_SEEDS: KnowledgeBaseSeed[] = [
  ...LEGAL_SEEDS,
  ...HEALTH_SEEDS,
  ...EDUCATION_SEEDS,
  ...POLICY_SEEDS,
  ...RESEARCH_SEEDS,
  ...DRAFT_SEEDS,
];
