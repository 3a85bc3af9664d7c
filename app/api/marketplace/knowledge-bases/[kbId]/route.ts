import { catalogMethodNotAllowed, catalogPreflight, respondPublicCatalog } from '@/lib/catalog';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

// Public detail of a knowledge base (docs/api.md §2.9); `npm start` answers GET and HEAD on the fast lane.
export const dynamic = 'force-dynamic';

const detail = async (request: Request, { params }: { params: Promise<{ kbId: string }> }) =>
  respondPublicCatalog({ kind: 'detail', id: (await params).kbId }, request);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  { GET: detail, OPTIONS: withApiRoute(catalogPreflight()) },
  { refuse: catalogMethodNotAllowed },
);
