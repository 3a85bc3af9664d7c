import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi';

/**
 * The OpenAPI document passes `redocly lint` (Redocly CLI, recommended ruleset, redocly.yaml) with no error, and
 * every warning it keeps is one of the explained kinds below, checked against the operation it points at, so that a
 * new warning of any other kind (or one of these kinds somewhere it is not explained) fails here.
 *
 * The document is linted as `npm start` serves it on a laptop (base URL http://localhost:3000), by the real CLI in a
 * child process, with telemetry and update checks off (nothing leaves the machine).
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const run = promisify(execFile);

type Json = Record<string, unknown>;

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const tempDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-openapi-lint-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

async function lint(document: Json): Promise<{ problems: Problem[]; totals: { errors: number; warnings: number } }> {
  const file = path.join(tempDir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  // `redocly lint` exits 1 when it finds an error; its JSON report is on stdout either way.
  const { stdout } = await run(process.execPath, [CLI, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout);
}

/** '#/paths/~1kb~1{kb_id}~1query/get/responses' → the node it points at. */
function at(document: Json, pointer: string): Json {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, key) => node?.[key] as Json, document);
}

/**
 * The warnings we keep, each with the operations it is allowed on. Returns why the warning is fine, or null.
 * - operation-4xx-response on an OPTIONS operation whose only response is 204: a CORS preflight of the public
 *   catalogue always succeeds; and on GET /api/health, /api/health/live and /api/health/ready: a probe has no input
 *   that could be wrong (`probe` is only compared with `live`).
 * - no-unused-components on MethodNotAllowedError: the 405 body, which every path shares and the document states once
 *   (in info.description) instead of as an operation per method a path does not serve.
 * - no-server-example.com on `servers[0]` when it is localhost: the document names the base URL of the server that
 *   serves it (lib/platform/base-url.ts), which on a laptop is http://localhost:3000; a deployment sets APP_URL.
 */
function explanation(document: Json, problem: Problem): string | null {
  const pointer = problem.location[0]?.pointer ?? '';
  const responses = at(document, pointer);
  const statuses = responses && typeof responses === 'object' ? Object.keys(responses) : [];
  switch (problem.ruleId) {
    case 'operation-4xx-response':
      if (/^#\/paths\/~1api~1health(~1live|~1ready)?\/get\/responses$/.test(pointer)) return 'a health probe';
      return /\/options\/responses$/.test(pointer) && statuses.length === 1 && statuses[0] === '204' ? 'a CORS preflight' : null;
    case 'no-unused-components':
      return pointer === '#/components/schemas/MethodNotAllowedError' && String((document.info as Json).description).includes('MethodNotAllowedError')
        ? 'the 405 body, stated once'
        : null;
    case 'no-server-example.com':
      return pointer === '#/servers/0/url' && /^http:\/\/localhost[:/]/.test(String(at(document, pointer))) ? 'the local base URL' : null;
    default:
      return null;
  }
}

describe('redocly lint (recommended ruleset) on the OpenAPI document', () => {
  const document = buildOpenApiDocument('http://localhost:3000');

  it('finds no error, and only explained warnings', async () => {
    const report = await lint(document);
    const show = (p: Problem) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`;
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map(show), 'redocly lint errors').toEqual([]);
    const unexplained = report.problems.filter((p) => p.severity !== 'error' && explanation(document, p) === null);
    expect(unexplained.map(show), 'warnings nobody has explained (fix them, or explain them in this file)').toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('really lints: an operation without a path parameter it needs is an error', async () => {
    const broken = structuredClone(document) as { paths: Record<string, Json> };
    broken.paths['/kb/{kb_id}/query'] = { ...broken.paths['/kb/{kb_id}/query'], parameters: [] };
    const report = await lint(broken);
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toContain('path-parameters-defined');
  });
});
