/**
 * Leave one domain out: fits the extractive reader (SENTENCE_WEIGHTS) and the relevance gate (GATE_MODEL) on every
 * domain of a domains.ts snapshot but one, judges them on the one left out, and does so for each domain in turn. The
 * figures of record are the held-out ones. With --write, the weights fitted on every domain replace
 * lib/engine/gate-weights.ts (and answer-weights.ts with --fit-reader).
 *
 *   npx tsx bench/engine-quality/lodo.ts [--snapshot FILE] [--write] [--verbose DOMAIN] [--shipped] [--fit-reader]
 *       [--budget 0.04] [--own-weight 3] [--domain D] [--trade-off] [--in-sample] [--kb-calibration]
 *       [--semantic FILE [--band BELOW,ABOVE] [--band-at-shipped] [--semantic-budget B] [--semantic-rows all|band] [--similarity-index 0|1]]
 *
 * --shipped judges the weights the engine ships with (no fitting): the "before" column.
 *
 * Per domain: gold answer in the first statement and anywhere (of answerable questions), the right document cited
 * first, answers citing a document that does not answer, answerable questions refused, questions of other domains
 * refused, the set's own unanswerables refused, the hand-written off-topic list refused, and the time to compose an
 * answer on top of retrieval (p50/p95). Beside them: the top chunk's document (BM25) and a naive reader (the top
 * passage's sentence sharing most question words).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeExtractiveAnswer } from '@/lib/engine/answer';
import { judgeLexically, READER_MODEL, type ReaderModel } from '@/lib/engine/answerable';
import { languageOfConfig, checkedSearchConfig } from '@/lib/engine/language';
import { analyseQuestion, mapLexicon, matchText, type Question } from '@/lib/engine/question';
import { combinedScore, gateEvidence, gateFeatures, gateScore, GATE_FEATURES, languageNeutral, passesGate, undecided } from '@/lib/engine/relevance-gate';
import type { GateModel, SemanticGate } from '@/lib/engine/types';
import { SENTENCE_FEATURES } from '@/lib/engine/sentence-features';
import { rankSentences } from '@/lib/engine/sentence-ranker';
import { SENTENCE_WEIGHTS } from '@/lib/engine/answer-weights';
import { SEMANTIC_GATE } from '@/lib/engine/gate-weights';
import { itemAt } from '@/lib/platform/arrays';
import { ISSUE_14_READER_WEIGHTS } from './reader-prior';
import { chunkParagraphs } from '@/lib/engine/paragraphs';
import { answers, containsFact, answerUnits, loadOffTopicSet, normaliseForFact } from './evaluation-set';
import { thresholdFromScores } from '@/lib/engine/gate-calibration';
import { CALIBRATION_BOUNDS, type CalibrationBounds } from '@/lib/engine/calibration-bounds';
import { DEFAULT_DOMAIN_SNAPSHOT, loadDomainSnapshot, OWN_DOMAIN, type DomainAsk, type DomainSnapshot } from './domains';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
/**
 * --fit-reader: fit the reader's weights too (leaving each domain out), not only the gate's. Measured and not shipped:
 * see bench/engine-quality/README.md (issue 27).
 */
const fitReaderToo = argv.includes('--fit-reader');

/** The hand-set weights the reader's fit starts from and is pulled towards (train-ranker.ts's PRIOR). */
const READER_PRIOR = [
  3, 2, 1.5, 0.7, 1, -0.5, 1.2, -1, 0.4, 0.5, -1, 0.3, -1, -1, 0, 0, -1, -1, 0, 0.5, 0.3, 0.3, 0.2, 0, 0, 0.3, -0.3, 0.5, 0.3, 0, 0, 0.3, 0.3, 0.3, -0.5, -0.3,
  0.3, 0.3, 0.5, 0.3, 1, 1, 0.5, 0.5,
];
// One prior per feature, in order: a feature added or removed without its prior would shift every later one.
if (READER_PRIOR.length !== SENTENCE_FEATURES.length)
  throw new Error(`READER_PRIOR has ${READER_PRIOR.length} weights for ${SENTENCE_FEATURES.length} features`);
/**
 * How much our own evaluation set weighs in a fit against each public domain (1: as one domain among the others). It
 * holds the kind of questions the marketplace's buyers ask, so the shipped weights lean towards it; the held-out
 * figures apply the same weighting to the domains a model is fitted on.
 */
const OWN_WEIGHT = Number(option('--own-weight') ?? 6);
const domainWeight = (domain: string) => (domain === OWN_DOMAIN ? OWN_WEIGHT : 1);
const READER_LAMBDA = Number(option('--reader-lambda') ?? 0.03);
const GATE_LAMBDA = 0.01;
/**
 * Domains judged held out like every other but never fitted on. QASPER's questions were written by people who had read
 * only a paper's abstract ("How big is the dataset?"): in the gate's fit they teach that a question sharing one general
 * word with a statement is answered, and their refusal budget lowered every threshold (other domains' questions
 * refused on biomedical 96.3 → 83.7%, legal 95.7 → 89.1%); in the reader's, they cost legal and biomedical a point.
 */
const EVALUATION_ONLY = new Set((option('--evaluation-only') ?? 'scientific-articles').split(',').filter(Boolean));
/** The gate's threshold keeps at most this share of the training domains' answerable questions refused (their mean). */
const REFUSAL_BUDGET = Number(option('--budget') ?? 0.04);
/**
 * The gate as a knowledge base in Spanish, German or French has it: --neutral fits and judges the learned gate on the
 * features that do not depend on general-English word frequencies (LANGUAGE_NEUTRAL_FEATURES), --rule judges with the
 * hand-written rule alone (passesGate: the gate of those languages before stop 44). Neither uses the sentence encoder
 * (English only) or a knowledge base's calibration (English questions).
 */
const GATE_MODE: 'full' | 'neutral' | 'rule' = argv.includes('--neutral') ? 'neutral' : argv.includes('--rule') ? 'rule' : 'full';

// --- per ask, computed once -----------------------------------------------------------------------------------------

interface Prepared {
  ask: DomainAsk;
  q: Question;
  language: ReturnType<typeof languageOfConfig>;
  lexicon: ReturnType<typeof mapLexicon>;
  /** Reader candidates: features and whether each answers (false for every candidate of an unanswerable ask). */
  x: number[][];
  y: boolean[];
  /** The gate's features but the last (the reader's score, which depends on the reader's weights). */
  gate: number[];
  /** The sentence encoder's cosine between the question and the reader's first statement (--semantic), else null. */
  similarity: number | null;
  /** Gold answer somewhere in the passages read. */
  reachable: boolean;
  /**
   * A question lent by another domain that this knowledge base answers after all: a statement read holds the lent
   * question's own gold span (two Wikipedia sets share topics: "who becomes president if the president dies").
   * Neither a refusal owed nor a negative to fit on.
   */
  answerableHere: boolean;
}

/** A gold span telling enough to show that a statement answers a lent question: not a bare number or a short word. */
const tellingSpan = (a: string) => /\p{L}/u.test(a) && normaliseForFact(a).length >= 6;

/**
 * --semantic FILE: the sentence encoder's similarities (semantic-gate.ts writes them, by "set|ask id": the best of the
 * reader's five statements, then the first's). With it the second gate model (SEMANTIC_GATE) is fitted beside the
 * lexical one and decides inside the band (--band BELOW,ABOVE, lexical log-odds around its threshold), as the engine
 * does with ENGINE_ENCODER=on.
 */
const semanticFile: Record<string, number[]> | null = option('--semantic') ? JSON.parse(readFileSync(option('--semantic')!, 'utf8')) : null;
/** Measured alternatives (bench/engine-quality/README.md, stop 38): the best statement's cosine (0), the band's rows only. */
const SIMILARITY_INDEX = Number(option('--similarity-index') ?? 1);
const SEMANTIC_ROWS = option('--semantic-rows') ?? 'all';
/** The refusal budget of the two models together (the lexical one's alone is REFUSAL_BUDGET). */
const SEMANTIC_BUDGET = Number(option('--semantic-budget') ?? option('--budget') ?? 0.04);
const [BAND_BELOW = SEMANTIC_GATE.below, BAND_ABOVE = SEMANTIC_GATE.above] = (option('--band') ?? `${SEMANTIC_GATE.below},${SEMANTIC_GATE.above}`)
  .split(',')
  .map(Number);

/**
 * --band-at-shipped: the encoder's band around the shipped threshold even where a knowledge base has its own (stop 39's
 * engine); by default it lies around the knowledge base's threshold, as gate-calibration.ts's thresholds are applied.
 */
const BAND_AT_THRESHOLD = !argv.includes('--band-at-shipped');

/** --calibration-floor/-margin/-share/-rise: the per-knowledge-base calibration's bounds (gate-calibration.ts), to measure others. */
const CALIBRATION: CalibrationBounds = {
  ...CALIBRATION_BOUNDS,
  floor: Number(option('--calibration-floor') ?? CALIBRATION_BOUNDS.floor),
  margin: Number(option('--calibration-margin') ?? CALIBRATION_BOUNDS.margin),
  share: Number(option('--calibration-share') ?? CALIBRATION_BOUNDS.share),
  rise: Number(option('--calibration-rise') ?? CALIBRATION_BOUNDS.rise),
};

function prepare(snapshot: DomainSnapshot): Prepared[] {
  // One map per configuration, shared by every ask (a map per ask would hold the whole vocabulary thousands of times).
  const maps = new Map(Object.entries(snapshot.lexemes).map(([config, words]) => [config, new Map(Object.entries(words))]));
  const byId = new Map(snapshot.asks.filter((a) => a.kind === 'answerable').map((a) => [a.id, a]));
  return snapshot.asks.map((ask) => {
    const config = checkedSearchConfig(ask.config);
    const language = languageOfConfig(config);
    const lexicon = mapLexicon(maps.get(ask.config) ?? new Map(), ask.terms);
    const q = analyseQuestion(ask.query, ask.terms, lexicon, language);
    const ranked = rankSentences(q, ask.chunks);
    const y = ranked.map((c) => ask.kind === 'answerable' && answers(`${c.context ?? ''}: ${c.text}`, ask));
    const features = q.total > 0 && ranked.length ? gateFeatures(q, gateEvidence(q, ask.chunks), 0).slice(0, -1) : [];
    const lexical = GATE_MODE === 'neutral' ? languageNeutral(features) : features;
    const similarity = semanticFile?.[`${ask.set}|${ask.id}`]?.[SIMILARITY_INDEX] ?? null;
    const lent = ask.kind === 'cross' ? byId.get(ask.id.slice(0, ask.id.lastIndexOf('@'))) : undefined;
    const spans = lent?.answers.filter(tellingSpan) ?? [];
    const answerableHere = spans.length > 0 && ranked.some((c) => spans.some((a) => containsFact(`${c.context ?? ''}: ${c.text}`, a)));
    q.matched.clear();
    return { ask, q, language, lexicon, x: ranked.map((c) => c.features), y, gate: lexical, similarity, reachable: y.some(Boolean), answerableHere };
  });
}

// --- fitting --------------------------------------------------------------------------------------------------------

/** The gate's features of an ask under the given reader weights (its best statement's score last, as gateFeatures has it). */
function gateRow(p: Prepared, readerWeights: readonly number[]): number[] {
  const best = p.x.reduce(
    (m, x) =>
      Math.max(
        m,
        x.reduce((a, v, k) => a + v * (readerWeights[k] ?? 0), 0),
      ),
    -Infinity,
  );
  return [...p.gate, Math.max(-1, Math.min(2, best / 10))];
}

interface Group {
  x: number[][];
  y: boolean[];
  weight: number;
}

function adam(dim: number, start: number[], steps: number, gradient: (w: number[]) => number[]): number[] {
  const w = [...start];
  const m = new Array(dim).fill(0);
  const v = new Array(dim).fill(0);
  for (let t = 1; t <= steps; t++) {
    const g = gradient(w);
    for (let k = 0; k < dim; k++) {
      const gk = itemAt(g, k);
      m[k] = 0.9 * m[k] + 0.1 * gk;
      v[k] = 0.999 * v[k] + 0.001 * gk * gk;
      w[k] = itemAt(w, k) - (0.05 * (m[k] / (1 - 0.9 ** t))) / (Math.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return w;
}

/**
 * Listwise softmax over each question's candidates, the domains weighed by domainWeight, pulled towards `prior`: the
 * hand-set READER_PRIOR when a domain is held out, issue 14's weights when fitting on every domain (reader-prior.ts:
 * they were fitted on data that fit includes, and keep what the features of study abstracts and lists learned there).
 */
function fitReader(train: Prepared[], prior: readonly number[] = READER_PRIOR): number[] {
  const byDomain = new Map<string, Prepared[]>();
  for (const p of train)
    if (p.ask.kind === 'answerable' && p.reachable && p.y.some((v) => !v) && !EVALUATION_ONLY.has(p.ask.domain))
      byDomain.set(p.ask.domain, [...(byDomain.get(p.ask.domain) ?? []), p]);
  const total = [...byDomain.keys()].reduce((a, d) => a + domainWeight(d), 0);
  const groups: Group[] = [...byDomain].flatMap(([d, ps]) => ps.map((p) => ({ x: p.x, y: p.y, weight: domainWeight(d) / (ps.length * total) })));
  const dim = SENTENCE_FEATURES.length;
  const start = SENTENCE_FEATURES.map((_, k) => prior[k] ?? itemAt(READER_PRIOR, k));
  return adam(dim, start, 1500, (w) => {
    const grad = w.map((v, k) => 2 * READER_LAMBDA * (v - itemAt(start, k)));
    for (const g of groups) {
      const s = g.x.map((x) => x.reduce((a, v, k) => a + v * (w[k] ?? 0), 0));
      const top = Math.max(...s);
      const e = s.map((v) => Math.exp(v - top));
      const all = e.reduce((a, b) => a + b, 0);
      const pos = e.reduce((a, v, i) => a + (g.y[i] ? v : 0), 0);
      g.x.forEach((x, i) => {
        const ei = itemAt(e, i);
        const coef = (ei / all - (g.y[i] ? ei / pos : 0)) * g.weight;
        x.forEach((xk, k) => (grad[k] = itemAt(grad, k) + coef * xk));
      });
    }
    return grad;
  });
}

/** The rows of a gate's fit: answerable questions whose answer is in the passages read against questions of other domains. */
function gateRows(train: Prepared[], domains: string[], row: (p: Prepared) => number[] | null): Array<{ x: number[]; y: number; weight: number }> {
  const total = domains.reduce((a, d) => a + domainWeight(d), 0);
  const rows: Array<{ x: number[]; y: number; weight: number }> = [];
  for (const d of domains) {
    const pos = train.filter((p) => p.ask.domain === d && p.ask.kind === 'answerable' && p.reachable && row(p));
    const neg = train.filter((p) => p.ask.domain === d && p.ask.kind === 'cross' && !p.answerableHere && row(p));
    for (const p of pos) rows.push({ x: row(p)!, y: 1, weight: domainWeight(d) / (2 * pos.length * total) });
    for (const p of neg) rows.push({ x: row(p)!, y: 0, weight: domainWeight(d) / (2 * neg.length * total) });
  }
  return rows;
}

/** Logistic regression, each domain's two classes weighing the same; the threshold is set by the caller. */
function fitLogistic(rows: Array<{ x: number[]; y: number; weight: number }>): GateModel {
  const dim = (rows[0]?.x.length ?? GATE_FEATURES.length) + 1;
  const w = adam(dim, new Array(dim).fill(0), 2000, (w) => {
    const grad = w.map((v, k) => (k === 0 ? 0 : 2 * GATE_LAMBDA * v));
    const [bias = 0, ...weights] = w;
    for (const r of rows) {
      const z = bias + r.x.reduce((a, v, k) => a + v * (weights[k] ?? 0), 0);
      const err = (1 / (1 + Math.exp(-z)) - r.y) * r.weight;
      grad[0] = itemAt(grad, 0) + err;
      r.x.forEach((v, k) => (grad[k + 1] = itemAt(grad, k + 1) + err * v));
    }
    return grad;
  });
  const [bias = 0, ...weights] = w;
  return { bias, weights, threshold: 0 };
}

/**
 * The highest threshold at which the training domains' answerable questions are refused at most REFUSAL_BUDGET on
 * average, a question being refused below its value (computed once per question).
 */
function budgetThreshold(train: Prepared[], domains: string[], value: (p: Prepared) => number, budget = REFUSAL_BUDGET): number {
  const total = domains.reduce((a, d) => a + domainWeight(d), 0);
  const perDomain = domains.map((d) => train.filter((p) => p.ask.domain === d && p.ask.kind === 'answerable' && p.gate.length).map(value));
  let threshold = -10;
  for (let t = -10; t <= 10; t += 0.05) {
    const share = perDomain.reduce((a, vs, k) => a + (domainWeight(itemAt(domains, k)) * vs.filter((v) => v < t).length) / Math.max(1, vs.length), 0) / total;
    if (share <= budget) threshold = t;
  }
  return Number(threshold.toFixed(2));
}

const trainingDomains = (all: Prepared[]) => {
  const train = all.filter((p) => !EVALUATION_ONLY.has(p.ask.domain));
  return { train, domains: [...new Set(train.map((p) => p.ask.domain))] };
};

function fitGate(all: Prepared[], readerWeights: readonly number[]): GateModel {
  const { train, domains } = trainingDomains(all);
  const model = fitLogistic(gateRows(train, domains, (p) => (p.gate.length ? gateRow(p, readerWeights) : null)));
  return { ...model, threshold: budgetThreshold(train, domains, (p) => gateScore(gateRow(p, readerWeights), model)) };
}

/**
 * The second model (GATE_FEATURES and the similarity), fitted on every row that has a similarity; its threshold is the
 * highest at which the two models together, the second deciding inside the band, keep the refusal budget.
 */
function fitSemantic(all: Prepared[], readerWeights: readonly number[], gate: GateModel): SemanticGate | null {
  if (!semanticFile) return null;
  const { train, domains } = trainingDomains(all);
  const band = { below: BAND_BELOW, above: BAND_ABOVE };
  const withSimilarity = (p: Prepared) => {
    if (!p.gate.length || p.similarity === null) return null;
    const row = gateRow(p, readerWeights);
    if (SEMANTIC_ROWS === 'band' && !undecided(gateScore(row, gate), gate, { ...band, model: gate })) return null;
    return [...row, p.similarity];
  };
  const model = fitLogistic(gateRows(train, domains, withSimilarity));
  // Inside the band the second model's log-odds meet its threshold; outside it the lexical decision stands whatever that is.
  const threshold = budgetThreshold(
    train,
    domains,
    (p) => {
      const row = gateRow(p, readerWeights);
      const lexical = gateScore(row, gate);
      if (p.similarity !== null && undecided(lexical, gate, { ...band, model })) return gateScore([...row, p.similarity], model);
      return lexical >= gate.threshold ? Infinity : -Infinity;
    },
    SEMANTIC_BUDGET,
  );
  return { ...band, model: { ...model, threshold } };
}

/** The gate's score of an ask as the engine computes it: lexical, or the second model's inside the band. */
function decideScore(p: Prepared, readerWeights: readonly number[], gate: GateModel, semantic: SemanticGate | null, band = gate.threshold): number {
  if (!p.gate.length) return -Infinity;
  const row = gateRow(p, readerWeights);
  return combinedScore(gateScore(row, gate), row, p.similarity, gate, semantic, band);
}

// --- judging --------------------------------------------------------------------------------------------------------

interface Tally {
  answerable: number;
  first: number;
  anywhere: number;
  answered: number;
  withGoldDocument: number;
  rightDocumentFirst: number;
  otherDocument: number;
  /** Of otherDocument: the first citation is the document that does not answer. */
  otherDocumentFirst: number;
  refusedAnswerable: number;
  cross: number;
  crossRefused: number;
  crossAnswerableHere: number;
  own: number;
  ownRefused: number;
  offTopic: number;
  offTopicRefused: number;
  bm25DocumentFirst: number;
  naiveFirst: number;
  /** Answerable asks with a candidate statement that answers: the reader's ceiling. */
  reachable: number;
  /** Asks the lexical gate leaves to the sentence encoder (inside the band). */
  undecided: number;
  asks: number;
  composeMs: number[];
  totalMs: number[];
  misses: string[];
}

const emptyTally = (): Tally => ({
  answerable: 0,
  first: 0,
  anywhere: 0,
  answered: 0,
  withGoldDocument: 0,
  rightDocumentFirst: 0,
  otherDocument: 0,
  otherDocumentFirst: 0,
  refusedAnswerable: 0,
  cross: 0,
  crossRefused: 0,
  crossAnswerableHere: 0,
  own: 0,
  ownRefused: 0,
  offTopic: 0,
  offTopicRefused: 0,
  bm25DocumentFirst: 0,
  naiveFirst: 0,
  reachable: 0,
  undecided: 0,
  asks: 0,
  composeMs: [],
  totalMs: [],
  misses: [],
});

/** The naive reader of the issue: the top passage's sentence that shares most question words. */
function naiveSentence(p: Prepared): string {
  const top = p.ask.chunks[0];
  if (!top) return '';
  let best = '';
  let bestCount = -1;
  for (const para of chunkParagraphs(top.content)) {
    for (const s of para.sentences) {
      const text = top.content.slice(s.start, s.end);
      const n = matchText(p.q, text).size;
      if (n > bestCount) [best, bestCount] = [text, n];
    }
  }
  return best;
}

/** threshold: the knowledge base's own (gate-calibration.ts), on the lexical model's scale. */
function judge(p: Prepared, model: ReaderModel, t: Tally, threshold = model.gate.threshold) {
  const started = performance.now();
  const lexical = judgeLexically(p.q, p.ask.chunks, model, threshold);
  if (GATE_MODE !== 'full' && lexical.ranked.length) {
    const evidence = gateEvidence(p.q, p.ask.chunks);
    const named = p.q.total > 0 && evidence.some((e) => e.topical > 0);
    lexical.answerable =
      named && (GATE_MODE === 'rule' ? evidence.some((e) => passesGate(p.q, e)) : gateScore(gateRow(p, model.sentenceWeights), model.gate) >= threshold);
  }
  const semantic = model.semantic ?? null;
  const band = BAND_AT_THRESHOLD ? threshold : model.gate.threshold;
  const judgement =
    semantic && p.gate.length && lexical.ranked.length
      ? { ...lexical, answerable: decideScore(p, model.sentenceWeights, model.gate, semantic, band) >= threshold }
      : lexical;
  if (semantic && p.gate.length && undecided(gateScore(gateRow(p, model.sentenceWeights), model.gate), model.gate, semantic, band)) t.undecided++;
  const answer = composeExtractiveAnswer(p.ask.query, p.ask.terms, p.ask.chunks, p.lexicon, { language: p.language, model, judgement });
  const ms = performance.now() - started;
  t.composeMs.push(ms);
  t.asks++;
  t.totalMs.push(ms + p.ask.retrievalMs);
  const answered = answer.citations.length > 0;
  const { ask } = p;
  if (ask.kind === 'cross') {
    if (p.answerableHere) {
      t.crossAnswerableHere++;
      return;
    }
    t.cross++;
    if (!answered) t.crossRefused++;
    else t.misses.push(`CROSS ANSWERED (${ask.from}) ${ask.query}\n    A: ${answer.answer.slice(0, 200)}`);
    return;
  }
  if (ask.kind === 'unanswerable') {
    t.own++;
    if (!answered) t.ownRefused++;
    return;
  }
  if (ask.kind === 'off-topic') {
    t.offTopic++;
    if (!answered) t.offTopicRefused++;
    return;
  }
  t.answerable++;
  if (answers(naiveSentence(p), ask)) t.naiveFirst++;
  if (p.reachable) t.reachable++;
  if (ask.goldDocument && ask.chunks[0]?.documentId === ask.goldDocument) t.bm25DocumentFirst++;
  if (!answered) {
    t.refusedAnswerable++;
    if (p.reachable) t.misses.push(`REFUSED ${ask.query}`);
    return;
  }
  t.answered++;
  const units = answerUnits(answer.answer);
  const first = units[0] !== undefined && answers(units[0], ask);
  if (first) t.first++;
  if (units.some((u) => answers(u, ask))) t.anywhere++;
  else if (!first)
    t.misses.push(
      `${p.reachable ? 'MISSED' : 'unreachable'} ${ask.query}\n    gold: ${(ask.answers[0] ?? ask.evidence[0] ?? '').slice(0, 120)}\n    A: ${answer.answer.slice(0, 240)}`,
    );
  if (ask.goldDocument) {
    t.withGoldDocument++;
    if (answer.citations[0]?.document_id === ask.goldDocument) t.rightDocumentFirst++;
    const notAnswering = (c: (typeof answer.citations)[number]) => c.document_id !== ask.goldDocument && !answers(c.excerpt, ask);
    if (answer.citations.some(notAnswering)) {
      t.otherDocument++;
      if (answer.citations[0] && notAnswering(answer.citations[0])) t.otherDocumentFirst++;
      t.misses.push(`OTHER DOCUMENT ${ask.query}\n    A: ${answer.answer.slice(0, 400)}`);
    }
  }
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? itemAt(s, Math.min(s.length - 1, Math.floor(q * s.length))) : 0;
};

function table(title: string, tallies: Map<string, Tally>): string[] {
  const names = [...tallies.keys()];
  const row = (label: string, f: (t: Tally) => string) => `| ${label} | ${names.map((n) => f(tallies.get(n)!)).join(' | ')} |`;
  return [
    `| ${title} | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---|').join('')}`,
    row('answerable questions', (t) => String(t.answerable)),
    row('**gold answer in the first statement**', (t) => `**${pct(t.first, t.answerable)}**`),
    row('naive reader: top passage, sentence sharing most words', (t) => pct(t.naiveFirst, t.answerable)),
    row("a statement of the passages read answers (the reader's ceiling)", (t) => pct(t.reachable, t.answerable)),
    row('gold answer anywhere in the answer', (t) => pct(t.anywhere, t.answerable)),
    row('right document cited first (of answered)', (t) => pct(t.rightDocumentFirst, t.withGoldDocument)),
    row('plain BM25: top chunk in the right document (of all)', (t) => pct(t.bm25DocumentFirst, t.answerable)),
    row('answers also citing a document that does not answer', (t) => pct(t.otherDocument, t.withGoldDocument)),
    row('… of which that document is cited first', (t) => pct(t.otherDocumentFirst, t.withGoldDocument)),
    row('answerable questions refused', (t) => pct(t.refusedAnswerable, t.answerable)),
    row("**other domains' questions refused**", (t) => `**${pct(t.crossRefused, t.cross)}** of ${t.cross}`),
    row("other domains' questions a statement read answers with their own gold (not counted above)", (t) => String(t.crossAnswerableHere)),
    row("the set's own unanswerables refused", (t) => (t.own ? `${pct(t.ownRefused, t.own)} of ${t.own}` : 'n/a')),
    row('hand-written off-topic list refused', (t) => `${pct(t.offTopicRefused, t.offTopic)} of ${t.offTopic}`),
    row('asks the sentence encoder decides (inside the band)', (t) => pct(t.undecided, t.asks)),
    row('retrieval + answer, p50 / p95 (ms)', (t) => `${quantile(t.totalMs, 0.5).toFixed(1)} / ${quantile(t.totalMs, 0.95).toFixed(1)}`),
  ];
}

/** --trade-off: the held-out domain's answerable questions refused at the thresholds that refuse 90% and 95% of the others'. */
function tradeOff(held: Prepared[], model: ReaderModel, domain: string) {
  const score = (p: Prepared) => decideScore(p, model.sentenceWeights, model.gate, model.semantic ?? null);
  const pos = held
    .filter((p) => p.ask.kind === 'answerable' && p.gate.length)
    .map(score)
    .sort((a, b) => a - b);
  const neg = held
    .filter((p) => p.ask.kind === 'cross' && !p.answerableHere && p.gate.length)
    .map(score)
    .sort((a, b) => a - b);
  const all = held.filter((p) => p.ask.kind === 'cross' && !p.answerableHere).length;
  for (const share of [0.9, 0.95]) {
    // Refusing below t: the cross questions with no passage are refused anyway.
    const needed = Math.ceil(share * all) - (all - neg.length);
    const t = needed <= 0 ? -Infinity : itemAt(neg, Math.min(neg.length - 1, needed - 1)) + 1e-9;
    console.error(
      `${domain}: refusing ${share * 100}% of other domains' questions refuses ${pct(pos.filter((v) => v < t).length, held.filter((p) => p.ask.kind === 'answerable').length)} of its answerable ones (threshold ${t.toFixed(2)}, fitted ${model.gate.threshold})`,
    );
  }
}

function main() {
  const snapshot = loadDomainSnapshot(option('--snapshot') ?? DEFAULT_DOMAIN_SNAPSHOT);
  const prepared = prepare(snapshot);
  const domains = [...new Set(prepared.map((p) => p.ask.domain))].filter((d) => !option('--domain') || d === option('--domain'));
  const verbose = option('--verbose');
  const tallies = new Map<string, Tally>();
  const shipped = argv.includes('--shipped');
  // --in-sample: one model fitted on every domain, judged on each (what the shipped weights do after --write).
  const fitAll = (): ReaderModel => {
    const sentenceWeights = fitReaderToo ? fitReader(prepared, ISSUE_14_READER_WEIGHTS) : SENTENCE_WEIGHTS;
    const gate = fitGate(prepared, sentenceWeights);
    return { sentenceWeights, gate, semantic: fitSemantic(prepared, sentenceWeights, gate) };
  };
  const everywhere: ReaderModel | null = argv.includes('--in-sample') ? fitAll() : null;
  for (const d of domains) {
    const started = performance.now();
    const model: ReaderModel = shipped
      ? READER_MODEL
      : (everywhere ??
        (() => {
          const train = prepared.filter((p) => p.ask.domain !== d);
          const sentenceWeights = fitReaderToo ? fitReader(train) : SENTENCE_WEIGHTS;
          const gate = fitGate(train, sentenceWeights);
          return { sentenceWeights, gate, semantic: fitSemantic(train, sentenceWeights, gate) };
        })());
    const t = emptyTally();
    if (argv.includes('--kb-calibration')) {
      // Each knowledge base's own threshold, as gate-calibration.ts sets it live: from the calibration questions asked of
      // it (a snapshot taken with --calibration), else from the off-topic list asked of its set.
      const score = (p: Prepared) => decideScore(p, model.sentenceWeights, model.gate, model.semantic ?? null);
      const topic = new Map(loadOffTopicSet().map((q) => [q.id, q.domain]));
      const shippedThreshold = model.gate.threshold;
      for (const set of new Set(prepared.filter((x) => x.ask.domain === d).map((x) => x.ask.set))) {
        const own = prepared.filter((x) => x.ask.set === set && x.ask.domain === d);
        const setScores = own
          .filter((x) => x.ask.kind === 'off-topic')
          .map((x) => ({ domain: topic.get(x.ask.id.split('@')[0] ?? '') ?? 'other', score: score(x) }));
        const thresholds: number[] = [];
        for (const kb of new Set(own.map((x) => x.ask.kb ?? set))) {
          const mine = own.filter((x) => (x.ask.kb ?? set) === kb);
          const asked = mine.filter((x) => x.ask.kind === 'calibration').map((x) => ({ domain: x.ask.from, score: score(x) }));
          const threshold = thresholdFromScores(asked.length ? asked : setScores, shippedThreshold, CALIBRATION) ?? shippedThreshold;
          thresholds.push(threshold);
          for (const p of mine) if (p.ask.kind !== 'calibration') judge(p, model, t, threshold);
        }
        const sorted = thresholds.sort((a, b) => a - b);
        console.error(
          `${set}: gate threshold ${sorted.length > 1 ? `${itemAt(sorted, 0)} … ${itemAt(sorted, Math.floor(sorted.length / 2))} … ${itemAt(sorted, sorted.length - 1)} over ${sorted.length} knowledge bases` : itemAt(sorted, 0)} (shipped ${shippedThreshold})`,
        );
      }
    } else for (const p of prepared.filter((x) => x.ask.domain === d && x.ask.kind !== 'calibration')) judge(p, model, t);
    if (argv.includes('--trade-off'))
      tradeOff(
        prepared.filter((x) => x.ask.domain === d),
        model,
        d,
      );
    tallies.set(d, t);
    console.error(`${d}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (verbose === d) for (const m of t.misses.slice(0, Number(option('--misses') ?? 60))) console.log(m);
  }
  console.log(
    table(shipped ? 'shipped weights' : everywhere ? 'fitted on every domain (in sample)' : 'held-out domain (fitted on the others)', tallies).join('\n'),
  );
  if (argv.includes('--write')) {
    if (GATE_MODE !== 'full') throw new Error('--write fits every model itself: leave out --neutral and --rule');
    const { sentenceWeights, gate, semantic } = everywhere ?? fitAll();
    if (!semantic) throw new Error('--write needs --semantic FILE: the engine ships both gate models');
    const neutral = fitGate(
      prepared.map((p) => ({ ...p, gate: languageNeutral(p.gate) })),
      sentenceWeights,
    );
    const source = `${prepared.filter((p) => p.ask.kind === 'answerable').length} answerable questions and ${prepared.filter((p) => p.ask.kind === 'cross').length} cross-domain ones over ${domains.length} domains (${domains.join(', ')})`;
    const readerFile = path.join(process.cwd(), 'lib', 'engine', 'answer-weights.ts');
    if (fitReaderToo)
      writeFileSync(
        readerFile,
        `/**\n * Weights of SENTENCE_FEATURES (sentence-features.ts), in its order. Written by bench/engine-quality/lodo.ts --write from\n * ${source}; edit by re-running it, not by hand.\n */\nexport const SENTENCE_WEIGHTS: readonly number[] = [\n${SENTENCE_FEATURES.map((f, k) => `  ${Number(itemAt(sentenceWeights, k).toFixed(3))}, // ${f}`).join('\n')}\n];\n`,
      );
    const gateFile = path.join(process.cwd(), 'lib', 'engine', 'gate-weights.ts');
    const weights = (names: readonly string[], w: readonly number[]) => names.map((f, k) => `    ${Number(itemAt(w, k).toFixed(3))}, // ${f}`).join('\n');
    const modelSource = (m: GateModel, names: readonly string[], indent = '') =>
      `{\n${indent}  bias: ${Number(m.bias.toFixed(3))},\n${indent}  weights: [\n${weights(names, m.weights).replace(/^/gm, indent)}\n${indent}  ],\n${indent}  threshold: ${m.threshold},\n${indent}}`;
    writeFileSync(
      gateFile,
      `import type { GateModel, SemanticGate } from './types';\n\n/**\n * Weights of GATE_FEATURES (relevance-gate.ts), in its order, and of the second model that decides near the threshold with\n * the sentence encoder's similarity. Written by bench/engine-quality/lodo.ts --write --semantic FILE from\n * ${source}; edit by re-running it, not by hand.\n */\nexport const GATE_MODEL: GateModel = ${modelSource(gate, GATE_FEATURES)};\n\nexport const SEMANTIC_GATE: SemanticGate = {\n  below: ${semantic.below},\n  above: ${semantic.above},\n  model: ${modelSource(semantic.model, [...GATE_FEATURES, 'statement similarity'], '  ')},\n};\n\n/**\n * The gate of a question in Spanish, German or French: GATE_FEATURES without the general-English ones (relevance-gate.ts\n * languageNeutral), fitted on the same questions (lodo.ts --neutral measures it held out).\n */\nexport const LANGUAGE_NEUTRAL_GATE: GateModel = ${modelSource(neutral, GATE_FEATURES)};\n`,
    );
    console.log(`wrote ${fitReaderToo ? `${readerFile} and ` : ''}${gateFile}`);
  }
}

main();
