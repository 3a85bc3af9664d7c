import { createHash } from 'node:crypto';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { GATE_MODEL, SEMANTIC_GATE } from './gate-weights';

/**
 * Names the weights a knowledge base's calibrated threshold was measured with (the reader's score is a gate feature):
 * new weights make every stored threshold stale, and gate-calibration.ts measures them again.
 */
export const GATE_VERSION = createHash('sha256')
  .update(JSON.stringify([GATE_MODEL, SEMANTIC_GATE, SENTENCE_WEIGHTS]))
  .digest('base64url')
  .slice(0, 12);
