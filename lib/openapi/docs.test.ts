import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi';
import { itemAt } from '@/lib/platform/arrays';

/**
 * docs/api.md and the OpenAPI document (lib/openapi/) must tell the same story where both speak:
 * - every error code the OpenAPI document declares for an endpoint is in the docs' error code table (§12.2) with the
 *   same HTTP status and that endpoint under "Built on", and every row built on an endpoint the OpenAPI document
 *   covers is declared there;
 * - every response header the OpenAPI document declares is in the docs' response header table (§13.1), built on
 *   that endpoint;
 * - every limit the docs state for a public input or output (§2.2, §3.2, §6.4, §10.2, §10.3) is the one the OpenAPI
 *   document, and so the zod schema it is generated from, enforces.
 * The parsing is deliberately plain: find a heading by its title, read the markdown table right below it.
 */

const DOCS_PATH = path.resolve(import.meta.dirname, '..', '..', 'docs', 'api.md');

/** OpenAPI paths and the endpoint names docs/api.md §12.1 gives them. */
const ENDPOINT_NAMES: Record<string, string> = {
  '/api/marketplace/knowledge-bases': 'listing',
  '/api/marketplace/knowledge-bases/{id}': 'detail',
  '/kb/{kb_id}/query': 'query',
  '/kb/{kb_id}/search': 'search',
  '/kb/{kb_id}/usage': 'usage',
  '/kb/{kb_id}/mcp': 'mcp',
  '/dify/retrieval': 'dify',
  '/api/openapi.json': 'openapi',
  '/api/health': 'health',
  '/api/health/live': 'health',
  '/api/health/ready': 'health',
};
const COVERED = new Set(Object.values(ENDPOINT_NAMES));
/**
 * The statuses one face gives a code instead of the table's, each stated in docs/api.md beside that face: Dify answers
 * a malformed or refused key 403 (§10.3), because its endpoint check fails a registration only on 403, 404 or 502.
 */
const FACE_STATUS: Record<string, number> = { 'dify missing_api_key': 403, 'dify invalid_api_key': 403 };
const docsStatus = (endpoint: string, code: string, row: Row<'HTTP'>) => FACE_STATUS[`${endpoint} ${code}`] ?? Number(plain(row.HTTP));
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Json = Record<string, unknown>;
type Row<Column extends string = string> = Record<Column, string>;

// ── markdown ────────────────────────────────────────────────────────────────────────────────────────

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

const plain = (cell: string) => cell.replace(/`/g, '').trim();

/**
 * The first markdown table under the heading whose title (after its number) is `title`, as rows keyed by column;
 * `needed` names the columns the caller reads, which the table must have.
 */
function tableUnder<Column extends string>(markdown: string, title: string, needed: readonly Column[] = []): Row<Column>[] {
  const lines = markdown.split('\n');
  const heading = lines.findIndex((line) => {
    const match = /^#{2,4}\s+(?:[\d.]+\s+)?(.+?)\s*$/.exec(line);
    return match !== null && match[1] === title;
  });
  if (heading < 0) throw new Error(`docs/api.md has no heading "${title}"`);
  let i = heading + 1;
  while (i < lines.length && !lines[i]!.trim().startsWith('|')) {
    if (/^#{1,4}\s/.test(lines[i]!)) throw new Error(`no table under "${title}" before the next heading`);
    i++;
  }
  const table: string[] = [];
  while (i < lines.length && lines[i]!.trim().startsWith('|')) table.push(lines[i++]!);
  const [header, separator, ...body] = table;
  if (header === undefined || separator === undefined || body.length === 0) throw new Error(`the table under "${title}" has no rows`);
  const columns = cells(header).map(plain);
  const missing = needed.filter((column) => !columns.includes(column));
  if (missing.length > 0) throw new Error(`the table under "${title}" has no column ${missing.join(', ')}`);
  if (!/^[\s|:-]+$/.test(separator)) throw new Error(`the table under "${title}" lacks its separator line`);
  return body.map((line, n) => {
    const values = cells(line);
    if (values.length !== columns.length) {
      throw new Error(`row ${n + 1} of the table under "${title}" has ${values.length} cells, expected ${columns.length}: ${line}`);
    }
    return Object.fromEntries(columns.map((column, c) => [column, itemAt(values, c)])) as Row<Column>;
  });
}

/** "listing, detail" → ['listing', 'detail']; "—" or "-" → []. */
function names(cell: string): string[] {
  const text = plain(cell);
  if (text === '' || text === '—' || text === '-') return [];
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

// ── OpenAPI ─────────────────────────────────────────────────────────────────────────────────────────

function resolve(doc: Json, value: unknown): Json {
  let node = value as Json;
  while (node && typeof node.$ref === 'string') {
    const parts = (node.$ref as string).replace(/^#\//, '').split('/');
    node = parts.reduce<unknown>((at, key) => (at as Json)[key], doc) as Json;
    if (!node) throw new Error(`unresolvable $ref ${JSON.stringify(value)}`);
  }
  return node;
}

/** The `error` codes a response schema allows (const or enum), through $ref and oneOf/anyOf. */
function errorCodesOf(doc: Json, schemaRef: unknown): string[] {
  const schema = resolve(doc, schemaRef);
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (alternatives) return alternatives.flatMap((alt) => errorCodesOf(doc, alt));
  const error = (schema.properties as Json | undefined)?.error as Json | undefined;
  if (!error) return [];
  // §10.1: a JSON-RPC error carrying the error body as its data.
  const data = (error.properties as Json | undefined)?.data as Json | undefined;
  if (data) return errorCodesOf(doc, data);
  if (typeof error.const === 'string') return [error.const];
  if (Array.isArray(error.enum)) return error.enum as string[];
  return [];
}

interface Declared {
  /** "endpoint code" → HTTP status */
  errors: Map<string, number>;
  /** endpoint → header names (lower case) → as written */
  headers: Map<string, Map<string, string>>;
}

function declaredByOpenApi(doc: Json): Declared {
  const errors = new Map<string, number>();
  const headers = new Map<string, Map<string, string>>();
  const paths = doc.paths as Record<string, Json>;
  for (const [route, item] of Object.entries(paths)) {
    const endpoint = ENDPOINT_NAMES[route];
    if (!endpoint) throw new Error(`the OpenAPI document has a path docs/api.md §12.1 does not name: ${route}`);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      for (const [status, responseRef] of Object.entries(operation.responses as Json)) {
        const response = resolve(doc, responseRef);
        for (const header of Object.keys((response.headers as Json | undefined) ?? {})) {
          if (!headers.has(endpoint)) headers.set(endpoint, new Map());
          headers.get(endpoint)!.set(header.toLowerCase(), header);
        }
        const code = Number(status);
        const schema = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
        if (code < 400 || schema === undefined) continue;
        // docs/api.md §12.2: the health probe's 503 carries the health object (§2.11), not an error body.
        if (endpoint === 'health' && code === 503) continue;
        // §10.1: the MCP transport's own refusals (400, 406) are JSON-RPC error objects, not error bodies.
        if (endpoint === 'mcp' && (code === 400 || code === 406)) continue;
        const codes = errorCodesOf(doc, schema);
        if (codes.length === 0) throw new Error(`${method.toUpperCase()} ${route} ${status} declares no error code`);
        for (const error of codes) {
          const key = `${endpoint} ${error}`;
          const earlier = errors.get(key);
          if (earlier !== undefined && earlier !== code) throw new Error(`${key} is declared with two statuses: ${earlier} and ${code}`);
          errors.set(key, code);
        }
      }
    }
  }
  return { errors, headers };
}

// ── the checks ──────────────────────────────────────────────────────────────────────────────────────

const markdown = readFileSync(DOCS_PATH, 'utf8');
const openapi = declaredByOpenApi(buildOpenApiDocument('http://localhost:3000'));

describe('docs/api.md agrees with the OpenAPI document', () => {
  const errorRows = tableUnder(markdown, 'Error code table', ['Code', 'HTTP', 'Built on']);
  const headerRows = tableUnder(markdown, 'Response header table', ['Header', 'Built on']);

  it('reads both tables, each code and header once', () => {
    const codes = errorRows.map((row) => plain(row.Code));
    expect(codes.length).toBeGreaterThan(10);
    expect(new Set(codes).size, 'duplicate rows in the error code table').toBe(codes.length);
    for (const row of errorRows) expect(plain(row.HTTP), `status of ${plain(row.Code)}`).toMatch(/^[45]\d\d$/);
    const headers = headerRows.map((row) => plain(row.Header).toLowerCase());
    expect(new Set(headers).size, 'duplicate rows in the response header table').toBe(headers.length);
    expect(openapi.errors.size).toBeGreaterThan(0);
    expect(openapi.headers.get('query')?.size ?? 0).toBeGreaterThan(0);
  });

  it('documents every error code of the OpenAPI document, with the same status, on the same endpoint', () => {
    const byCode = new Map(errorRows.map((row) => [plain(row.Code), row]));
    const problems: string[] = [];
    for (const [key, status] of openapi.errors) {
      const [endpoint = '', code = ''] = key.split(' ');
      const row = byCode.get(code);
      if (!row) {
        problems.push(`${code} (${status} on ${endpoint}) is missing from the error code table`);
        continue;
      }
      if (docsStatus(endpoint, code, row) !== status) problems.push(`${code}: OpenAPI says ${status}, docs say ${plain(row.HTTP)}`);
      if (!names(row['Built on']).includes(endpoint))
        problems.push(`${code}: OpenAPI declares it on ${endpoint}, docs do not list ${endpoint} under "Built on"`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('declares in the OpenAPI document every code the docs say is built on an endpoint it covers', () => {
    const problems: string[] = [];
    for (const row of errorRows) {
      const code = plain(row.Code);
      // The 405 of every path is declared once, in info.description, not per path.
      if (code === 'method_not_allowed') {
        expect(String((buildOpenApiDocument('http://localhost:3000').info as Json).description)).toContain(`${plain(row.HTTP)} method_not_allowed`);
        continue;
      }
      for (const endpoint of names(row['Built on']).filter((name) => COVERED.has(name))) {
        const status = openapi.errors.get(`${endpoint} ${code}`);
        if (status === undefined) problems.push(`${code} is built on ${endpoint} per docs/api.md, but the OpenAPI document does not declare it there`);
        else if (status !== docsStatus(endpoint, code, row)) problems.push(`${code} on ${endpoint}: docs say ${plain(row.HTTP)}, OpenAPI says ${status}`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('lists every response header the OpenAPI document declares, built on that endpoint', () => {
    const byHeader = new Map(headerRows.map((row) => [plain(row.Header).toLowerCase(), row]));
    const problems: string[] = [];
    for (const [endpoint, headers] of openapi.headers) {
      for (const [lower, header] of headers) {
        const row = byHeader.get(lower);
        if (!row) problems.push(`${header} (${endpoint}) is missing from the response header table`);
        else if (!names(row['Built on']).includes(endpoint))
          problems.push(`${header}: OpenAPI declares it on ${endpoint}, docs do not list ${endpoint} under "Built on"`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

// ── the limits ──────────────────────────────────────────────────────────────────────────────────────

/** 2000 → "2,000", as docs/api.md writes numbers. */
const written = (n: unknown) => Number(n).toLocaleString('en-US');

describe('docs/api.md states the limits the OpenAPI document (and so the zod schemas) enforce', () => {
  const doc = buildOpenApiDocument('http://localhost:3000') as { paths: Record<string, Json>; components: { schemas: Record<string, Json> } };
  const schemas = doc.components.schemas;
  const props = (name: string) => schemas[name]!.properties as Record<string, Json>;
  const listing = doc.paths['/api/marketplace/knowledge-bases']!.get as { parameters: { name: string; schema: Json }[] };
  const parameter = (name: string) => listing.parameters.find((p) => p.name === name)!.schema;
  const rowOf = (rows: Row[], column: string, value: string) => {
    const row = rows.find((r) => plain(r[column]!) === value);
    if (!row) throw new Error(`docs/api.md has no row "${value}"`);
    return Object.values(row).join(' | ');
  };
  const paragraphWith = (start: string) => {
    const at = markdown.indexOf(start);
    if (at < 0) throw new Error(`docs/api.md has no "${start}"`);
    return markdown.slice(at, markdown.indexOf('\n\n', at)).replace(/\s+/g, ' ');
  };

  it('the listing parameters (§2.2)', () => {
    const rows = tableUnder(markdown, 'Listing parameters');
    const tags = parameter('tags') as { maxItems: number; items: Json };
    const page = parameter('page');
    const pageSize = parameter('pageSize');
    const cases: [string, string[]][] = [
      ['query', [`At most ${written(parameter('query').maxLength)} characters`]],
      ['tags', [`At most ${written(tags.maxItems)} distinct tags`, `Each tag is at most ${written(tags.items.maxLength)} characters`]],
      ['sort', [`\`${String(parameter('sort').default)}\``, ...(parameter('sort').enum as string[]).map((s) => `\`${s}\``)]],
      ['category', (parameter('category').enum as string[]).map((c) => `\`${c}\``)],
      ['page', [`\`${String(page.default)}\``, `from ${written(page.minimum)} to ${written(page.maximum)}`]],
      [
        'pageSize',
        [
          `\`${String(pageSize.default)}\``,
          `at least ${written(pageSize.minimum)}`,
          `above ${written(props('KnowledgeBaseList').pageSize!.maximum)} is **clamped to ${written(props('KnowledgeBaseList').pageSize!.maximum)}**`,
        ],
      ],
    ];
    for (const [name, phrases] of cases) {
      const row = rowOf(rows, 'Parameter', name);
      for (const phrase of phrases) expect(row, `§2.2 ${name}`).toContain(phrase);
    }
  });

  it('the query and its body (§3.2 step 8, §10.2, §10.3)', () => {
    const query = props('QueryRequest').query!;
    expect(rowOf(tableUnder(markdown, 'Check order'), 'Step', '8')).toContain(`over ${written(query.maxLength)} characters`);
    const topK = props('SearchRequest').top_k!;
    expect(props('SearchRequest').query).toEqual(query);
    expect(paragraphWith('`POST /kb/{kb_id}/search` takes')).toContain(
      `\`top_k\` an integer from ${written(topK.minimum)} to ${written(topK.maximum)}, default ${written(topK.default)}`,
    );
    const dify = props('DifyRetrievalRequest').retrieval_setting!.properties as Record<string, Json>;
    expect(dify.top_k).toEqual(topK);
    const threshold = dify.score_threshold!;
    expect(paragraphWith('- `top_k` is')).toContain(
      `\`top_k\` is ${written(topK.minimum)}–${written(topK.maximum)} (default ${written(topK.default)}); \`score_threshold\` (${written(threshold.minimum)}–${written(threshold.maximum)}, default ${written(threshold.default)})`,
    );
    expect(props('SearchResults').results!.maxItems).toBe(topK.maximum);
  });

  it('the answer (§6.4)', () => {
    const rows = tableUnder(markdown, 'The answer');
    const answer = props('QueryAnswer');
    const citation = props('Citation');
    const cases: [string, string][] = [
      ['answer', `at most ${written(answer.answer!.maxLength)} characters`],
      ['citations', `array of at most ${written(answer.citations!.maxItems)}`],
      ['citations[].document_id', `${written(citation.document_id!.minLength)}–${written(citation.document_id!.maxLength)} characters`],
      ['citations[].title', `at most ${written(citation.title!.maxLength)} characters`],
      ['citations[].excerpt', `at most ${written(citation.excerpt!.maxLength)} characters`],
      ['tokens_used', `integer ≥ ${written(answer.tokens_used!.minimum)}`],
    ];
    for (const [field, phrase] of cases) expect(rowOf(rows, 'Field', field), `§6.4 ${field}`).toContain(phrase);
  });
});
