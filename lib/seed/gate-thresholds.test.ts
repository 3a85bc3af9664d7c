import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATE_VERSION } from '@/lib/engine';
import { loadSeedGateThresholds } from './gate-thresholds';
import { HOSTED_SOURCE_DIR } from './sample-data';

describe('the seeded knowledge bases’ gate thresholds (db/seed/gate-thresholds.json)', () => {
  it('were measured with the shipped weights, calibration questions and bounds', () => {
    const seeded = loadSeedGateThresholds();
    expect(seeded, 'db/seed/gate-thresholds.json is missing: run npx tsx scripts/seed-gate-thresholds.ts').not.toBeNull();
    expect(seeded!.version, 'the gate changed since the seeded thresholds were measured: run npx tsx scripts/seed-gate-thresholds.ts').toBe(GATE_VERSION);
  });

  it('name every knowledge base with seeded documents', () => {
    const thresholds = loadSeedGateThresholds()?.thresholds ?? {};
    for (const slug of readdirSync(HOSTED_SOURCE_DIR)) expect(Object.keys(thresholds)).toContain(slug);
  });
});
