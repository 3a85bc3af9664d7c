import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi';

/**
 * Validates real responses against the served OpenAPI document: the body against the response schema for its
 * status (JSON Schema 2020-12, via ajv) and every header the document marks required (present, matching its schema).
 */
type Json = Record<string, any>;

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  readonly checked: string[] = [];

  constructor(readonly document: Json = buildOpenApiDocument()) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document, 'openapi.json');
  }

  private resolve(node: Json): Json {
    if (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      let target: any = this.document;
      for (const part of node.$ref.slice(2).split('/')) target = target[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      return target;
    }
    return node;
  }

  /** `pathTemplate` as in the document, e.g. `/kb/{kb_id}/query`. */
  expectConforms(pathTemplate: string, method: string, response: { status: number; headers: Headers; body: unknown }): void {
    const item = this.document.paths?.[pathTemplate];
    if (response.status === 405) return this.expectNotAllowed(pathTemplate, method, item, response);
    const operation = item?.[method.toLowerCase()];
    expect(operation, `no ${method} ${pathTemplate} in the OpenAPI document`).toBeDefined();
    const declared = operation.responses[String(response.status)];
    expect(declared, `status ${response.status} of ${method} ${pathTemplate} is not documented`).toBeDefined();
    for (const [name, headerNode] of Object.entries<Json>(declared.headers ?? {})) {
      const header = this.resolve(headerNode);
      const value = response.headers.get(name);
      if (header.required) expect(value, `header ${name} required by the document on ${response.status}`).not.toBeNull();
      if (value !== null && header.schema) {
        const validate = this.ajv.compile(header.schema);
        expect(validate(value), `header ${name}=${value}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
    const media = declared.content?.['application/json'];
    if (media) {
      const schema = media.schema.$ref ? { $ref: `openapi.json${media.schema.$ref}` } : this.rewriteRefs(media.schema);
      const validate = this.ajv.compile(schema as object);
      const ok = validate(response.body);
      expect(ok, `body of ${response.status} breaks the document: ${JSON.stringify(validate.errors)} body=${JSON.stringify(response.body)}`).toBe(true);
    }
    this.checked.push(`${method.toUpperCase()} ${pathTemplate} ${response.status}`);
  }

  /**
   * A 405 as the document states it once (info.description): the path exists, does not list the method, and the
   * answer names the methods it does list in Allow, with the MethodNotAllowedError body.
   */
  private expectNotAllowed(pathTemplate: string, method: string, item: Json | undefined, response: { headers: Headers; body: unknown }): void {
    expect(item, `no path ${pathTemplate} in the OpenAPI document`).toBeDefined();
    expect(item![method.toLowerCase()], `${method} ${pathTemplate} is documented, so it must not answer 405`).toBeUndefined();
    const listed = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => m.toLowerCase() in item! || (m === 'HEAD' && 'get' in item!));
    expect(response.headers.get('Allow')?.split(', ').sort()).toEqual(listed.sort());
    expect(String(this.document.info.description)).toContain('405 method_not_allowed');
    if (method.toUpperCase() !== 'HEAD') {
      const validate = this.ajv.compile({ $ref: 'openapi.json#/components/schemas/MethodNotAllowedError' });
      expect(validate(response.body), `405 body breaks MethodNotAllowedError: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    this.checked.push(`${method.toUpperCase()} ${pathTemplate} 405`);
  }

  private rewriteRefs(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.rewriteRefs(n));
    if (node && typeof node === 'object') {
      const out: Json = {};
      for (const [k, v] of Object.entries(node))
        out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi.json${v}` : this.rewriteRefs(v);
      return out;
    }
    return node;
  }
}
