/**
 * Diagnostic: where the server's main thread spends its time per request in each row of run.ts.
 *
 *   BENCH_CPU_PROF_DIR=/tmp/gw-prof npx tsx bench/gateway/run.ts      # writes a .cpuprofile and windows.json
 *   npx tsx bench/gateway/profile-rows.ts /tmp/gw-prof [function|file] [rowA] [rowB]
 *
 * Cuts the profile to each row's measured seconds (windows.json, same monotonic clock; a row measured in several
 * slices has several windows), resolves minified frames of
 * the build through its source maps (Turbopack writes index maps with sections), and prints self time per request
 * by function (or by file) for row A, row B and their difference, largest difference first. Rows default to (a)
 * and (b); pass a prefix such as "(a)".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { itemAt } from '@/lib/platform/arrays';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Window {
  name: string;
  startUs: number;
  endUs: number;
  requests: number;
}

const [dir = '/tmp/gw-prof', by = 'function', rowA = '(a)', rowB = '(b)'] = process.argv.slice(2);
const profileFile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!profileFile) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(path.join(dir, profileFile), 'utf8')) as Profile;
const windows = JSON.parse(readFileSync(path.join(dir, 'windows.json'), 'utf8')) as Window[];
/** A row: all its measured windows. */
interface Row {
  name: string;
  windows: Window[];
  requests: number;
}
function pick(prefix: string): Row {
  const mine = windows.filter((w) => w.name.startsWith(prefix));
  const [first] = mine;
  if (!first) fail(`no row ${prefix} in windows.json`);
  return { name: first.name, windows: mine, requests: mine.reduce((sum, w) => sum + w.requests, 0) };
}
function fail(message: string): never {
  throw new Error(message);
}

// ── Source maps (index maps: one map per section, each starting at an offset of the generated file) ──────────────
type Sections = { line: number; column: number; map: SourceMap }[];
const maps = new Map<string, Sections | null>();
function sectionsOf(url: string): Sections | null {
  if (!maps.has(url)) {
    const file = `${decodeURIComponent(url.replace(/^file:\/\//, ''))}.map`;
    let sections: Sections | null = null;
    if (existsSync(file)) {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload & {
        sections?: { offset: { line: number; column: number }; map: SourceMapPayload }[];
      };
      sections = raw.sections
        ? raw.sections.map((s) => ({ line: s.offset.line, column: s.offset.column, map: new SourceMap(s.map) }))
        : [{ line: 0, column: 0, map: new SourceMap(raw) }];
    }
    maps.set(url, sections);
  }
  return maps.get(url)!;
}

function label(frame: CallFrame): { fn: string; file: string } {
  const sections = frame.url.includes('/server/chunks/') ? sectionsOf(frame.url) : null;
  if (sections) {
    const section = sections.filter((s) => s.line < frame.lineNumber || (s.line === frame.lineNumber && s.column <= frame.columnNumber)).at(-1);
    if (section) {
      const line = frame.lineNumber - section.line;
      const column = line === 0 ? frame.columnNumber - section.column : frame.columnNumber;
      const entry = section.map.findEntry(line, column) as { originalSource?: string; originalLine?: number; name?: string };
      if (entry.originalSource) {
        const source = entry.originalSource.replace(/^.*?\/(node_modules\/|lib\/|app\/|db\/)/, '$1').replace(/^turbopack:\/\/\/\[project\]\//, '');
        const file = source.replace(/^(node_modules\/(@[^/]+\/)?[^/]+)\/.*$/, '$1');
        return { fn: `${entry.name ?? frame.functionName ?? '(anonymous)'} ${source}:${(entry.originalLine ?? 0) + 1}`, file };
      }
    }
  }
  const file = frame.url.startsWith('node:')
    ? frame.url
    : !frame.url
      ? `(${frame.functionName})`
      : frame.url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1');
  return { fn: `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|\.next[^/]*)\//, '$1/')}:${frame.lineNumber + 1}`, file };
}

// ── Self time per key inside a window, in µs per request ─────────────────────────────────────────────────────────
const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
function selfPerRequest(row: Row): { total: number; byKey: Map<string, number> } {
  const byKey = new Map<string, number>();
  let total = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = itemAt(profile.timeDeltas, i);
    t += delta;
    if (!row.windows.some((w) => t >= w.startUs && t <= w.endUs)) return;
    const frame = nodeById.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const key = label(frame)[by === 'file' ? 'file' : 'fn'];
    byKey.set(key, (byKey.get(key) ?? 0) + delta);
    total += delta;
  });
  for (const [k, v] of byKey) byKey.set(k, v / row.requests);
  return { total: total / row.requests, byKey };
}

const a = pick(rowA);
const b = pick(rowB);
const sa = selfPerRequest(a);
const sb = selfPerRequest(b);
console.log(
  `main thread per request: ${a.name} ${sa.total.toFixed(0)} µs, ${b.name} ${sb.total.toFixed(0)} µs, difference ${(sa.total - sb.total).toFixed(0)} µs`,
);
console.log('   diff       A       B  (µs per request, self time)');
const keys = new Set([...sa.byKey.keys(), ...sb.byKey.keys()]);
const rows = [...keys].map((k) => ({ k, x: sa.byKey.get(k) ?? 0, y: sb.byKey.get(k) ?? 0 })).sort((p, q) => q.x - q.y - (p.x - p.y));
for (const { k, x, y } of rows.slice(0, Number(process.env.TOP ?? 60))) {
  console.log(`${(x - y).toFixed(1).padStart(7)} ${x.toFixed(1).padStart(7)} ${y.toFixed(1).padStart(7)}  ${k}`);
}
