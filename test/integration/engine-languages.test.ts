import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery, calibrateGate, reindexKnowledgeBase, searchChunks } from '@/lib/engine';
import { ingestDocument } from '@/lib/engine/ingest';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';

/**
 * Per-language stemming: a knowledge base in Spanish, German or French is indexed and asked with
 * its language's Snowball stemmer and stop words (migration 0010), on PGlite and on PostgreSQL alike.
 */
const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;
const kb = new Map<string, string>();

async function make(language: string, title: string, files: Array<[string, string]>) {
  const r = await createHostedKnowledgeBase(db, { title, publisher: 'Language Test Press', category: 'legal', tags: [], summary: `${title}.` });
  if (!r.ok) throw new Error(r.message);
  await db.execute(sql`update knowledge_bases set language = ${language} where id = ${r.id}`);
  for (const [name, text] of files) {
    const result = await ingestDocument(db, r.id, { sourceName: name, bytes: enc(text) });
    if (!result.ok) throw new Error(result.message);
  }
  kb.set(language, r.id);
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  await make('es', 'Derecho de prueba', [
    [
      'amparo.md',
      '# El recurso de amparo\n\nEl recurso de amparo protege los derechos fundamentales reconocidos en los artículos 14 a 29 de la Constitución, así como la objeción de conciencia. Se interpone ante el Tribunal Constitucional una vez agotada la vía judicial ordinaria.\n\n## Plazos\n\nEl plazo para recurrir es de treinta días hábiles desde la notificación de la resolución judicial.',
    ],
    ['reforma.md', '# La reforma constitucional\n\nLa reforma ordinaria exige una mayoría de tres quintos de cada una de las Cámaras.'],
  ]);
  await make('de', 'Forschungsdaten im Test', [
    [
      'aufbewahrung.md',
      '# Aufbewahrung\n\nForschungsdaten, die einer Veröffentlichung zugrunde liegen, müssen mindestens zehn Jahre aufbewahrt werden. Für Daten aus Drittmittelprojekten gelten oft längere Fristen.',
    ],
  ]);
  await make('fr', 'Sociétés de test', [
    [
      'president.md',
      '# Le président de la SAS\n\nLe président représente la société à l’égard des tiers. Il est investi des pouvoirs les plus étendus pour agir en toute circonstance au nom de la société.',
    ],
  ]);
});

describe('per-language stemming', () => {
  it('each knowledge base is indexed with its language configuration', async () => {
    const rows = (await db.execute(sql`select kb_id, search_config from kb_index_stats`)).rows as Array<{ kb_id: string; search_config: string }>;
    const config = new Map(rows.map((r) => [r.kb_id, r.search_config]));
    expect(config.get(kb.get('es')!)).toBe('almanac_es');
    expect(config.get(kb.get('de')!)).toBe('almanac_de');
    expect(config.get(kb.get('fr')!)).toBe('almanac_fr');
  });

  it('a Spanish question is stemmed in Spanish, its stop words dropped, and answered with a citation', async () => {
    const search = await searchChunks(db, kb.get('es')!, '¿Qué derechos protege el recurso de amparo?', { limit: 5 });
    expect(search.config).toBe('almanac_es');
    expect(search.terms.map((t) => t.lexeme).sort()).toEqual(['ampar', 'derech', 'proteg', 'recurs']);
    // Answered as after an upload, once the background job has calibrated the knowledge base.
    await calibrateGate(db, kb.get('de')!);
    const answer = await answerHostedQuery({ kbId: kb.get('es')!, query: '¿Qué derechos protege el recurso de amparo?', requestId: 'req_es' }, db, {
      llm: null,
    });
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.answer).toContain('derechos fundamentales');
    // Typed without accents, it finds the same passage.
    const plain = await answerHostedQuery({ kbId: kb.get('es')!, query: 'que derechos protege el recurso de amparo', requestId: 'req_es2' }, db, { llm: null });
    expect(plain.citations[0]?.document_id).toBe(answer.citations[0]?.document_id);
  });

  it('German and French questions find their answers through inflected forms', async () => {
    const de = await answerHostedQuery({ kbId: kb.get('de')!, query: 'Wie lange muss man Forschungsdaten aufbewahren?', requestId: 'req_de' }, db, {
      llm: null,
    });
    expect(de.answer).toContain('zehn Jahre');
    const deTerms = (await searchChunks(db, kb.get('de')!, 'Gilt das für Forschungsdaten?', { limit: 1 })).terms.map((t) => t.word);
    expect(deTerms).not.toContain('fur'); // "für" is a German stop word as typed
    const fr = await answerHostedQuery({ kbId: kb.get('fr')!, query: 'Quels sont les pouvoirs du président ?', requestId: 'req_fr' }, db, { llm: null });
    expect(fr.answer).toContain('pouvoirs les plus étendus');
  });

  it('a German compound the knowledge base never uses is looked up by its parts', async () => {
    // "Aufbewahrungsfrist" occurs nowhere; "Aufbewahrung" and "Fristen" do.
    const found = await searchChunks(db, kb.get('de')!, 'Welche Aufbewahrungsfrist gilt für Forschungsdaten aus Drittmittelprojekten?', { limit: 3 });
    const parts = found.terms.filter((t) => t.word === 'aufbewahrungsfrist');
    expect(parts.map((t) => t.docFreq > 0)).toEqual([true, true]);
    expect(parts.length).toBe(2);
    // Answered as after an upload, once the background job has calibrated the knowledge base.
    await calibrateGate(db, kb.get('de')!);
    const answer = await answerHostedQuery({ kbId: kb.get('de')!, query: 'Welche Aufbewahrungsfrist gilt für Drittmittelprojekte?', requestId: 'req_de' }, db, {
      llm: null,
    });
    expect(answer.answer).toContain('längere Fristen');
    // A word the index holds only as the first part of its compounds is looked up as those compounds.
    const start = await searchChunks(db, kb.get('de')!, 'Welche Regeln gelten für Drittmittel?', { limit: 3 });
    expect(start.terms.filter((t) => t.word === 'drittmittel').map((t) => [t.lexeme.startsWith('drittmittel'), t.docFreq > 0])).toEqual([[true, true]]);
    // A compound whose parts the knowledge base does not both hold stays one (absent) word.
    const other = await searchChunks(db, kb.get('de')!, 'Gilt die Kaiserschmarrnfrist?', { limit: 1 });
    expect(other.terms.filter((t) => t.word === 'kaiserschmarrnfrist').map((t) => t.docFreq)).toEqual([0]);
  });

  it('off-topic questions in the knowledge base language are refused', async () => {
    for (const [language, question] of [
      ['es', '¿Cómo se prepara un gazpacho andaluz con pan del día anterior?'],
      ['de', 'Wie gelingt ein luftiger Kaiserschmarrn?'],
      ['fr', 'Comment réussir une pâte feuilletée maison ?'],
    ] as const) {
      const a = await answerHostedQuery({ kbId: kb.get(language)!, query: question, requestId: 'req_off' }, db, { llm: null });
      expect(a.citations, `${language}: ${question}`).toEqual([]);
    }
  });

  it('reindex adopts a changed language', async () => {
    const id = kb.get('fr')!;
    await db.execute(sql`update knowledge_bases set language = 'en' where id = ${id}`);
    expect((await reindexKnowledgeBase(db, id)).ok).toBe(true);
    const rows = (await db.execute(sql`select search_config from kb_index_stats where kb_id = ${id}`)).rows as Array<{ search_config: string }>;
    expect(rows[0]?.search_config).toBe('almanac');
    await db.execute(sql`update knowledge_bases set language = 'fr' where id = ${id}`);
    await reindexKnowledgeBase(db, id);
  });
});
