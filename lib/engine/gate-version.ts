import { createHash } from 'node:crypto';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { CALIBRATION_BOUNDS } from './calibration-bounds';
import { calibrationQuestionsIn } from './calibration-questions';
import { SEARCH_CONFIGS, type SearchLanguage } from './language';
import { GATE_MODEL, LANGUAGE_NEUTRAL_GATE, SEMANTIC_GATE } from './gate-weights';

/**
 * How a question and its passages are read before the gate scores them. Raise it when term lookup changes what a
 * question matches, or the reader changes which lines are statements (2: irregular past forms and plurals looked up as
 * their base, word-forms.ts; 3: lines that state nothing are never statements, sentence-ranker.ts; 4: misspellings
 * looked up past the most frequent words of their first letters, spelling.ts, bare contractions dropped,
 * query-parse.ts, and no adjacent pair across the start of a hyphenated compound, question.ts; 5: a statement's
 * coverage counts the question words of its document title, sentence-ranker.ts; 6: ordinals looked up in digits and
 * words, query-expansion.ts; 7: more everyday paraphrases, and words the stemmer merges kept apart, question.ts; 8:
 * British and American spellings looked up as each other, regional-spellings.ts, contractions with an apostrophe read
 * as their function words, query-parse.ts, modal verbs as framing words, question.ts, "biggest" as "largest",
 * paraphrases.ts; 9: everyday paraphrases looked up by retrieval too, term-lookup.ts, a word and its paraphrases
 * counted once, lexical-search.ts; 10: a study's verdict features only in a study's sections, a request worded as a
 * question ("Could you outline…") no yes/no question, a document describing itself an aim, "pressure" a quantity,
 * sentence-ranker.ts and answer-type.ts; 11: a request's own wording and phrasal prepositions not searched for,
 * query-parse.ts; 12: the verb closing a question of how long, how much or how often, "worth it" and "actually" as
 * framing, question.ts; 13: a Roman numeral after a name or a numbered noun looked up as its number,
 * query-expansion.ts; 14: "who played…" asks for a performer's credit and "where…" for a place, and "five (5) years"
 * is a duration, answer-type.ts), so that stored thresholds are measured again with the new reading.
 */
const READING = 14;

/**
 * Names what a knowledge base's calibrated threshold was measured with: the weights (the reader's score is a gate
 * feature), the calibration questions in every language, the bounds and how questions are read. A change to any
 * makes every stored threshold stale, and gate-calibration.ts measures them again.
 */
export const GATE_VERSION = createHash('sha256')
  .update(
    JSON.stringify([
      GATE_MODEL,
      SEMANTIC_GATE,
      LANGUAGE_NEUTRAL_GATE,
      SENTENCE_WEIGHTS,
      (Object.keys(SEARCH_CONFIGS) as SearchLanguage[]).map(calibrationQuestionsIn),
      CALIBRATION_BOUNDS,
      READING,
    ]),
  )
  .digest('base64url')
  .slice(0, 12);
