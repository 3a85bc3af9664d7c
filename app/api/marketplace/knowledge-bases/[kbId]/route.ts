import { catalogMethodNotAllowed, catalogPreflight, respondPublicCatalog } from '@/lib/catalog';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/**
 * Public detail of one published knowledge base (docs/api.md §2.9); 404 for unknown or unpublished ids. Limited and
 * cached like the listing; `npm start` answers GET and HEAD in front of Next (lib/server/catalog-lane.ts).
 */
export const dynamic = 'force-dynamic';

const detail = async (request: Request, { params }: { params: Promise<{ kbId: string }> }) =>
  respondPublicCatalog({ kind: 'detail', id: (await params).kbId }, request);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  { GET: detail, OPTIONS: withApiRoute(catalogPreflight()) },
  { refuse: catalogMethodNotAllowed },
);
