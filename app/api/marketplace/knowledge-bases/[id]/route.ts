import { catalogMethodNotAllowed, catalogPreflight, getKnowledgeBaseDetail, catalogJson, withCatalogHeaders } from '@/lib/catalog';
import { ApiError } from '@/lib/platform/errors';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { describeTextProblem, idProblem } from '@/lib/platform/text-input';

/** Public detail of one published knowledge base (docs/api.md §2.9); 404 for unknown or unpublished ids. */
export const dynamic = 'force-dynamic';

const detail = withCatalogHeaders(
  withApiRoute<{ id: string }>(async (_request, { params }) => {
    // docs/api.md §7.2: an id no knowledge base can have is a 400, and never reaches the database.
    const problem = idProblem(params.id);
    if (problem) throw new ApiError('invalid_parameter', `Invalid "id": ${describeTextProblem(problem, 'id')}.`);
    const found = await getKnowledgeBaseDetail(params.id);
    if (!found) throw new ApiError('knowledge_base_not_found', `No published knowledge base has the id "${params.id.slice(0, 100)}".`);
    return catalogJson(found);
  }),
);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: detail, OPTIONS: withApiRoute(catalogPreflight()) }, catalogMethodNotAllowed);
