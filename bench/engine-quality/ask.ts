/**
 * Asks questions of the seeded marketplace in process (a fresh in-memory PGlite, seeded as at start-up), printing
 * each answer with its citations: a quick look at the engine without a server.
 *
 *   npx tsx bench/engine-quality/ask.ts <kb-slug> "question" ["question" …]
 *   npx tsx bench/engine-quality/ask.ts --samples [slug…]     # every listed sample question (of the given knowledge bases)
 */
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { seedMarketplace } from '@/lib/seed';
import { answerHostedQuery } from '@/lib/engine';

const args = process.argv.slice(2);
const handle = await openPglite();
try {
  await prepareDatabase(handle, { seed: seedMarketplace });
  const db = handle.db;
  const kbs = (await db.execute(sql`select id, slug, sample_questions from knowledge_bases order by slug`)).rows as Array<{
    id: string;
    slug: string;
    sample_questions: string[];
  }>;
  const asks: Array<{ slug: string; question: string }> = [];
  if (args[0] === '--samples') {
    const only = new Set(args.slice(1));
    for (const kb of kbs) if (only.size === 0 || only.has(kb.slug)) for (const q of kb.sample_questions ?? []) asks.push({ slug: kb.slug, question: q });
  } else {
    const [slug = '', ...questions] = args;
    for (const q of questions) asks.push({ slug, question: q });
  }
  for (const { slug, question } of asks) {
    const kb = kbs.find((k) => k.slug === slug);
    if (!kb) throw new Error(`no knowledge base ${slug}`);
    const a = await answerHostedQuery({ kbId: kb.id, query: question, requestId: 'ask' }, db, { llm: null });
    console.log(`\n[${slug}] Q: ${question}\nA: ${a.answer}`);
    a.citations.forEach((c, i) => console.log(`  [${i + 1}] ${c.title}${c.page ? ` p.${c.page}` : ''}: ${c.excerpt.slice(0, 160)}`));
  }
} finally {
  await handle.close();
}
