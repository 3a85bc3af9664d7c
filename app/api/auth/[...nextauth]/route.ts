import { serveNextAuth } from '@/lib/accounts';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** next-auth v4's routes, held to the rules of every /api answer (lib/accounts/next-auth-route.ts). */
export const dynamic = 'force-dynamic';

const auth = withApiRoute(serveNextAuth);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: auth, POST: auth });
