#!/usr/bin/env tsx
/**
 * Measures the seeded knowledge bases' own gate thresholds and writes db/seed/gate-thresholds.json, which the seed
 * applies (lib/seed/gate-thresholds.ts). Run it again when the gate's weights, the calibration questions or their bounds
 * change; lib/seed/gate-thresholds.test.ts fails until then.
 *
 *   npx tsx scripts/seed-gate-thresholds.ts        # about a minute and a half
 */
import { SEED_GATE_THRESHOLDS_FILE, writeSeedGateThresholds } from '@/lib/seed';

const started = performance.now();
const file = await writeSeedGateThresholds((line) => console.log(line));
console.log(
  `wrote ${SEED_GATE_THRESHOLDS_FILE}: ${Object.keys(file.thresholds).length} knowledge bases in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
