import { getKnowledgeBaseDetail } from '@/lib/catalog';
import { catalogJson, catalogMethodNotAllowed, catalogPreflight, withCatalogHeaders } from '@/lib/catalog';
import { ApiError } from '@/lib/platform/errors';
import { withApiRoute } from '@/lib/platform/http';

/** Public detail of one published knowledge base (docs/api.md §2.9); 404 for unknown or unpublished ids. */
export const dynamic = 'force-dynamic';

export const GET = withCatalogHeaders(
  withApiRoute<{ id: string }>(async (_request, { params }) => {
    const detail = await getKnowledgeBaseDetail(params.id);
    if (!detail) throw new ApiError('knowledge_base_not_found', `No published knowledge base has the id "${params.id.slice(0, 100)}".`);
    return catalogJson(detail);
  }),
);

export const OPTIONS = withApiRoute(catalogPreflight());
export const POST = catalogMethodNotAllowed();
export const PUT = catalogMethodNotAllowed();
export const PATCH = catalogMethodNotAllowed();
export const DELETE = catalogMethodNotAllowed();
