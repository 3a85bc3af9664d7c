import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi';
import { listedOperations, referenceDocument } from './reference-document';

describe('referenceDocument', () => {
  const served = buildOpenApiDocument('http://localhost:3000');
  const shown = referenceDocument(served);

  it('keeps every operation a client calls, unchanged, and drops the 405-only operations and CORS preflights', () => {
    const all = listedOperations(served);
    const kept = listedOperations(shown);
    expect(kept).toContain('GET /api/marketplace/knowledge-bases');
    expect(kept).toContain('GET /api/marketplace/knowledge-bases/{id}');
    expect(kept).toContain('POST /kb/{kb_id}/query');
    expect(kept).not.toContain('DELETE /kb/{kb_id}/query');
    expect(kept).not.toContain('OPTIONS /api/marketplace/knowledge-bases');
    for (const operation of all.filter((o) => !kept.includes(o))) {
      const [method, route] = operation.split(' ');
      const responses = Object.keys(((served.paths as any)[route!][method!.toLowerCase()] as any).responses);
      expect(
        responses.every((status) => status === '405' || (method === 'OPTIONS' && status === '204')),
        operation,
      ).toBe(true);
    }
    const post = (shown.paths as any)['/kb/{kb_id}/query'];
    const { tags, ...servedPost } = (served.paths as any)['/kb/{kb_id}/query'].post;
    expect(tags).toEqual(['query']);
    expect(post.post).toEqual(servedPost);
    expect(post.parameters).toEqual((served.paths as any)['/kb/{kb_id}/query'].parameters);
    expect(shown.components).toBe(served.components);
  });

  it('does not change the served document', () => {
    const before = JSON.stringify(buildOpenApiDocument('http://localhost:3000'));
    referenceDocument(served);
    expect(JSON.stringify(served)).toBe(before);
  });
});
