#!/usr/bin/env node
// Checks the engine-quality evaluation questions against the seeded hosted documents:
// every file parses, every entry has the agreed shape, the gold document exists, the gold page
// exists for PDF sources, and the gold_fact occurs verbatim (on the gold page for PDFs).
// Also prints per-KB content statistics (documents, characters, pages).
// Usage: node bench/engine-quality/check-questions.mjs [kb-slug ...]
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hostedDir = join(root, 'db', 'seed', 'hosted');
const questionsDir = join(root, 'bench', 'engine-quality', 'questions');

function splitPdfPages(text) {
  return text.split(/\r?\n---page---\r?\n/);
}

const only = process.argv.slice(2);
let failures = 0;
const fail = (msg) => {
  failures += 1;
  console.error(`FAIL ${msg}`);
};

const kbs = existsSync(hostedDir)
  ? readdirSync(hostedDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const selected = only.length ? only : kbs;

for (const kb of selected) {
  const dir = join(hostedDir, kb);
  if (!existsSync(dir)) {
    fail(`${kb}: no folder ${dir}`);
    continue;
  }
  const files = readdirSync(dir).filter((f) => f !== 'sample-questions.json');
  let chars = 0;
  let pages = 0;
  let pdfPages = 0;
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    chars += text.length;
    if (f.endsWith('.pdf.txt')) {
      const p = splitPdfPages(text);
      pdfPages += p.length;
      pages += p.length;
      if (!text.startsWith('# ')) fail(`${kb}/${f}: PDF source must start with "# Title"`);
      // Standard PDF fonts only draw WinAnsi; keep PDF sources to printable ASCII.
      const bad = text.match(/[^\x09\x0a\x0d\x20-\x7e]/g);
      if (bad) fail(`${kb}/${f}: non-ASCII characters ${JSON.stringify([...new Set(bad)].join(''))}`);
      p.forEach((page, i) => {
        if (page.length < 1500 || page.length > 3000) console.warn(`warn ${kb}/${f} page ${i + 1}: ${page.length} chars`);
      });
    } else {
      pages += text.length / 2300;
    }
  }
  const sq = join(dir, 'sample-questions.json');
  if (existsSync(sq)) {
    try {
      const s = JSON.parse(readFileSync(sq, 'utf8'));
      if (!Array.isArray(s) || s.length < 3 || s.length > 4 || s.some((q) => typeof q !== 'string')) fail(`${kb}: sample-questions.json must be 3-4 strings`);
    } catch (e) {
      fail(`${kb}: sample-questions.json does not parse: ${e.message}`);
    }
  }
  // Without sample-questions.json the page lists the catalogue entry's own questions (db/seed/catalog).

  const qf = join(questionsDir, `${kb}.json`);
  let qs = [];
  if (!existsSync(qf)) fail(`${kb}: ${qf} missing`);
  else {
    try {
      qs = JSON.parse(readFileSync(qf, 'utf8'));
    } catch (e) {
      fail(`${kb}: questions do not parse: ${e.message}`);
    }
  }
  const ids = new Set();
  for (const q of qs) {
    const where = `${kb} ${q.id}`;
    const keys = ['id', 'kb', 'question', 'gold_document', 'gold_page', 'gold_fact'];
    for (const k of keys) if (!(k in q)) fail(`${where}: missing ${k}`);
    if (ids.has(q.id)) fail(`${where}: duplicate id`);
    ids.add(q.id);
    if (!new RegExp(`^${kb}-\\d{2,}$`).test(q.id)) fail(`${where}: id must be ${kb}-NN`);
    if (q.kb !== kb) fail(`${where}: kb is ${q.kb}`);
    const words = String(q.gold_fact).trim().split(/\s+/).length;
    if (words < 2 || words > 8) fail(`${where}: gold_fact has ${words} words`);
    // An answer will not reproduce markup, so a fact must be plain text.
    if (/\*\*|`|<\/?[a-z]/i.test(String(q.gold_fact))) fail(`${where}: gold_fact contains markup`);
    const docPath = join(dir, q.gold_document);
    if (!existsSync(docPath)) {
      fail(`${where}: gold_document ${q.gold_document} missing`);
      continue;
    }
    const text = readFileSync(docPath, 'utf8');
    if (q.gold_document.endsWith('.pdf.txt')) {
      const p = splitPdfPages(text);
      if (!Number.isInteger(q.gold_page) || q.gold_page < 1 || q.gold_page > p.length) {
        fail(`${where}: gold_page ${q.gold_page} out of 1..${p.length}`);
        continue;
      }
      if (!p[q.gold_page - 1].includes(q.gold_fact)) fail(`${where}: fact "${q.gold_fact}" not on page ${q.gold_page}`);
    } else {
      if (q.gold_page !== null) fail(`${where}: gold_page must be null for ${q.gold_document}`);
      if (!text.includes(q.gold_fact)) fail(`${where}: fact "${q.gold_fact}" not in ${q.gold_document}`);
    }
  }
  console.log(`${kb}: ${files.length} documents, ${chars} characters, ~${pages.toFixed(1)} pages (${pdfPages} PDF pages), ${qs.length} questions`);
}
if (failures) {
  console.error(`${failures} problem(s)`);
  process.exit(1);
}
console.log('all checks passed');
