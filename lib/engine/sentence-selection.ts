import { itemAt } from '@/lib/platform/arrays';
import { carriesAnswerType } from './answer-type';
import type { Question } from './question';
import { passageEvidence, passesGate, type PassageEvidence } from './relevance-gate';
import { SENTENCE_FEATURES } from './sentence-features';
import type { RankedCandidate } from './sentence-ranker';
import type { RetrievedChunk } from './types';

/** The statements an extractive answer is made of, chosen from the ranked candidates. */

export const MAX_ANSWER_SENTENCES = 3;

/** In log-odds below the best statement, from its own document or from another. */
const FOLLOW_MARGIN = 4.0;
const OTHER_DOCUMENT_MARGIN = 0.3;

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

export function selectSentences(q: Question, read: RetrievedChunk[], ranked: RankedCandidate[]): RankedCandidate[] {
  if (q.total <= 0) return [];
  const evidence = read.map((p) => passageEvidence(q, p));
  const chosen = chooseSentences(q, read, evidence, ranked);
  // "On what date…" answered without any date is no answer. Only for a day: the other types' patterns miss phrasings. A
  // contract or a rule often gives the day as a term counted from another ("for an initial period of five (5) years"):
  // the best close statement that does so answers alone.
  const carries = (c: RankedCandidate, type: 'day' | 'duration') => carriesAnswerType(type, `${c.context ?? ''} ${c.text}`);
  if (q.type === 'day' && !chosen.some((c) => carries(c, 'day'))) {
    const top = ranked[0]?.score ?? Infinity;
    const dated = ranked.find((c) => c.score >= top - FOLLOW_MARGIN && (carries(c, 'day') || carries(c, 'duration')));
    return dated ? [dated] : [];
  }
  return chosen;
}

const OTHER_LABEL = SENTENCE_FEATURES.indexOf('other label');
const OWN_COVERAGE = SENTENCE_FEATURES.indexOf('own coverage');
const ownCoverage = (c: RankedCandidate) => c.features[OWN_COVERAGE] ?? 0;

export function chooseSentences(q: Question, read: RetrievedChunk[], evidence: PassageEvidence[], candidates: RankedCandidate[]): RankedCandidate[] {
  const best = candidates[0];
  if (!best) return [];
  const leadDocument = itemAt(read, best.passage).documentId;
  const leadEvidence = itemAt(evidence, best.passage);
  const chosen: RankedCandidate[] = [];
  const perPassage = new Map<number, number>();
  for (const c of candidates) {
    if (chosen.length >= MAX_ANSWER_SENTENCES) break;
    if (c.score < best.score - FOLLOW_MARGIN) break;
    const p = itemAt(read, c.passage);
    if (p.documentId !== leadDocument) {
      const e = itemAt(evidence, c.passage);
      // Another document is cited only when it answers on its own: close in score, its passage as complete, and its
      // statement covering the question as fully as the first (on the public sets such statements never added a gold).
      if (c.score < best.score - OTHER_DOCUMENT_MARGIN || !passesGate(q, e) || e.coverage < leadEvidence.coverage || ownCoverage(c) < ownCoverage(best))
        continue;
    }
    if ((perPassage.get(c.passage) ?? 0) >= 3) continue;
    // A follow-up under another label ("Representative: …" after "Senator: …") is about something else.
    if (chosen.length > 0 && c.features[OTHER_LABEL] === 1) continue;
    if (chosen.some((x) => x.text === c.text || jaccard(x.terms, c.terms) >= 0.6)) continue;
    if (chosen.some((x) => x.passage === c.passage && x.span.start < c.span.end && c.span.start < x.span.end)) continue;
    chosen.push(c);
    perPassage.set(c.passage, (perPassage.get(c.passage) ?? 0) + 1);
  }
  return chosen;
}
