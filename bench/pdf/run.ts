/**
 * The PDF reader (lib/engine/parsers.ts `parsePdf`) on two pdf.js versions in one run: the project's own and another
 * installed in a folder (`--other <dir>`, a folder holding node_modules/pdfjs-dist). Each version parses the same
 * PDFs in its own process (alternating, `--rounds` times): every seeded `*.pdf.txt` rendered as the seed renders it,
 * and a few made here (long pages, typography, many pages). Prints whether both read every PDF identically (title,
 * pages, blocks, page count) and the median parse time per PDF of each.
 *
 * Run: `npm install --prefix /tmp/pdfjs-other --no-save --ignore-scripts pdfjs-dist@<version>`, then
 * `node_modules/.bin/node --import tsx bench/pdf/run.ts --other /tmp/pdfjs-other/node_modules [--rounds 3]`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = path.resolve(import.meta.dirname, '..', '..');
const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};

interface ChildResult {
  version: string;
  parsed: Record<string, unknown>;
  msPerPdf: Record<string, number>;
  /** CPU time (user + system) of this process per PDF: less sensitive than wall time to other jobs on a shared machine. */
  cpuMsPerPdf: Record<string, number>;
}

function sourcesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourcesOf(full);
    return entry.endsWith('.pdf.txt') ? [full] : [];
  });
}

async function runChild(): Promise<void> {
  const { parsePdf } = await import('@/lib/engine/parsers');
  const { parsePdfSource, renderPdfFromSource } = await import('@/lib/engine/pdf-render');
  const made: Record<string, string> = {
    'long-page': `# Long\n${'A sentence that wraps across the page width several times over. '.repeat(400)}`,
    typography: '# Typography\nIf x ≥ 2 then √x is real – and “quotes” stay; naïve café, Ærø, ﬁ ligature.\n---page---\n## Two\nSecond page.',
    'many-pages': `# Many\n${Array.from({ length: 120 }, (_, i) => `## Part ${i + 1}\nParagraph ${i + 1} of the long document.`).join('\n---page---\n')}`,
  };
  const pdfs: [string, Uint8Array][] = [];
  for (const file of sourcesOf(path.join(root, 'db/seed/hosted'))) {
    pdfs.push([path.relative(root, file), await renderPdfFromSource(parsePdfSource(readFileSync(file, 'utf8')))]);
  }
  for (const [name, text] of Object.entries(made)) pdfs.push([name, await renderPdfFromSource(parsePdfSource(text))]);
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as { version: string };
  const parsed: Record<string, unknown> = {};
  const msPerPdf: Record<string, number> = {};
  const cpuMsPerPdf: Record<string, number> = {};
  // One warm-up pass (module load, font data), then the timed passes.
  for (const [name, bytes] of pdfs) parsed[name] = await parsePdf(bytes, `${name}.pdf`);
  const passes = 5;
  for (const [name, bytes] of pdfs) {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < passes; i++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await parsePdf(bytes, `${name}.pdf`);
      const used = process.cpuUsage(cpuStarted);
      times.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    msPerPdf[name] = times.sort((a, b) => a - b)[Math.floor(passes / 2)]!;
    cpuMsPerPdf[name] = cpu.sort((a, b) => a - b)[Math.floor(passes / 2)]!;
  }
  process.stdout.write(JSON.stringify({ version: pdfjs.version, parsed, msPerPdf, cpuMsPerPdf } satisfies ChildResult));
}

function child(otherDir?: string): ChildResult {
  const hook = otherDir ? ['--import', path.join(root, 'bench/pdf/pdfjs-from.mjs')] : [];
  const out = execFileSync(process.execPath, [...hook, '--import', 'tsx', path.join(root, 'bench/pdf/run.ts'), '--child'], {
    cwd: root,
    env: { ...process.env, PDFJS_DIR: otherDir ?? '', LOG_LEVEL: 'silent' },
    maxBuffer: 512 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as ChildResult;
}

if (process.argv.includes('--child')) {
  await runChild();
} else {
  const other = arg('other');
  if (!other) throw new Error('--other <dir holding node_modules/pdfjs-dist> is required');
  const rounds = Number(arg('rounds') ?? 3);
  const own: ChildResult[] = [];
  const theirs: ChildResult[] = [];
  for (let r = 0; r < rounds; r++) {
    own.push(child());
    theirs.push(child(path.resolve(other)));
  }
  const names = Object.keys(own[0]!.parsed);
  const differing = names.filter((name) => !isDeepStrictEqual(own[0]!.parsed[name], theirs[0]!.parsed[name]));
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const total = (results: ChildResult[], key: 'msPerPdf' | 'cpuMsPerPdf' = 'msPerPdf') =>
    median(results.map((r) => Object.values(r[key]).reduce((a, b) => a + b, 0)));
  const ownMs = total(own);
  const otherMs = total(theirs);
  const ownCpu = total(own, 'cpuMsPerPdf');
  const otherCpu = total(theirs, 'cpuMsPerPdf');
  console.log(`PDFs: ${names.length}; read identically: ${names.length - differing.length}${differing.length ? ` (differ: ${differing.join(', ')})` : ''}`);
  console.log(`pdf.js ${own[0]!.version} (project): ${ownMs.toFixed(1)} ms wall, ${ownCpu.toFixed(1)} ms CPU for all, median of ${rounds} runs`);
  console.log(
    `pdf.js ${theirs[0]!.version} (${other}): ${otherMs.toFixed(1)} ms wall, ${otherCpu.toFixed(1)} ms CPU; ratio ${(otherMs / ownMs).toFixed(2)}× wall, ${(otherCpu / ownCpu).toFixed(2)}× CPU`,
  );
  for (const name of ['many-pages', 'long-page']) {
    console.log(`  ${name}: ${median(own.map((r) => r.msPerPdf[name]!)).toFixed(1)} ms vs ${median(theirs.map((r) => r.msPerPdf[name]!)).toFixed(1)} ms`);
  }
  process.exit(0);
}
