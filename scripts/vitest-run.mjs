#!/usr/bin/env node
// `node scripts/vitest-run.mjs [vitest args]`: `vitest run`, run once more when, and only when, a test process was
// killed by V8's WebAssembly JIT-page check ("Check failed: jit_page…"). That abort is a V8 bug that PGlite's
// WebAssembly instances trigger now and then in a process that creates many of them (nodejs/node#64500,
// electric-sql/pglite#1053); it takes a worker down mid-file whatever the tests do. Any other failure, a failed test
// or a worker that died of something else, fails at once, as plain `vitest run` would.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const V8_JIT_PAGE_ABORT = /Check failed: jit_page/;
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);

/** Runs Vitest with its output passed through, and says whether the V8 abort was printed. */
function run() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args], { stdio: ['inherit', 'pipe', 'pipe'] });
    let aborted = false;
    // The message may arrive split over two chunks: the end of the previous chunk is searched with the next.
    const watch = (stream, out) => {
      let tail = '';
      stream.on('data', (chunk) => {
        out.write(chunk);
        const text = tail + chunk.toString();
        if (V8_JIT_PAGE_ABORT.test(text)) aborted = true;
        tail = text.slice(-64);
      });
    };
    watch(child.stdout, process.stdout);
    watch(child.stderr, process.stderr);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), aborted }));
  });
}

const first = await run();
if (first.code === 0 || !first.aborted) process.exit(first.code);
console.error("\nA test process was killed by V8's WebAssembly JIT-page check (nodejs/node#64500), not by a test: running the suite once more.\n");
const second = await run();
process.exit(second.code);
