// `npm run openapi:types`: writes test/support/openapi-types.ts, the TypeScript types openapi-typescript generates
// from the OpenAPI document (lib/openapi/). e2e/api-client.spec.ts calls every endpoint through openapi-fetch with
// these types, so `npm run typecheck` proves the calls match the document; test/support/openapi-types.test.ts fails
// when the file no longer matches the document (run this script after changing lib/openapi/).
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
  // The base URL is not part of the types; a fixed one keeps the output the same on every machine.
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
