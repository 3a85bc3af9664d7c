import { answerTypeOffsets } from './answer-type';
import { matchWords, type Question } from './question';
import { tokenize } from './text';

/** The features the reader scores a candidate statement by (computed by rankSentences in sentence-ranker.ts). */

/** An answer is a number the question lacks: the question's own numbers are blanked to the same length. */
export function withoutQuestionNumbers(text: string, question: string): string {
  const own = new Set(question.match(/\d[\d.,/]*/g) ?? []);
  return own.size ? text.replace(/\d[\d.,/]*/g, (n) => (own.has(n) ? ' '.repeat(n.length) : n)) : text;
}

/** A negation: a question about what does NOT hold is answered by a statement that says so, not by its opposite. */
export const NEGATION =
  /\b(no|not|non|none|never|without|cannot|can't|don't|doesn't|isn't|aren't|sin|nunca|ning[úu]n[oa]?|nicht|kein\w*|ohne|nie|pas|sans|jamais|aucun\w*)\b|n['’]t\b/i;

const NEAR_CHARS = 40;

export function typedNearTopic(q: Question, text: string): boolean {
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

/**
 * Each about 0..1; the score is their weighted sum with SENTENCE_WEIGHTS (answer-weights.ts, fitted by
 * bench/engine-quality/train-ranker.ts): the log-odds that this statement carries the answer.
 */
export const SENTENCE_FEATURES = [
  'own coverage', // share of the question's weight in the statement itself or only in its document title and higher headings
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

/** Question words over the length of the shortest stretch holding them all (1 when together, 0 when none). */
export function matchDensity(q: Question, words: string[]): number {
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
