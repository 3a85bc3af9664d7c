import { catalogMethodNotAllowed, catalogPreflight, respondPublicCatalog } from '@/lib/catalog';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/**
 * Public listing of published knowledge bases (docs/api.md §2.1): per-client limit (§2.8), cached answers (§2.7).
 * `npm start` answers GET and HEAD in front of Next with the same function (lib/server/catalog-lane.ts); this handler serves
 * them under `next dev` or a bare `next start`, and the other methods everywhere.
 */
export const dynamic = 'force-dynamic';

const listing = (request: Request) => respondPublicCatalog({ kind: 'listing' }, request);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  { GET: listing, OPTIONS: withApiRoute(catalogPreflight()) },
  { refuse: catalogMethodNotAllowed },
);
