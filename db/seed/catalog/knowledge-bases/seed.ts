type CategorySeed = 'education' | 'policy' | 'health' | 'research' | 'legal';

/** The shape of one sample knowledge base; `lib/seed/catalog.ts` turns each into rows. */
export interface KnowledgeBaseSeed {
  slug: string;
  title: string;
  category: CategorySeed;
  publisher: string;
  tags: string[];
  summary: string;
  about: string;
  covers: string[];
  audience: string;
  questions: string[];
  language?: string;
  licence?: string;
  description?: string[];
  status?: 'published' | 'draft';
}
