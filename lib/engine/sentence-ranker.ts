import { itemAt } from '@/lib/platform/arrays';
import {
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
import { generalShare, headingParts } from './relevance-gate';
import { matchDensity, NEGATION, typedNearTopic, withoutQuestionNumbers } from './sentence-features';
import type { RetrievedChunk } from './types';
import { countWords, lightStem, STOP_WORDS, tokenize, type Span } from './text';

/** The candidate statements of the top passages with their context, scored by SENTENCE_FEATURES (sentence-features.ts). */

export const PASSAGES_READ = 5;
export const MAX_EXCERPT_CHARS = 600;

export interface SentenceCandidate {
  passage: number;
  text: string;
  span: Span;
  context: string | null;
  excerpt: Span;
  shown?: string;
  score: number;
  terms: Set<string>;
}

const BULLET = /^[-–•]\s/;
const REFERS_BACK = /^(the|this|these|that|those|it|they|such|el|la|los|las|este|esta|dieser|diese|dieses|der|die|das|es|ce|cette|ces|il|elle)\b/i;
const LEANS_BACK = /^(\S+\s+){0,4}(it|they|he|she|its|their|this|these|those|them|such|above|ello|ellos|ellas|er|sie|es|il|ils|elle|elles)\b/i;

const ITEM_MAX_WORDS = 60;
const INTRO_MAX_WORDS = 30;
const LIST_MAX_ITEMS = 15;

/** Each list item's introduction: parsing drops list markers, so a list is a run of short lines after one ending in ":". */
function listIntroductions(content: string, paragraphs: Paragraph[]): Map<Paragraph, Span> {
  const out = new Map<Paragraph, Span>();
  let intro: Span | null = null;
  let items = 0;
  for (const para of paragraphs) {
    const last = para.sentences[para.sentences.length - 1];
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

/** A table row with each cell after its column's name (a row alone does not say what its numbers are), or undefined. */
function withColumnNames(header: string, row: string): string | undefined {
  const names = header.split('; ');
  const parts = row.split('; ');
  if (parts.length < names.length || names.every((n) => !n.trim())) return undefined;
  // The parsers join cells with "; ", which a cell may hold itself: the extra parts belong to the first, descriptive cell.
  const cells = [parts.slice(0, parts.length - names.length + 1).join('; '), ...parts.slice(parts.length - names.length + 1)];
  return cells
    .map((cell, k) => {
      const name = itemAt(names, k).trim();
      return name && cell.trim() && name !== cell.trim() ? `${name}: ${cell}` : cell;
    })
    .filter((c) => c.trim())
    .join('; ');
}

/** Closing punctuation; a bracket or quote closes a line only after a full stop ("(… as before.)"), never alone ("Season 7 (soundtrack)"). */
const CLOSED = /([.!?:;]|[.!?][)\]"”’]+|["”’])\s*$/;
const CONTENTS_ENTRY = /^\s*\d+(\.\d+)+\.?\s/;
const SEE_ALSO = /^\s*(see also|siehe auch|v[ée]ase tambi[ée]n|voir aussi)\b/i;

/**
 * A line that states nothing, so is never a statement: a caption or heading kept in the text, a table of contents entry
 * ("3.2 Season 1 (2017)"), a "See also" line, or one phrase said over and over (a map caption a page's markup repeats).
 */
function statesNothing(text: string, para: Paragraph): boolean {
  const open = countWords(text) <= 10 && !CLOSED.test(text);
  if (!para.row && open && (para.sentences.length === 1 || CONTENTS_ENTRY.test(text))) return true;
  return SEE_ALSO.test(text) || repeatsItself(text);
}

/** Most of its four-word runs occur more than once: a dozen words or more that keep saying the same thing. */
function repeatsItself(text: string): boolean {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length < 12) return false;
  const runs = new Set<string>();
  for (let i = 0; i + 4 <= words.length; i++) runs.add(words.slice(i, i + 4).join(' '));
  return runs.size < 0.6 * (words.length - 3);
}

export interface RankedCandidate extends SentenceCandidate {
  features: number[];
}

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
    if (isBackMatter(p.heading)) return;
    const role = sectionRole(section || upper);
    // An answer-like statement counts only in the best-matching document: another study's conclusion answers another question.
    const leadDocument = p.documentId === itemAt(read, 0).documentId;
    const sectionWords = matchText(q, section);
    const upperWords = matchText(q, upper);
    const paragraphs = chunkParagraphs(p.content);
    // Labelled paragraphs side by side ("Representative: …", "Senator: …"): when one label names what was asked, the others do not.
    const labelMatched = paragraphs.some((para) => para.label && matchText(q, para.label.text).size > 0);
    const introOf = listIntroductions(p.content, paragraphs);
    const allSpans = paragraphs.flatMap((para) => para.sentences.map((s) => ({ s, para })));
    const headers = new Set(paragraphs.map((para) => para.header).filter((h): h is string => h !== null));
    const notices = new Set<number>();
    allSpans.forEach(({ s: sentence, para }, i) => {
      const own = p.content.slice(sentence.start, sentence.end);
      const previous = allSpans[i - 1];
      if (para.row && !para.header && headers.has(p.content.slice(para.start, para.end))) return;
      if (statesNothing(own, para)) return;
      if (isDisclaimer(own) || (notices.has(i - 1) && previous?.para === para && LEANS_BACK.test(own))) {
        notices.add(i);
        return;
      }
      // A candidate holds a question word, or carries the strong type asked for right after what names the topic.
      if (matchText(q, own).size === 0) {
        const before = previous?.para === para ? p.content.slice(previous.s.start, previous.s.end) : '';
        const topic = [before, para.label?.text ?? '', para.header ?? ''].some((t) => t && matchText(q, t).size > 0);
        if (!strong || !topic || !carriesAnswerType(q.type!, withoutQuestionNumbers(own, q.text))) return;
      }
      let span = sentence;
      let list = false;
      // A short sentence closing a list item belongs to that item, never to the next one.
      const previousText = previous?.para === para ? p.content.slice(previous.s.start, previous.s.end) : '';
      const closesItem = BULLET.test(previousText) && !BULLET.test(own) && countWords(own) < 10;
      const following = allSpans[i + 1];
      if (/:$/.test(own)) {
        let j = i + 1;
        let added = 0;
        while (j < allSpans.length && j <= i + 5 && added < 70) {
          const next = allSpans[j]!.s;
          const item = p.content.slice(next.start, next.end);
          if (/:$/.test(item)) break;
          added += countWords(item);
          span = { start: sentence.start, end: next.end };
          list = true;
          j++;
        }
      } else if (following?.para === para && countWords(own) < 10 && !closesItem && !(para.label && para.label.end >= sentence.end)) {
        span = { start: sentence.start, end: following.s.end };
      }
      // A sentence that leans on its predecessor ("Between 1347 and 1351 it killed…") brings it along; any other takes
      // the previous sentence's question words as weaker context.
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
      const label = para.label && para.label.end <= sentence.start ? para.label : null;
      const labelWords = label ? matchText(q, label.text) : para.header ? matchText(q, para.header) : new Map<string, number>();
      const contextOnly = new Map<string, number>();
      for (const [w, idf] of [...labelWords, ...sectionWords, ...leadIn]) if (!ownWords.has(w)) contextOnly.set(w, Math.max(contextOnly.get(w) ?? 0, idf));
      let upperOnly = 0;
      for (const [w, idf] of upperWords) if (!ownWords.has(w) && !contextOnly.has(w)) upperOnly += idf;
      let windowOnly = 0;
      for (const [w, idf] of window) if (!ownWords.has(w) && !contextOnly.has(w) && !upperWords.has(w)) windowOnly += idf;

      let typeInLabel = false;
      let typed = false;
      const typedText = withoutQuestionNumbers(p.content.slice(sentence.start, span.end), q.text);
      if (q.type) {
        typed = carriesAnswerType(q.type, typedText);
        if (!typed && label && carriesAnswerType(q.type, label.text)) typed = typeInLabel = true;
      }
      const fresh = new Set(words.filter((w) => !q.lexicon(w).some((l) => questionLexemes.has(l)) && q.lexicon(w).length > 0));
      // A study's verdict is read in a study's sections (Results, Conclusions…) or in text without headings, such as an
      // abstract, where only the wording tells a finding from its background. Under a guide's or a rulebook's own
      // headings a sentence worded like a finding is no verdict, though the finding-wording model, fitted on abstracts,
      // reads it as one.
      const verdictOn = leadDocument && verdictAsked && (role !== null || !p.heading);
      const concludes = leadDocument && drawsConclusion(own);
      const features = [
        // The document's title and higher headings are what every statement under them is about: "Who voices Marta in The
        // Lantern Street Bakery?" is answered by "Marta Oyelaran (voiced by…)" on the page of that name, not by the
        // statement that repeats the page's name.
        (sum(ownWords) + upperOnly) / q.total,
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
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.text) && seen.add(c.text));
}

function presentWords(q: Question): Set<string> {
  return q.present;
}
