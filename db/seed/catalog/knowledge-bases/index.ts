import type { KnowledgeBaseSeed } from './seed';
import { DRAFT_SEEDS } from './drafts';
import { EDUCATION_SEEDS } from './education';
import { HEALTH_SEEDS } from './health';
import { LEGAL_SEEDS } from './legal';
import { POLICY_SEEDS } from './policy';
import { RESEARCH_SEEDS } from './research';

// The sample catalog (fictional; not professional advice), one file per category. The order is part of the seed:
// every sample choice comes from one PRNG walked in this order.

export type { KnowledgeBaseSeed };

/** Several tags cross categories so filters combine. */
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
