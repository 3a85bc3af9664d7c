import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { CATEGORIES } from '@/lib/catalog';
import { knowledgeBases, plans, publishers } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { normaliseLineBreaks } from './rules';

/**
 * Operator-side creation of hosted knowledge bases (CLI `create-kb`), published at once with the three default plans
 * so that `ingest` then `ask` is all an operator needs.
 */
const DEFAULT_PLANS = [
  { name: 'Starter', priceCents: 1_900, queriesPerPeriod: 100, requestsPerMinute: 60 },
  { name: 'Professional', priceCents: 4_900, queriesPerPeriod: 500, requestsPerMinute: 120 },
  { name: 'Enterprise', priceCents: 14_900, queriesPerPeriod: 2_000, requestsPerMinute: 300 },
] as const;

const between = (label: string, min: number, max: number) =>
  z.string().trim().min(min, `${label} has ${min} to ${max} characters.`).max(max, `${label} has ${min} to ${max} characters.`);

export const createKnowledgeBaseSchema = z.object({
  title: between('The title', 3, 120),
  /** Publisher slug or name; a publisher that does not exist yet is created with that name. */
  publisher: between('The publisher', 2, 120),
  category: z.enum(CATEGORIES, { error: `The category is one of ${CATEGORIES.join(', ')}.` }),
  tags: z.array(z.string().trim().toLowerCase().min(1).max(40, 'A tag has at most 40 characters.')).max(10, 'At most 10 tags.').default([]),
  summary: between('The summary', 10, 300),
  // Line breaks as LF, and the same limit as a listing's description in the console (lib/publishing/rules.ts).
  description: z.string().overwrite(normaliseLineBreaks).trim().max(10_000, 'The description has at most 10,000 characters.').default(''),
});
export type CreateKnowledgeBaseInput = z.input<typeof createKnowledgeBaseSchema>;

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'kb'
  );
}

export type CreateKnowledgeBaseResult =
  | { ok: true; id: string; slug: string; publisherId: string; publisherCreated: boolean; planIds: string[] }
  | { ok: false; code: 'invalid_input'; message: string };

export async function createHostedKnowledgeBase(db: Executor, input: CreateKnowledgeBaseInput): Promise<CreateKnowledgeBaseResult> {
  const parsed = createKnowledgeBaseSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, code: 'invalid_input', message: parsed.error.issues.map((i) => i.message).join(' ') };
  }
  const value = parsed.data;
  return db.transaction(async (tx) => {
    const found = (
      await tx.execute(
        sql`select id from publishers where slug = ${value.publisher.toLowerCase()} or lower(name) = lower(${value.publisher}) order by (slug = ${value.publisher.toLowerCase()}) desc limit 1`,
      )
    ).rows as Array<{ id: string }>;
    let publisherId = found[0]?.id;
    const publisherCreated = !publisherId;
    if (!publisherId) {
      publisherId = newId('pub');
      await tx.insert(publishers).values({ id: publisherId, slug: await freeSlug(tx, 'publishers', slugify(value.publisher)), name: value.publisher });
    }
    const slug = await freeSlug(tx, 'knowledge_bases', slugify(value.title), publisherId);
    const id = newId('kb');
    await tx.insert(knowledgeBases).values({
      id,
      publisherId,
      slug,
      title: value.title,
      summary: value.summary,
      description: value.description,
      category: value.category,
      tags: [...new Set(value.tags)],
      status: 'published',
      backendKind: 'hosted',
    });
    const planRows = DEFAULT_PLANS.map((p, i) => ({ id: newId('plan'), kbId: id, sortOrder: i, currency: 'usd', ...p }));
    await tx.insert(plans).values(planRows);
    await tx.execute(sql`insert into kb_index_stats (kb_id) values (${id}) on conflict do nothing`);
    return { ok: true as const, id, slug, publisherId, publisherCreated, planIds: planRows.map((p) => p.id) };
  });
}

async function freeSlug(tx: Executor, table: 'publishers' | 'knowledge_bases', base: string, publisherId?: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken =
      table === 'publishers'
        ? (await tx.execute(sql`select 1 from publishers where slug = ${candidate}`)).rows.length > 0
        : (await tx.execute(sql`select 1 from knowledge_bases where slug = ${candidate} and publisher_id = ${publisherId!}`)).rows.length > 0;
    if (!taken) return candidate;
  }
}
