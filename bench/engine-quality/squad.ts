/**
 * SQuAD (Stanford Question Answering Dataset, CC BY-SA 4.0; not committed here: pass the path of a v1.1 or v2.0 JSON
 * file such as `dev-v1.1.json`), as a second outside evaluation set: factoid questions that crowd workers wrote about
 * Wikipedia paragraphs, each with the answer spans they marked. Where PubMedQA asks yes-or-no questions of abstracts,
 * SQuAD asks who, when, how many and which, as our buyers do.
 *
 * Each article becomes one Markdown document (its title as the heading, its paragraphs in order) in one knowledge
 * base holding every article, so that retrieval must find the article as well as the statement. A statement answers
 * when it holds one of the marked answers. Unanswerable questions (v2.0's `is_impossible`) are left out.
 *
 * Split, fixed before any tuning: every fifth question in file order (the 1st, 6th, 11th, …) may be used to fit the
 * ranker (train-ranker.ts --squad); the others are held out and only reported.
 */
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { ingestDocument } from '@/lib/engine';
import { newId } from '@/lib/platform/ids';
import { containsFact } from './evaluation-set';

export interface SquadItem {
  question: string;
  answers: string[];
  /** The article the question was written about. */
  article: string;
  /** Position among the answerable questions in file order (0-based): decides the split. */
  index: number;
}

interface SquadArticle {
  title: string;
  paragraphs: Array<{ context: string; qas: Array<{ question: string; answers: Array<{ text: string }>; is_impossible?: boolean }> }>;
}

export interface SquadSet {
  articles: Array<{ title: string; paragraphs: string[] }>;
  items: SquadItem[];
}

const titleOf = (raw: string) => raw.replace(/_/g, ' ');

export function loadSquad(file: string): SquadSet {
  if (!existsSync(file)) throw new Error(`${file} does not exist: pass the path of a SQuAD JSON file (dev-v1.1.json, from its public repository)`);
  const data = JSON.parse(readFileSync(file, 'utf8')) as { data: SquadArticle[] };
  const articles: SquadSet['articles'] = [];
  const items: SquadItem[] = [];
  for (const article of data.data) {
    const title = titleOf(article.title);
    articles.push({ title, paragraphs: article.paragraphs.map((p) => p.context.trim()) });
    for (const paragraph of article.paragraphs) {
      for (const qa of paragraph.qas) {
        const answers = [...new Set(qa.answers.map((a) => a.text.trim()).filter(Boolean))];
        if (qa.is_impossible || answers.length === 0) continue;
        items.push({ question: qa.question.trim(), answers, article: title, index: items.length });
      }
    }
  }
  return { articles, items };
}

export const isSquadTuning = (item: SquadItem) => item.index % 5 === 0;

/** Whether a statement holds one of the question's marked answers. */
export const answersSquad = (text: string, item: SquadItem) => item.answers.some((a) => containsFact(text, a));

/** One knowledge base holding every article as a Markdown document; its id and each document's article title. */
export async function ingestSquad(db: Executor, set: SquadSet): Promise<{ kbId: string; articleOf: Map<string, string> }> {
  const publisherId = newId('pub');
  await db.insert(publishers).values({ id: publisherId, slug: 'outside-squad', name: 'Outside set' });
  const kbId = newId('kb');
  await db
    .insert(knowledgeBases)
    .values({ id: kbId, publisherId, slug: 'squad', title: 'SQuAD articles', summary: 'Outside set', category: 'research', tags: [], status: 'published' });
  for (const article of set.articles) {
    const text = `# ${article.title}\n\n${article.paragraphs.join('\n\n')}\n`;
    const result = await ingestDocument(db, kbId, { sourceName: `${article.title}.md`, bytes: new TextEncoder().encode(text) });
    if (!result.ok) throw new Error(`${article.title}: ${result.message}`);
  }
  const rows = (await db.execute(sql`select id, source_name from documents where kb_id = ${kbId}`)).rows as Array<{ id: string; source_name: string }>;
  return { kbId, articleOf: new Map(rows.map((r) => [r.id, r.source_name.replace(/\.md$/, '')])) };
}
