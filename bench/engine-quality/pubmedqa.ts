/**
 * PubMedQA (MIT licence; not committed here: pass the path of its `ori_pqal.json`), as an outside evaluation set:
 * 1,000 questions written by others, each with the structured abstract it was asked of. Each abstract becomes one
 * document of one knowledge base, in one of two forms (below), and a statement answers its question when it comes
 * from the abstract's results or its conclusion.
 *
 * Split, fixed before any tuning: every fifth question in file order (the 1st, 6th, 11th, …; 200) may be used to fit
 * the ranker (train-ranker.ts --outside); the other 800 are held out and only reported.
 */
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { ingestDocument } from '@/lib/engine';
import { newId } from '@/lib/platform/ids';

export interface PubMedQaItem {
  pmid: string;
  QUESTION: string;
  CONTEXTS: string[];
  LABELS: string[];
  LONG_ANSWER: string;
  /** Position in the file (0-based): decides the split. */
  index: number;
}

/**
 * `sections`: Markdown, each labelled section under its label as a heading and the conclusion (the dataset's long
 * answer) last, as a published structured abstract reads. `plain`: the sections' text only, as bare paragraphs, and no
 * conclusion: nothing but the sentences themselves tells a finding from an aim.
 */
export type PubMedQaForm = 'sections' | 'plain';

/** Where a statement stands in its abstract. */
export type AbstractPart = 'conclusion' | 'results' | 'methods' | 'background/aim' | 'elsewhere';

export function loadPubMedQa(file: string): PubMedQaItem[] {
  if (!existsSync(file)) throw new Error(`${file} does not exist: pass the path of PubMedQA's data/ori_pqal.json (from its public repository)`);
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Omit<PubMedQaItem, 'pmid' | 'index'>>;
  return Object.entries(data).map(([pmid, item], index) => ({ ...item, pmid, index }));
}

export const isPubMedQaTuning = (item: PubMedQaItem) => item.index % 5 === 0;

function partOfLabel(label: string): AbstractPart {
  const l = label.toUpperCase();
  if (/RESULT|FINDING/.test(l)) return 'results';
  if (/BACKGROUND|OBJECTIVE|PURPOSE|AIM|INTRODUCTION|CONTEXT|HYPOTHES|RATIONALE|IMPORTANCE/.test(l)) return 'background/aim';
  return 'methods';
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Where a statement (or its first 60 characters, a label prefix dropped) stands in the abstract. */
export function partOfAbstract(statement: string, item: PubMedQaItem): AbstractPart {
  const probe = squash(statement)
    .replace(/^[^:]{0,40}:\s*/, '')
    .slice(0, 60);
  if (!probe) return 'elsewhere';
  if (squash(item.LONG_ANSWER).includes(probe)) return 'conclusion';
  for (const [i, context] of item.CONTEXTS.entries()) if (squash(context).includes(probe)) return partOfLabel(item.LABELS[i] ?? '');
  return 'elsewhere';
}

export const answersQuestion = (part: AbstractPart) => part === 'conclusion' || part === 'results';

const capitalised = (label: string) => label.charAt(0) + label.slice(1).toLowerCase();

function toDocument(item: PubMedQaItem, form: PubMedQaForm): { sourceName: string; text: string } {
  if (form === 'plain') return { sourceName: `${item.pmid}.txt`, text: `${item.CONTEXTS.join('\n\n')}\n` };
  const parts = [`# Abstract ${item.pmid}`];
  item.CONTEXTS.forEach((text, i) => parts.push(`## ${capitalised(item.LABELS[i] ?? 'Abstract')}`, text));
  parts.push('## Conclusions', item.LONG_ANSWER);
  return { sourceName: `${item.pmid}.md`, text: `${parts.join('\n\n')}\n` };
}

/** One knowledge base holding every abstract in the given form; its id and each document's PMID. */
export async function ingestPubMedQa(db: Executor, items: PubMedQaItem[], form: PubMedQaForm): Promise<{ kbId: string; pmidOf: Map<string, string> }> {
  const publisherId = newId('pub');
  await db.insert(publishers).values({ id: publisherId, slug: `outside-${form}`, name: 'Outside set' });
  const kbId = newId('kb');
  await db.insert(knowledgeBases).values({
    id: kbId,
    publisherId,
    slug: `pubmedqa-${form}`,
    title: 'PubMedQA abstracts',
    summary: 'Outside set',
    category: 'research',
    tags: [],
    status: 'published',
  });
  for (const item of items) {
    const doc = toDocument(item, form);
    const result = await ingestDocument(db, kbId, { sourceName: doc.sourceName, bytes: new TextEncoder().encode(doc.text) });
    if (!result.ok) throw new Error(`${item.pmid}: ${result.message}`);
  }
  const rows = (await db.execute(sql`select id, source_name from documents where kb_id = ${kbId}`)).rows as Array<{ id: string; source_name: string }>;
  return { kbId, pmidOf: new Map(rows.map((r) => [r.id, r.source_name.replace(/\.(md|txt)$/, '')])) };
}
