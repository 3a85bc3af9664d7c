// `npm run openapi:types`: test/support/openapi-types.ts from the OpenAPI document, so that `npm run typecheck` proves
// e2e/api-client.spec.ts's calls match it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '@/lib/openapi';

export const OPENAPI_TYPES_PATH = path.resolve(import.meta.dirname, '..', 'test', 'support', 'openapi-types.ts');

const HEADER = [
  '// Generated from lib/openapi/ by `npm run openapi:types` (openapi-typescript). Do not edit: run the script.',
  '// test/support/openapi-types.test.ts fails when this file no longer matches the document.',
  '',
  '',
].join('\n');

export async function generateOpenApiTypes(): Promise<string> {
  // A fixed base URL keeps the output the same on every machine.
  const document = buildOpenApiDocument('http://localhost:3000') as unknown as OpenAPI3;
  // defaultNonNullable: false keeps a request field with a default (search's top_k) optional, as the server treats it;
  // emptyObjectsUnknown: an object schema without properties (an MCP message) accepts any members.
  const ast = await openapiTS(document, { silent: true, alphabetize: false, defaultNonNullable: false, emptyObjectsUnknown: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_TYPES_PATH, await generateOpenApiTypes());
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_TYPES_PATH)}`);
}
