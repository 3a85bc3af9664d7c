import { itemAt } from '@/lib/platform/arrays';
import {
  answerTypeOffsets,
  asksVerdict,
  carriesAnswerType,
  describesMethod,
  drawsConclusion,
  givesAskedBound,
  isAimOrBackground,
  reportsResult,
  sectionRole,
  statesFinding,
  STRONG_TYPES,
} from './answer-type';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { findingLikelihood } from './finding-wording';
import { questionNumbers, sharedNumbers } from './numbers';
import { chunkParagraphs, type Paragraph } from './paragraphs';
import { isBackMatter, isDisclaimer } from './back-matter';
import { hasAdjacentPair, matchText, matchWords, sum, type Question } from './question';
import { generalShare, headingParts, passageEvidence, passesGate, type PassageEvidence } from './relevance-gate';
import type { RetrievedChunk } from './types';
import { countWords, lightStem, STOP_WORDS, tokenize, type Span } from './text';

/**
 * Which statements of the top passages answer the question: every sentence (with its heading, paragraph label and
 * lead-in as context) scored by SENTENCE_FEATURES, then at most MAX_ANSWER_SENTENCES chosen, a second document only
 * when its own passage passes the relevance gate.
 */

/** Passages whose sentences are considered (and whose tokens count as read). */
export const PASSAGES_READ = 5;
export const MAX_ANSWER_SENTENCES = 3;
export const MAX_EXCERPT_CHARS = 600;

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

export interface SentenceCandidate {
  passage: number;
  /** The verbatim text of the statement (one sentence, or a short one with its successor, or a list intro with items). */
  text: string;
  span: Span;
  /** Context shown before the statement when it needs it ("Senator", "Marbury v. Madison (1803)"). */
  context: string | null;
  /** The excerpt's span: the statement, or its paragraph from the label on when that is short enough. */
  excerpt: Span;
  /** The statement as the answer shows it, when that differs from its text: a table row with its columns named. */
  shown?: string;
  score: number;
  terms: Set<string>;
}

/** How far below the best statement (in log-odds) another may follow it, from its own document or from another. */
const FOLLOW_MARGIN = 4.0;
const OTHER_DOCUMENT_MARGIN = 0.3;

/** A list item's marker ("- ", "– ", "• "): list items flattened into one paragraph start with it. */
const BULLET = /^[-–•]\s/;
const REFERS_BACK = /^(the|this|these|that|those|it|they|such|el|la|los|las|este|esta|dieser|diese|dieses|der|die|das|es|ce|cette|ces|il|elle)\b/i;
/** A sentence that leans on the one before it ("It killed…", "They ate…", "Between 1347 and 1351 it killed…"). */
const LEANS_BACK = /^(\S+\s+){0,4}(it|they|he|she|its|their|this|these|those|them|such|above|ello|ellos|ellas|er|sie|es|il|ils|elle|elles)\b/i;

/** The text without the numbers the question itself gives ("1347", "12"): an answer is a number the question lacks. */
function withoutQuestionNumbers(text: string, question: string): string {
  const own = new Set(question.match(/\d[\d.,/]*/g) ?? []);
  // Blanked to the same length, so that offsets into the result are offsets into the text.
  return own.size ? text.replace(/\d[\d.,/]*/g, (n) => (own.has(n) ? ' '.repeat(n.length) : n)) : text;
}

/** A negation: a question about what does NOT hold is answered by a statement that says so, not by its opposite. */
const NEGATION =
  /\b(no|not|non|none|never|without|cannot|can't|don't|doesn't|isn't|aren't|sin|nunca|ning[úu]n[oa]?|nicht|kein\w*|ohne|nie|pas|sans|jamais|aucun\w*)\b|n['’]t\b/i;

/** A list item is a short line; its list runs back to the line that introduces it ("The following are not reasons…:"). */
const ITEM_MAX_WORDS = 60;
/** A longer introduction is a paragraph of its own, not a frame to repeat before an item. */
const INTRO_MAX_WORDS = 30;
const LIST_MAX_ITEMS = 15;

/**
 * Each list item's introducing sentence: list items lose their markers when a document is parsed, so a list is a run
 * of short lines after a line ending in ":". An item alone ("Mild acute illness, such as a cold.") does not say what
 * it is an example of; its introduction does.
 */
function listIntroductions(content: string, paragraphs: Paragraph[]): Map<Paragraph, Span> {
  const out = new Map<Paragraph, Span>();
  let intro: Span | null = null;
  let items = 0;
  for (const para of paragraphs) {
    const last = para.sentences[para.sentences.length - 1];
    // A line introducing a list of its own ends the list before it.
    const introduces = last !== undefined && !para.row && /:\s*$/.test(content.slice(last.start, last.end));
    const itemLike = !introduces && !para.row && !para.label && countWords(content.slice(para.start, para.end)) <= ITEM_MAX_WORDS;
    if (intro && itemLike && items < LIST_MAX_ITEMS) {
      out.set(para, intro);
      items++;
    } else intro = null;
    if (introduces) {
      intro = last;
      items = 0;
    }
  }
  return out;
}

/**
 * A table row with each cell after its column's name ("Category: Stage 2 hypertension; Systolic (mm Hg): 140 or
 * higher; or; Diastolic (mm Hg): 90 or higher"): a row alone does not say what its numbers are. Undefined when the
 * row and its header do not line up.
 */
function withColumnNames(header: string, row: string): string | undefined {
  const names = header.split('; ');
  const cells = row.split('; ');
  if (names.length !== cells.length || names.every((n) => !n.trim())) return undefined;
  return cells
    .map((cell, k) => {
      const name = itemAt(names, k).trim();
      return name && cell.trim() && name !== cell.trim() ? `${name}: ${cell}` : cell;
    })
    .filter((c) => c.trim())
    .join('; ');
}

/** How close (in characters) an answer of the asked type must be to a question word to count as about it. */
const NEAR_CHARS = 40;

/** Does an answer of the type stand near one of the question's words ("VITAL enrolled 25,871 adults")? */
function typedNearTopic(q: Question, text: string): boolean {
  if (!q.type) return false;
  const offsets = answerTypeOffsets(q.type, text);
  if (offsets.length === 0) return false;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (matchWords(q, tokenize(m[0])).size === 0) continue;
    const end = m.index + m[0].length;
    if (offsets.some((o) => (o < m.index || o >= end) && Math.abs(o - m.index) <= NEAR_CHARS)) return true;
  }
  return false;
}

/** The statements to answer with, chosen from the passages' ranked candidates (answerable.ts ranks them). */
export function selectSentences(q: Question, read: RetrievedChunk[], ranked: SentenceCandidate[]): SentenceCandidate[] {
  if (q.total <= 0) return [];
  const evidence = read.map((p) => passageEvidence(q, p));
  const chosen = chooseSentences(q, read, evidence, ranked);
  // "On what date…" answered without any date is no answer: the composer then says nothing relevant was found (and
  // the query is free). Only for a day: for the other types, abstaining when no statement carries the type cost right
  // answers on the tuning part of bench/engine-quality (the type patterns miss some phrasings).
  if (q.type === 'day' && !chosen.some((c) => carriesAnswerType('day', `${c.context ?? ''} ${c.text}`))) return [];
  return chosen;
}

/**
 * What answer selection knows about a candidate statement, each scaled to about 0..1. The score is their weighted
 * sum with SENTENCE_WEIGHTS (answer-weights.ts), fitted by bench/engine-quality/train-ranker.ts on the tuning part of
 * the evaluation set: the log-odds, among the statements of the passages read, that this one carries the answer.
 */
export const SENTENCE_FEATURES = [
  'own coverage', // share of the question's weight in the statement itself
  'context coverage', // ... only in its paragraph label, table header, section heading or lead-in sentence
  'window coverage', // ... only in the sentence before it
  'upper heading coverage', // ... only in the document title or higher headings
  'passage score', // retrieval score of its passage relative to the best
  'passage rank', // 0 for the first passage, 1 for the fifth
  'strong type carried', // a case name, provision, duration or number when one is asked for
  'strong type missing',
  'weak type carried', // a date or condition, definition, person, reason when one is asked for
  'type in label', // the label supplies the answer type ("Marbury v. Madison (1803).")
  'restates the question', // at most two words not in the question
  'fresh words', // log of words not in the question
  'aim or background',
  'question mark',
  'length', // log of its words
  'first in paragraph',
  'other label', // under a label that does not name what was asked while another label does
  'table header',
  'table row',
  'question words share', // distinct question words in the statement / question words
  'rarest word', // holds the question's heaviest word that occurs in the knowledge base
  'adjacent pair', // two question words in a row
  'new number', // a number the question does not give
  'lead-in', // brings the sentence before it
  'list', // a list introduction with its items
  'finding', // states a result or a comparison
  'method or example', // describes how a study or an example was set up
  'topic as subject', // share of the question's weight in its first six words
  'type near topic', // the strong type asked for within a few words of a question word
  'type after set-up', // window coverage when the statement carries the strong type (set up by the sentence before)
  'type with coverage', // own coverage when the statement carries the strong type
  'question numbers', // share of the numbers the question gives ("a ride of 12 kilometres") found in the statement
  'limit asked', // the question asks for an upper or lower limit and the statement gives one ("up to", "not below")
  'negation shared', // the question is negated ("no single identifiable cause") and so is the statement
  'aim section', // under a heading that names a background, an aim or an introduction ("Background", "Objective")
  'method section', // ... that names how a study was done ("Methods", "Design, setting and participants")
  'finding section', // ... that names what it found ("Results", "Conclusions", "Discussion"), in the best passage's document
  'conclusion', // draws a conclusion ("These results suggest…", "We conclude…"), in the best passage's document
  'verdict given', // a yes-or-no question ("Does X reduce Y?") and a statement there under a finding heading or concluding
  'verdict result', // ... and a statement there reporting a result ("was significantly associated")
  'finding wording', // ... and how likely its wording is a study's finding, not its background (finding-wording.ts)
  'general coverage', // share of the question's general-English weight in the statement itself (question.ts)
  'general context coverage', // ... only in its label, heading or lead-in
  'match density', // question words found per word of the shortest stretch of the statement holding them all
] as const;

const OTHER_LABEL = SENTENCE_FEATURES.indexOf('other label');

export interface RankedCandidate extends SentenceCandidate {
  features: number[];
}

/** Every candidate statement of the passages read, best first, with its features. */
export function rankSentences(q: Question, passages: RetrievedChunk[], weights: readonly number[] = SENTENCE_WEIGHTS): RankedCandidate[] {
  if (q.total <= 0) return [];
  const read = passages.slice(0, PASSAGES_READ);
  const topScore = read[0]?.score || 1;
  const strong = q.type !== null && STRONG_TYPES.has(q.type);
  const questionLexemes = new Set(q.byLexeme.keys());
  const numbers = questionNumbers(q.text);
  const negated = NEGATION.test(q.text);
  const verdictAsked = asksVerdict(q.text);
  const candidates: RankedCandidate[] = [];
  let rarest: string | null = null;
  for (const [w, weight] of q.weights) if (q.total > 0 && (rarest === null || weight > q.weights.get(rarest)!) && presentWords(q).has(w)) rarest = w;

  read.forEach((p, index) => {
    const { section, upper } = headingParts(p);
    // A reference list, "See also" or "External links" names sources; it answers nothing itself.
    if (isBackMatter(p.heading)) return;
    const role = sectionRole(section || upper);
    // What reads like an answer (a result, a conclusion) counts only in the document that matches the question best:
    // another study's conclusion, found through a few shared words, answers another question.
    const leadDocument = p.documentId === itemAt(read, 0).documentId;
    const sectionWords = matchText(q, section);
    const upperWords = matchText(q, upper);
    const paragraphs = chunkParagraphs(p.content);
    // Labelled paragraphs side by side ("Representative: …", "Senator: …"): when one label names what was asked,
    // the others are about something else.
    const labelMatched = paragraphs.some((para) => para.label && matchText(q, para.label.text).size > 0);
    const introOf = listIntroductions(p.content, paragraphs);
    const allSpans = paragraphs.flatMap((para) => para.sentences.map((s) => ({ s, para })));
    const headers = new Set(paragraphs.map((para) => para.header).filter((h): h is string => h !== null));
    // A notice about the document, and what leans on it ("Sample content… It summarises and explains; it does not
    // reproduce the text."), answers nothing.
    const notices = new Set<number>();
    allSpans.forEach(({ s: sentence, para }, i) => {
      const own = p.content.slice(sentence.start, sentence.end);
      const previous = allSpans[i - 1];
      // A table's header row names its columns ("Feature; Carbon tax; Emissions trading system"): it is the context of
      // the rows below it, never an answer.
      if (para.row && !para.header && headers.has(p.content.slice(para.start, para.end))) return;
      // A line that is no sentence (no closing punctuation, a few words: a table's caption, a heading kept in the
      // text) names a topic; it states nothing ("Examples of the Columbian Exchange").
      if (!para.row && para.sentences.length === 1 && countWords(own) <= 10 && !/[.!?:;)\]"”’]\s*$/.test(own)) return;
      if (isDisclaimer(own) || (notices.has(i - 1) && previous?.para === para && LEANS_BACK.test(own))) {
        notices.add(i);
        return;
      }
      // A candidate holds a question word itself (its extension below is context), or carries the strong type asked
      // for right after what names the topic: the sentence before it, its paragraph's label or its table's header
      // ("The Senate is the upper chamber. Members serve six years.").
      if (matchText(q, own).size === 0) {
        const before = previous?.para === para ? p.content.slice(previous.s.start, previous.s.end) : '';
        const topic = [before, para.label?.text ?? '', para.header ?? ''].some((t) => t && matchText(q, t).size > 0);
        if (!strong || !topic || !carriesAnswerType(q.type!, withoutQuestionNumbers(own, q.text))) return;
      }
      let span = sentence;
      let list = false;
      // A short sentence closing a list item ("- Same slope, …: parallel, no solution. The system is called
      // inconsistent.") belongs to that item: it is read with the item, never with the next one.
      const previousText = previous?.para === para ? p.content.slice(previous.s.start, previous.s.end) : '';
      const closesItem = BULLET.test(previousText) && !BULLET.test(own) && countWords(own) < 10;
      const following = allSpans[i + 1];
      if (/:$/.test(own)) {
        // "…are as follows:" introduces a list: bring the items along (a few, up to ~70 words).
        let j = i + 1;
        let added = 0;
        while (j < allSpans.length && j <= i + 5 && added < 70) {
          const next = allSpans[j]!.s;
          const item = p.content.slice(next.start, next.end);
          // The next list's introduction starts a list of its own (and a candidate of its own).
          if (/:$/.test(item)) break;
          added += countWords(item);
          span = { start: sentence.start, end: next.end };
          list = true;
          j++;
        }
      } else if (following?.para === para && countWords(own) < 10 && !closesItem && !(para.label && para.label.end >= sentence.end)) {
        // A very short sentence says little alone: keep its successor in the same paragraph with it.
        span = { start: sentence.start, end: following.s.end };
      }
      // A sentence that leans on its predecessor ("Between 1347 and 1351 it killed…") brings it along as its lead-in;
      // any other takes the question words of the sentence before it in its paragraph as weaker context: a topic is
      // often set up by one sentence and answered by the next.
      let leadIn: Map<string, number> = new Map();
      const window = previous?.para === para ? matchText(q, p.content.slice(previous.s.start, previous.s.end)) : new Map<string, number>();
      if (previous?.para === para && (LEANS_BACK.test(own) || closesItem) && !(para.label && para.label.end >= previous.s.end)) {
        const prevText = p.content.slice(previous.s.start, previous.s.end);
        if (countWords(prevText) + countWords(p.content.slice(span.start, span.end)) <= 70) {
          leadIn = matchText(q, prevText);
          span = { start: previous.s.start, end: span.end };
        }
      }
      const text = p.content.slice(span.start, span.end);
      if (countWords(text) < 3) return;
      const words = tokenize(text);
      const ownWords = matchWords(q, words);
      // The paragraph's label is context for the sentences after it (the label's own sentence already holds it).
      const label = para.label && para.label.end <= sentence.start ? para.label : null;
      const labelWords = label ? matchText(q, label.text) : para.header ? matchText(q, para.header) : new Map<string, number>();
      const contextOnly = new Map<string, number>();
      for (const [w, idf] of [...labelWords, ...sectionWords, ...leadIn]) if (!ownWords.has(w)) contextOnly.set(w, Math.max(contextOnly.get(w) ?? 0, idf));
      let upperOnly = 0;
      for (const [w, idf] of upperWords) if (!ownWords.has(w) && !contextOnly.has(w)) upperOnly += idf;
      let windowOnly = 0;
      for (const [w, idf] of window) if (!ownWords.has(w) && !contextOnly.has(w) && !upperWords.has(w)) windowOnly += idf;

      // The kind of answer asked for: in the sentence, or supplied by its label.
      let typeInLabel = false;
      let typed = false;
      const typedText = withoutQuestionNumbers(p.content.slice(sentence.start, span.end), q.text);
      if (q.type) {
        typed = carriesAnswerType(q.type, typedText);
        if (!typed && label && carriesAnswerType(q.type, label.text)) typed = typeInLabel = true;
      }
      const fresh = new Set(words.filter((w) => !q.lexicon(w).some((l) => questionLexemes.has(l)) && q.lexicon(w).length > 0));
      const verdictOn = leadDocument && verdictAsked;
      const concludes = leadDocument && drawsConclusion(own);
      const features = [
        sum(ownWords) / q.total,
        sum(contextOnly) / q.total,
        windowOnly / q.total,
        upperOnly / q.total,
        p.score / topScore,
        index / Math.max(1, PASSAGES_READ - 1),
        typed && strong ? 1 : 0,
        !typed && strong ? 1 : 0,
        typed && !strong ? 1 : 0,
        typeInLabel ? 1 : 0,
        fresh.size <= 2 ? 1 : 0,
        Math.log1p(fresh.size) / 3,
        isAimOrBackground(text) ? 1 : 0,
        /\?\s*$/.test(text) ? 1 : 0,
        Math.log1p(words.length) / 4,
        para.sentences[0]?.start === sentence.start ? 1 : 0,
        label && labelWords.size === 0 && labelMatched ? 1 : 0,
        para.row && !para.header ? 1 : 0,
        para.row ? 1 : 0,
        ownWords.size / Math.max(1, q.weights.size),
        rarest !== null && ownWords.has(rarest) ? 1 : 0,
        hasAdjacentPair(q, words) ? 1 : 0,
        /\d/.test(withoutQuestionNumbers(text, q.text)) ? 1 : 0,
        leadIn.size > 0 || span.start < sentence.start ? 1 : 0,
        list ? 1 : 0,
        statesFinding(own) ? 1 : 0,
        describesMethod(own) ? 1 : 0,
        sum(matchWords(q, tokenize(own).slice(0, 6))) / q.total,
        typed && strong && typedNearTopic(q, typedText) ? 1 : 0,
        typed && strong ? windowOnly / q.total : 0,
        typed && strong ? sum(ownWords) / q.total : 0,
        sharedNumbers(numbers, text),
        givesAskedBound(q.text, text) ? 1 : 0,
        negated && NEGATION.test(text) ? 1 : 0,
        role === 'aim' ? 1 : 0,
        role === 'method' ? 1 : 0,
        leadDocument && role === 'finding' ? 1 : 0,
        concludes ? 1 : 0,
        verdictOn && (role === 'finding' || concludes) ? 1 : 0,
        verdictOn && reportsResult(own) ? 1 : 0,
        verdictOn ? (findingLikelihood(own) ?? 0) : 0,
        generalShare(q, ownWords.keys()),
        generalShare(q, contextOnly.keys()),
        matchDensity(q, words),
      ];
      let score = 0;
      for (let k = 0; k < features.length; k++) score += (weights[k] ?? 0) * features[k]!;

      const needsContext = label && (typeInLabel || labelWords.size > 0 || REFERS_BACK.test(text));
      const sectionNeeded = !needsContext && section && [...sectionWords.keys()].some((w) => !ownWords.has(w)) && REFERS_BACK.test(text);
      // A list item is shown with its introduction when the item does not name what it is an item of.
      const intro = introOf.get(para);
      const introNeeded = !needsContext && intro !== undefined && countWords(p.content.slice(intro.start, intro.end)) <= INTRO_MAX_WORDS;
      const context = needsContext ? label!.text : introNeeded ? p.content.slice(intro!.start, intro!.end) : sectionNeeded ? section : null;
      const excerpt =
        needsContext && span.end - para.start <= MAX_EXCERPT_CHARS
          ? { start: para.start, end: span.end }
          : introNeeded && span.end - intro!.start <= MAX_EXCERPT_CHARS
            ? { start: intro!.start, end: span.end }
            : span;
      const shown = para.row && para.header && span.start === para.start && span.end === para.end ? withColumnNames(para.header, text) : undefined;
      candidates.push({
        passage: index,
        text,
        span,
        context,
        excerpt,
        shown,
        score,
        features,
        terms: new Set(words.map(lightStem).filter((w) => !STOP_WORDS.has(w))),
      });
    });
  });

  candidates.sort((a, b) => b.score - a.score || a.passage - b.passage || a.span.start - b.span.start);
  // Overlapping chunks repeat a sentence: keep its best-scored copy.
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.text) && seen.add(c.text));
}

/**
 * How tightly the question's words sit in the statement: the words of it that name a question word, over the length
 * of the shortest stretch from the first to the last of them (1 when they stand together, 0 when none is found).
 */
function matchDensity(q: Question, words: string[]): number {
  let first = -1;
  let last = -1;
  let hits = 0;
  words.forEach((w, i) => {
    if (matchWords(q, [w]).size === 0) return;
    if (first < 0) first = i;
    last = i;
    hits++;
  });
  return hits === 0 ? 0 : hits / (last - first + 1);
}

/** Question words that occur in the knowledge base (the rest weigh most but cannot be found). */
function presentWords(q: Question): Set<string> {
  return q.present;
}

export function chooseSentences(q: Question, read: RetrievedChunk[], evidence: PassageEvidence[], candidates: SentenceCandidate[]): SentenceCandidate[] {
  const best = candidates[0];
  if (!best) return [];
  const leadDocument = itemAt(read, best.passage).documentId;
  const leadEvidence = itemAt(evidence, best.passage);
  const chosen: SentenceCandidate[] = [];
  const perPassage = new Map<number, number>();
  for (const c of candidates) {
    if (chosen.length >= MAX_ANSWER_SENTENCES) break;
    if (c.score < best.score - FOLLOW_MARGIN) break;
    const p = itemAt(read, c.passage);
    // Another document is cited only when its own passage independently answers the question.
    if (p.documentId !== leadDocument) {
      const e = itemAt(evidence, c.passage);
      if (c.score < best.score - OTHER_DOCUMENT_MARGIN || !passesGate(q, e) || e.coverage < leadEvidence.coverage) continue;
    }
    if ((perPassage.get(c.passage) ?? 0) >= 3) continue;
    // A follow-up under another label ("Representative: Term of two years." after "Senator: Term of six years.") is
    // about something else than what was asked.
    if (chosen.length > 0 && (c as RankedCandidate).features?.[OTHER_LABEL] === 1) continue;
    if (chosen.some((x) => x.text === c.text || jaccard(x.terms, c.terms) >= 0.6)) continue;
    if (chosen.some((x) => x.passage === c.passage && x.span.start < c.span.end && c.span.start < x.span.end)) continue;
    chosen.push(c);
    perPassage.set(c.passage, (perPassage.get(c.passage) ?? 0) + 1);
  }
  return chosen;
}
