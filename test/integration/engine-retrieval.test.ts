import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery, searchChunks } from '@/lib/engine';
import { CANDIDATE_BUDGET } from '@/lib/engine/lexical-search';
import { NO_ANSWER_TEXT } from '@/lib/engine/answer';
import { ingestDocument } from '@/lib/engine/ingest';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { pageText, parseSource } from '@/lib/engine/parsers';
import { parsePdfSource, renderPdfFromSource } from '@/lib/engine/pdf-render';
import { countTokens } from '@/lib/engine/tokens';
import { isGeneralEnglish } from '@/lib/engine/general-frequency';
import { queryAnswerSchema } from '@/lib/query-answer';

const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;
let kbA: string;
let kbB: string;
const sources = new Map<string, { name: string; bytes: Uint8Array }>();

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i + 1} of the ${topic} survey records ordinary observations about weather, soil, staffing and budgets.`,
  ).join(' ');

async function ingest(kb: string, name: string, bytes: Uint8Array) {
  const result = await ingestDocument(db, kb, { sourceName: name, bytes });
  if (!result.ok) throw new Error(`${name}: ${result.message}`);
  sources.set(result.documentId, { name, bytes });
  return result.documentId;
}

async function createKnowledgeBase(
  title: string,
  category: 'health' | 'research' | 'education' | 'legal' = 'health',
  summary = 'Retrieval test knowledge base.',
) {
  const r = await createHostedKnowledgeBase(db, { title, publisher: 'Retrieval Test Press', category, tags: [], summary });
  if (!r.ok) throw new Error(r.message);
  return r.id;
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  kbA = await createKnowledgeBase('Retrieval Base A');
  kbB = await createKnowledgeBase('Retrieval Base B');
  // Dense in the rare term "thrombolysis": short and about it.
  await ingest(
    kbA,
    'stroke.md',
    enc(
      `# Acute Stroke\n\nThrombolysis dissolves the clot. Thrombolysis must start within 4.5 hours of symptom onset. Thrombolysis is contraindicated after recent surgery.\n`,
    ),
  );
  // Long, mentions the rare term once in passing.
  await ingest(
    kbA,
    'annual-report.md',
    enc(`# Annual Report\n\n${filler('hospital', 40)} One ward mentioned thrombolysis in a staff newsletter. ${filler('clinic', 30)}\n`),
  );
  await ingest(
    kbA,
    'nutrition.md',
    enc(
      `# Salt and Blood Pressure\n\nReducing dietary sodium lowers blood pressure in most adults. The freedom of speech of dietitians is not discussed here.\n\n## Potassium\n\nPotassium-rich foods such as beans and bananas help counter sodium.\n`,
    ),
  );
  await ingest(
    kbA,
    'rights.txt',
    enc(
      `Patient Rights\n\nEvery patient has the right to refuse treatment. Speech therapy and freedom from pain are separate goals of care.\n\nCONSENT\n\nInformed consent requires that the patient understands the risks.\n`,
    ),
  );
  const pdf = await renderPdfFromSource(
    parsePdfSource(
      `# Vaccination Schedule\nOverview of routine vaccination for children in the sample programme.\n---page---\n## Measles\n\nThe first measles dose is given at twelve months of age. A second measles dose is given before school entry.\n---page---\n## Tetanus\n\nTetanus boosters are recommended every ten years for adults.`,
    ),
  );
  await ingest(kbA, 'schedule.pdf', pdf);
  // Another knowledge base that also talks about thrombolysis and measles: must never leak into kbA's answers.
  await ingest(kbB, 'other.md', enc(`# Other Base\n\nThrombolysis protocols in base B differ. Measles outbreaks in base B are tracked weekly.\n`));
});

describe('retrieval', () => {
  it('is restricted to the one knowledge base', async () => {
    const a = await searchChunks(db, kbA, 'thrombolysis measles', { limit: 20 });
    const b = await searchChunks(db, kbB, 'thrombolysis measles', { limit: 20 });
    const docsA = (await db.execute(sql`select id from documents where kb_id = ${kbA}`)).rows.map((r) => (r as { id: string }).id);
    expect(a.chunks.length).toBeGreaterThan(0);
    expect(a.chunks.every((c) => docsA.includes(c.documentId))).toBe(true);
    expect(b.chunks.map((c) => c.content)).toEqual([expect.stringContaining('base B')]);
  });

  it('ranks a short document dense in a rare term above a long one mentioning it once', async () => {
    const result = await searchChunks(db, kbA, 'thrombolysis', { limit: 5 });
    expect(result.chunks[0]?.documentTitle).toBe('Acute Stroke');
    expect(result.chunks.some((c) => c.documentTitle === 'Annual Report')).toBe(true);
    expect(result.chunks[0]?.score).toBeGreaterThan(result.chunks.find((c) => c.documentTitle === 'Annual Report')!.score);
  });

  it('IDF: a rare term outweighs a common one', async () => {
    const result = await searchChunks(db, kbA, 'survey potassium', { limit: 5 });
    expect(result.chunks[0]?.heading).toContain('Potassium');
  });

  it('quoted phrases must occur as phrases', async () => {
    const loose = await searchChunks(db, kbA, 'freedom speech', { limit: 10 });
    const phrase = await searchChunks(db, kbA, '"freedom of speech"', { limit: 10 });
    expect(new Set(loose.chunks.map((c) => c.documentTitle))).toEqual(new Set(['Salt and Blood Pressure', 'Patient Rights']));
    expect(phrase.chunks.map((c) => c.documentTitle)).toEqual(['Salt and Blood Pressure']);
    const none = await searchChunks(db, kbA, '"speech freedom"', { limit: 10 });
    expect(none.chunks).toEqual([]);
  });

  it('the last word matches as a prefix while it is not yet a whole word', async () => {
    const typed = await searchChunks(db, kbA, 'thrombol', { limit: 5 });
    expect(typed.chunks[0]?.documentTitle).toBe('Acute Stroke');
    const notLast = await searchChunks(db, kbA, 'thrombol onset', { limit: 5 });
    expect(notLast.chunks.every((c) => !c.content.includes('clot') || c.content.includes('onset'))).toBe(true);
  });

  it('a misspelt word finds what the knowledge base spells correctly, and answers from it', async () => {
    const typed = await searchChunks(db, kbA, 'when must thrombolisys start', { limit: 5 });
    expect(typed.terms.find((t) => t.word === 'thrombolisys')).toMatchObject({ lexeme: 'thrombolysi', docFreq: 2 });
    expect(typed.chunks[0]?.documentTitle).toBe('Acute Stroke');
    const answer = await answerHostedQuery({ kbId: kbA, query: 'When must thrombolisys start?', requestId: 'req_spelling' }, db, { llm: null });
    expect(answer.answer).toContain('4.5 hours');
    expect(answer.citations[0]?.title).toBe('Acute Stroke');
  });

  it('a misspelt word is found in a broad knowledge base, where many more frequent words share its first letters', async () => {
    const broad = await createKnowledgeBase('Broad Spelling Base', 'research', 'Many words beginning alike.');
    // 120 made-up words beginning "re", each in more sections than "reticulum", within one letter of its length.
    const letters = 'bcdfghjklmnpqrstvwxz';
    const common = Array.from({ length: 120 }, (_, i) => `re${letters[i % 20]}${letters[Math.floor(i / 20) % 20]}vax`);
    const sections = Array.from({ length: 12 }, (_, s) => `## Part ${s}\n\n${common.join(' ')}.`);
    sections.push('## Cell\n\nThe endoplasmic reticulum folds proteins and makes lipids.');
    const r = await ingestDocument(db, broad, { sourceName: 'broad.md', bytes: enc(`# Broad\n\n${sections.join('\n\n')}\n`) });
    expect(r.ok).toBe(true);
    const typed = await searchChunks(db, broad, 'what does the endoplasmic reticulm do', { limit: 5 });
    expect(typed.terms.find((t) => t.word === 'reticulm')).toMatchObject({ lexeme: 'reticulum', docFreq: 1 });
    expect(typed.chunks[0]?.content).toContain('folds proteins');
  });

  it('a word of general English that the knowledge base lacks is not read as a near word it holds', async () => {
    // "bandana" is one letter from "banana" (the nutrition document's bananas), and a word people use.
    expect(isGeneralEnglish('bandana')).toBe(true);
    const lacked = await searchChunks(db, kbA, 'bandana colours', { limit: 5 });
    expect(lacked.terms.find((t) => t.word === 'bandana')?.docFreq).toBe(0);
    expect(lacked.chunks).toEqual([]);
  });

  it('when every query term is common (above the candidate budget), chunks holding several of them are still found', async () => {
    const common = await createKnowledgeBase('Common Terms Base', 'research', 'Many chunks sharing common words.');
    // "marmot" in sections 0–219, "quokka" in 215–434: both far above the budget, together in only five sections.
    const sections = Array.from({ length: 435 }, (_, i) => {
      const words = [i < 220 ? 'marmot' : 'walrus', i >= 215 ? 'quokka' : 'ibis'];
      return `## Section ${i}\n\nEntry ${i} notes a ${words[0]} beside a ${words[1]} near marker${i}.`;
    });
    const r = await ingestDocument(db, common, { sourceName: 'common.md', bytes: enc(`# Common\n\n${sections.join('\n\n')}\n`) });
    expect(r).toMatchObject({ ok: true, chunkCount: 435 });
    expect(CANDIDATE_BUDGET).toBeLessThan(220);
    const result = await searchChunks(db, common, 'marmot quokka', { limit: 5 });
    expect(result.chunks).toHaveLength(5);
    expect(result.chunks.every((c) => c.content.includes('marmot') && c.content.includes('quokka'))).toBe(true);
  });

  it('an irregular form finds the form the document uses ("taught" finds "teach", "children" finds "child")', async () => {
    const forms = await createKnowledgeBase('Irregular Forms', 'education');
    const tutor = await ingest(forms, 'tutor.md', enc('# Macedon\n\nPhilip hired Aristotle to teach the young Alexander at Mieza.\n'));
    const care = await ingest(forms, 'care.md', enc('# Care\n\nEvery child in the programme sees a nurse twice a year.\n'));
    await ingest(forms, 'campaigns.md', enc('# Campaigns\n\nAlexander crossed the Hellespont in 334 BC.\n'));
    await ingest(forms, 'clinic.md', enc('# Clinic\n\nA nurse visits the clinic on Mondays.\n'));
    expect((await searchChunks(db, forms, 'Who taught Alexander?', { limit: 3 })).chunks[0]?.documentId).toBe(tutor);
    expect((await searchChunks(db, forms, 'How often do children see a nurse?', { limit: 3 })).chunks[0]?.documentId).toBe(care);
    const answer = await answerHostedQuery({ kbId: forms, query: 'Who taught Alexander?', requestId: 'req_test' }, db, { llm: null });
    expect(answer.answer).toContain('Aristotle');
  });

  it('an everyday paraphrase finds the passage that uses it, and counts once with the word itself', async () => {
    const paraphrased = await createKnowledgeBase('Paraphrases', 'legal');
    const notify = await ingest(paraphrased, 'notify.md', enc('# Breaches\n\nThe controller must notify the authority of a breach within 72 hours.\n'));
    await ingest(paraphrased, 'person.md', enc('# People\n\nA person affected by a breach may complain.\n'));
    await ingest(paraphrased, 'logs.md', enc('# Breach log\n\nEvery breach goes in the breach log.\n'));
    // Before: "tell" found no passage of its own, so the breach register's two mentions of "breach" came first.
    const told = await searchChunks(db, paraphrased, 'How soon do we tell anyone about a breach?', { limit: 3 });
    expect(told.chunks[0]?.documentId).toBe(notify);
    // A paraphrase selects and scores, but is no question word: the reader and the gate see "tell", as typed.
    expect(told.terms.map((t) => t.word)).not.toContain('notify');
    // "check" and its paraphrase "test" in one passage weigh as one word, not two: summed, the rare "test" would put the
    // laboratory passage above the one that holds "check" and the asked "arm" (common here, so light).
    const labs = await ingest(paraphrased, 'labs.md', enc('# Labs\n\nCheck the result of each new test.\n'));
    const cuff = await ingest(paraphrased, 'cuff.md', enc('# Cuffs\n\nCheck the cuff on the upper arm.\n'));
    await ingest(paraphrased, 'rest.md', enc('# Rest\n\nThe arm rests on the table.\n'));
    await ingest(paraphrased, 'raise.md', enc('# Raise\n\nRaise the arm slowly.\n'));
    const checked = await searchChunks(db, paraphrased, 'How do I check my arm?', { limit: 5 });
    expect(checked.chunks[0]?.documentId).toBe(cuff);
    expect(checked.chunks.map((c) => c.documentId)).toContain(labs);
  });

  it('punctuation-only and stop-word-only queries find nothing without erroring', async () => {
    expect((await searchChunks(db, kbA, '?!', { limit: 5 })).chunks).toEqual([]);
    expect((await searchChunks(db, kbA, "the of and ' & | :*", { limit: 5 })).chunks).toEqual([]);
  });
});

describe('answers', () => {
  it('extractive: relevant sentences, each cited, excerpts verbatim in the page text of the cited document', async () => {
    const answer = await answerHostedQuery({ kbId: kbA, query: 'How soon after symptom onset must thrombolysis start?', requestId: 'req_test' }, db, {
      llm: null,
    });
    expect(queryAnswerSchema.parse(answer)).toEqual(answer);
    expect(answer.answer).toContain('within 4.5 hours');
    expect(answer.citations.length).toBeGreaterThan(0);
    const markers = [...answer.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(new Set(markers)).toEqual(new Set(answer.citations.map((_, i) => i + 1)));
    for (const c of answer.citations) {
      const src = sources.get(c.document_id)!;
      const parsed = await parseSource(src.name.endsWith('.pdf') ? 'pdf' : src.name.endsWith('.txt') ? 'text' : 'markdown', src.bytes, src.name);
      const page = parsed.pages.find((p) => p.page === c.page)!;
      expect(pageText(page)).toContain(c.excerpt);
    }
  });

  it('cites the page of a PDF', async () => {
    const answer = await answerHostedQuery({ kbId: kbA, query: 'At what age is the first measles dose given?', requestId: 'req_test' }, db, { llm: null });
    expect(answer.answer).toContain('twelve months');
    expect(answer.citations[0]).toMatchObject({ title: 'Vaccination Schedule', page: 2 });
  });

  it('says plainly when nothing relevant is found, with no citations', async () => {
    for (const query of ['How do I bake sourdough bread at home?', 'zzzz qqqq', '?']) {
      const answer = await answerHostedQuery({ kbId: kbA, query, requestId: 'req_test' }, db, { llm: null });
      expect(answer).toMatchObject({ answer: NO_ANSWER_TEXT, citations: [] });
      expect(answer.tokens_used).toBeGreaterThanOrEqual(countTokens(query));
    }
  });

  it('tokens_used counts the query, the passages read and the answer with a real tokenizer', async () => {
    const query = 'Which foods help counter sodium?';
    const answer = await answerHostedQuery({ kbId: kbA, query, requestId: 'req_test' }, db, { llm: null });
    const read = await searchChunks(db, kbA, query, { limit: 5 });
    const expected = countTokens(query) + read.chunks.reduce((n, c) => n + countTokens(c.content), 0) + countTokens(answer.answer);
    expect(answer.tokens_used).toBe(expected);
  });

  it('an unknown knowledge base has nothing relevant', async () => {
    const answer = await answerHostedQuery({ kbId: 'kb_unknown00000000', query: 'thrombolysis', requestId: 'req_test' }, db, { llm: null });
    expect(answer.citations).toEqual([]);
  });
});

describe('tokens as people write them', () => {
  let kb: string;
  let named: string;
  beforeAll(async () => {
    kb = await createKnowledgeBase('Privacy Notices', 'legal', 'Privacy notices of several sites.');
    named = await ingest(
      kb,
      'kraft.md',
      enc(
        '# Kraft Recipes Privacy Notice\n\nVisitors of kraftrecipes.com may write to privacy@kraftrecipes.com to delete their account. Cookies expire after 13 months.\n',
      ),
    );
    await ingest(
      kb,
      'other-site.md',
      enc(
        '# Recipe Hub Privacy Notice\n\nRecipe sites keep cookies for one year. Kraft cheese recipes are shared with partners of the recipe hub. To delete an account, write to the recipe hub.\n',
      ),
    );
    await ingest(kb, 'versions.md', enc('# Model Notes\n\nGPT-4o answers in about 300 ms. The COVID-19 guidance was revised in 2022.\n'));
  });

  it('a question naming a domain, an address or a versioned name finds the document that holds it whole', async () => {
    for (const query of ['How do I delete my account on kraftrecipes.com?', 'What is privacy@kraftrecipes.com for?', 'kraftrecipes']) {
      const r = await searchChunks(db, kb, query, { limit: 3 });
      expect(r.chunks[0]?.documentId, query).toBe(named);
    }
    const v = await searchChunks(db, kb, 'How fast is GPT-4o?', { limit: 3 });
    expect(v.chunks[0]?.content).toContain('GPT-4o answers');
    const answer = await answerHostedQuery({ kbId: kb, query: 'How do I delete my account on kraftrecipes.com?', requestId: 'req_test' }, db, { llm: null });
    expect(answer.citations[0]?.document_id).toBe(named);
  });
});
