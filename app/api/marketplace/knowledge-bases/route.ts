import { catalogMethodNotAllowed, catalogPreflight, respondPublicCatalog } from '@/lib/catalog';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

// The public listing (docs/api.md §2.1). `npm start` answers GET and HEAD on the fast lane with the same function;
// this handler serves them under `next dev`, and the other methods everywhere.
export const dynamic = 'force-dynamic';

const listing = (request: Request) => respondPublicCatalog({ kind: 'listing' }, request);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  { GET: listing, OPTIONS: withApiRoute(catalogPreflight()) },
  { refuse: catalogMethodNotAllowed },
);
