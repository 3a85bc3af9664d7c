import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOpenApiTypes, OPENAPI_TYPES_PATH } from '@/scripts/generate-openapi-types';

/**
 * test/support/openapi-types.ts is committed (so `npm run typecheck` checks e2e/api-client.spec.ts's calls against
 * it) and must be exactly what openapi-typescript makes of the current document.
 */
describe('test/support/openapi-types.ts', () => {
  it('is what openapi-typescript generates from the current OpenAPI document (else: npm run openapi:types)', async () => {
    const committed = readFileSync(OPENAPI_TYPES_PATH, 'utf8');
    const generated = await generateOpenApiTypes();
    expect(committed === generated, 'test/support/openapi-types.ts is out of date: run `npm run openapi:types`').toBe(true);
  });
});
