// The OpenAPI document (docs/api.md §2.12) read for a buyer: short headings, no operators' variables or section numbers,
// `$ref`s resolved, and examples filled with real values of the seeded catalogue rather than `"string"`.
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** "Ask a question (API key required; metered)" → heading "Ask a question", note "API key required; metered". */
export function splitSummary(summary: string): { heading: string; note: string | null } {
  const paren = summary.indexOf(' (');
  const colon = summary.indexOf(': ');
  const cut = [paren, colon].filter((i) => i > 0).sort((a, b) => a - b)[0];
  if (cut === undefined) return { heading: summary, note: null };
  const rest = summary
    .slice(cut)
    .replace(/^:\s*/, '')
    .replace(/^\s*\(/, '')
    .replace(/\)\s*$/, '')
    .trim();
  return { heading: summary.slice(0, cut).trim(), note: rest ? cleanText(rest.charAt(0).toUpperCase() + rest.slice(1)) : null };
}

const ENV_NAME = /`?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`?/;

export function cleanText(text: string): string {
  return (
    text
      .replace(/\s*See docs\/api\.md(?:[^.]|\.\d)*\.\s*/g, ' ')
      // "(docs/api.md §7.2)", "(see docs/api.md §3)", "(§3.2)"
      .replace(/\s*\((?:see )?(?:docs\/api\.md\s*)?§[^)]*\)/g, '')
      .replace(new RegExp(`\\s*\\([^()]*${ENV_NAME.source}[^()]*\\)`, 'g'), '')
      // "NAME requests (300)" → "300 requests"
      .replace(new RegExp(`${ENV_NAME.source}(\\s+[a-z]+)?\\s+\\((\\d[\\d,]*)\\)`, 'g'), '$2$1')
      .replace(/\s*(?:see |in )?docs\/api\.md(?:\s*§\s?[\d.]*\d)?/g, '')
      .replace(/\s*§\s?\d+(?:\.\d+)*/g, '')
      .replace(new RegExp(ENV_NAME.source, 'g'), 'a server setting')
      .replace(/\s+([.,;])/g, '$1')
      .trim()
  );
}

/** Once per level: the document has no cycles among what the page shows. */
function resolve<T = Json>(document: Json, value: unknown): T {
  let current = value as Json;
  for (let hops = 0; hops < 10 && current && typeof current.$ref === 'string'; hops++) {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document) as Json;
  }
  return current as T;
}

/** By field name, for a schema without an example of its own. */
export type ExampleValues = Record<string, unknown>;

function exampleOf(document: Json, schemaOrRef: unknown, values: ExampleValues, name = '', depth = 0): unknown {
  const schema = resolve<Json>(document, schemaOrRef) ?? {};
  if (name && name in values) return values[name];
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (depth > 6) return null;
  const variants = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (variants?.length) return exampleOf(document, variants[0], values, name, depth + 1);
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(document, part, values, '', depth + 1) as object));
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Json;
      return Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, exampleOf(document, child, values, key, depth + 1)]));
    }
    case 'array':
      return [exampleOf(document, schema.items, values, '', depth + 1)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return 0.5;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'date-time' ? '2026-01-31T12:00:00.000Z' : schema.format === 'uri' ? 'https://example.com' : '…';
    default:
      return schema.properties ? exampleOf(document, { ...schema, type: 'object' }, values, name, depth + 1) : null;
  }
}

interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
}

interface ReferenceResponse {
  status: string;
  description: string;
  example: unknown;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  heading: string;
  note: string | null;
  description: string;
  parameters: ReferenceParameter[];
  requestExample: unknown;
  responses: ReferenceResponse[];
}

export function referenceOperations(document: Json, values: ExampleValues, responseExamples: Record<string, unknown> = {}): ReferenceOperation[] {
  const operations: ReferenceOperation[] = [];
  for (const [route, item] of Object.entries((document.paths as Record<string, Json> | undefined) ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const { heading, note } = splitSummary(String(operation.summary ?? `${method.toUpperCase()} ${route}`));
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])].map((p) => resolve<Json>(document, p));
      const body = resolve<Json>(document, operation.requestBody);
      const bodySchema = (body?.content as Json | undefined)?.['application/json'] as Json | undefined;
      const id = String(operation.operationId ?? `${method}-${route}`);
      operations.push({
        id,
        method: method.toUpperCase(),
        path: route,
        heading,
        note,
        description: cleanText(String(operation.description ?? '')),
        parameters: parameters.map((p) => ({
          name: String(p.name),
          in: String(p.in),
          required: Boolean(p.required),
          description: cleanText(String(p.description ?? '')),
        })),
        requestExample: bodySchema?.schema ? exampleOf(document, bodySchema.schema, values) : null,
        responses: Object.entries((operation.responses as Json | undefined) ?? {}).map(([status, response]) => {
          const resolved = resolve<Json>(document, response);
          const json = (resolved?.content as Json | undefined)?.['application/json'] as Json | undefined;
          const success = status.startsWith('2') && Boolean(json?.schema);
          const example = success ? (id in responseExamples ? responseExamples[id] : exampleOf(document, json!.schema, values)) : null;
          return { status, description: cleanText(String(resolved?.description ?? '')), example };
        }),
      });
    }
  }
  return operations;
}
