/**
 * Fits the wording model of lib/engine/finding-wording.ts: does a sentence of a study report a finding? Training
 * sentences come from PubMedQA's TUNING abstracts only (pubmedqa.ts: every fifth), labelled by their section: results
 * and the conclusion are findings; background, aims and methods are not. Logistic regression by stochastic gradient
 * descent in file order (deterministic), over features seen in at least MIN_SENTENCES training sentences, so that
 * the model learns how findings are worded ("was significantly", "did not differ", "we conclude") rather than which
 * topics the 200 abstracts happen to cover. Held-out abstracts only measure it.
 *
 *   npx tsx bench/engine-quality/train-finding-wording.ts path/to/ori_pqal.json [--write]
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { wordingFeatures } from '@/lib/engine/finding-wording';
import { splitSentences } from '@/lib/engine/text';
import { isPubMedQaTuning, loadPubMedQa, type PubMedQaItem } from './pubmedqa';

const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: train-finding-wording.ts path/to/ori_pqal.json [--write]');
  process.exit(1);
}
/**
 * Rarer features name the 200 abstracts' topics ("mitochondrial", "collagen"), not how findings are worded. With 10,
 * the model has 1,103 features instead of 496, and the plain tuning abstracts gained 5 of 200 first statements; with
 * 40, they lost 4. 20 keeps the model to wording that should carry over to other fields.
 */
const MIN_SENTENCES = 20;
const EPOCHS = 60;
const RATE = 0.1;
const L2 = 0.01;

interface Example {
  features: string[];
  finding: boolean;
}

function examples(item: PubMedQaItem): Example[] {
  const out: Example[] = [];
  const add = (text: string, finding: boolean) => {
    for (const s of splitSentences(text)) out.push({ features: wordingFeatures(text.slice(s.start, s.end)), finding });
  };
  item.CONTEXTS.forEach((text, i) => add(text, /RESULT|FINDING/i.test(item.LABELS[i] ?? '')));
  add(item.LONG_ANSWER, true);
  return out;
}

const items = loadPubMedQa(file);
const train = items.filter(isPubMedQaTuning).flatMap(examples);
const heldOut = items.filter((i) => !isPubMedQaTuning(i)).flatMap(examples);

const seen = new Map<string, number>();
for (const e of train) for (const f of e.features) seen.set(f, (seen.get(f) ?? 0) + 1);
const weights = new Map([...seen].filter(([, n]) => n >= MIN_SENTENCES).map(([f]) => [f, 0]));
let bias = 0;
const logit = (e: Example) => e.features.reduce((z, f) => z + (weights.get(f) ?? 0), bias);

for (let epoch = 0; epoch < EPOCHS; epoch++) {
  for (const e of train) {
    const error = 1 / (1 + Math.exp(-logit(e))) - (e.finding ? 1 : 0);
    for (const f of e.features) {
      const w = weights.get(f);
      if (w !== undefined) weights.set(f, w - RATE * (error + L2 * w));
    }
    bias -= RATE * error;
  }
}

const accuracy = (set: Example[]) => set.filter((e) => logit(e) > 0 === e.finding).length / set.length;
const share = (set: Example[]) => set.filter((e) => e.finding).length / set.length;
console.log(`${weights.size} features; training sentences ${train.length}, right ${(100 * accuracy(train)).toFixed(1)}%`);
console.log(
  `held-out sentences ${heldOut.length}: right ${(100 * accuracy(heldOut)).toFixed(1)}% (findings are ${(100 * share(heldOut)).toFixed(1)}% of them)`,
);
const ranked = [...weights].sort((a, b) => b[1] - a[1]);
console.log(
  `most finding-like: ${ranked
    .slice(0, 15)
    .map(([f, w]) => `${f} ${w.toFixed(2)}`)
    .join(', ')}`,
);
console.log(
  `least: ${ranked
    .slice(-15)
    .map(([f, w]) => `${f} ${w.toFixed(2)}`)
    .join(', ')}`,
);

if (process.argv.includes('--write')) {
  const target = path.join(process.cwd(), 'lib', 'engine', 'finding-wording-weights.ts');
  const entries = [...weights].filter(([, w]) => Math.abs(w) >= 0.005).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  writeFileSync(
    target,
    `/**\n * Weights of lib/engine/finding-wording.ts, written by bench/engine-quality/train-finding-wording.ts from the labelled\n * sections of PubMedQA's ${items.filter(isPubMedQaTuning).length} tuning abstracts (MIT licence; ${train.length} sentences); re-run it, do not edit by hand.\n */\nexport const FINDING_WORDING_BIAS = ${bias.toFixed(3)};\nexport const FINDING_WORDING_WEIGHTS: Readonly<Record<string, number>> = {\n${entries.map(([f, w]) => `  ${JSON.stringify(f)}: ${Number(w.toFixed(3))},`).join('\n')}\n};\n`,
  );
  console.log(`wrote ${target} (${entries.length} weights)`);
}
