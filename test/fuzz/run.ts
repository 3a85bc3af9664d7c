import { generateCase, type CaseKind, type FuzzCase } from './cases';
import { checkAnswer, isParserRefusal } from './check';
import type { FuzzTargets } from './discover';
import { send, sendRaw } from './wire';

/**
 * Runs cases `0 … count-1` of one seed against a server, a few at a time, and checks every answer (check.ts). After
 * the last case (and whenever answers stop coming) the server must still answer GET /api/health with 200.
 */

export interface FuzzOptions {
  baseUrl: string;
  targets: FuzzTargets;
  seed: number;
  count: number;
  /** Only these case indexes (a replay). */
  only?: number[];
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface FuzzFailure {
  index: number;
  kind: CaseKind;
  note: string;
  problem: string;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  ms: number;
  byKind: Record<string, number>;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  alive: boolean;
}

async function healthy(base: URL): Promise<boolean> {
  const result = await send(base, { method: 'GET', path: '/api/health?probe=live', headers: [] }, 10_000);
  return result.ok && result.response.status === 200;
}

async function runOne(base: URL, c: FuzzCase): Promise<{ status: string; problem: string | null }> {
  if (c.raw) {
    const answer = await sendRaw(base, c.raw);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer.text)?.[1] ?? 'closed';
    if (status === '500') return { status, problem: `500 to raw bytes: ${answer.text.slice(0, 160)}` };
    return { status, problem: null };
  }
  const result = await send(base, { ...c.request!, ownConnection: c.ownConnection }, c.mayHang ? 2_000 : 20_000);
  const status = !result.ok ? 'error' : isParserRefusal(result.response) ? `${result.response.status}(parser)` : String(result.response.status);
  return { status, problem: checkAnswer(c, result) };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(options.baseUrl);
  const indexes = options.only ?? Array.from({ length: options.count }, (_, i) => i);
  const report: FuzzReport = { seed: options.seed, cases: indexes.length, ms: 0, byKind: {}, byStatus: {}, failures: [], alive: false };
  const started = Date.now();
  let next = 0;
  let done = 0;
  let silentInARow = 0;
  let dead = false;

  const worker = async () => {
    while (!dead && next < indexes.length) {
      const index = indexes[next++]!;
      const c = generateCase(options.targets, options.baseUrl, options.seed, index);
      const { status, problem } = await runOne(base, c);
      report.byKind[c.kind] = (report.byKind[c.kind] ?? 0) + 1;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (problem) report.failures.push({ index, kind: c.kind, note: c.note, problem });
      silentInARow = status === 'error' ? silentInARow + 1 : 0;
      if (silentInARow >= 10 && !(await healthy(base))) dead = true;
      options.onProgress?.(++done, indexes.length);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker));
  report.alive = !dead && (await healthy(base));
  report.ms = Date.now() - started;
  return report;
}

export function describeReport(report: FuzzReport, replay: (only: number[]) => string): string {
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  const lines = [
    `fuzz seed ${report.seed}: ${report.cases} cases in ${(report.ms / 1000).toFixed(1)} s, ${report.failures.length} failed, server ${report.alive ? 'alive' : 'DEAD'}`,
    `  by kind: ${Object.entries(report.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
    `  answers: ${statuses}`,
  ];
  const classes = new Map<string, number>();
  for (const failure of report.failures) {
    const key = `${failure.kind}: ${failure.problem
      .replace(/req_[0-9A-Za-z]+/g, 'req_…')
      .replace(/\d{6,}/g, '…')
      .slice(0, 90)}`;
    classes.set(key, (classes.get(key) ?? 0) + 1);
  }
  if (classes.size) lines.push('  failures by class:', ...[...classes].sort((a, b) => b[1] - a[1]).map(([key, n]) => `    ${n}× ${key.replace(/\s+/g, ' ')}`));
  for (const failure of report.failures.slice(0, 30)) lines.push(`  #${failure.index} ${failure.kind}: ${failure.problem}\n      ${failure.note}`);
  if (report.failures.length > 30) lines.push(`  … and ${report.failures.length - 30} more`);
  if (report.failures.length) lines.push(`  replay: ${replay(report.failures.map((f) => f.index).slice(0, 50))}`);
  return lines.join('\n');
}
