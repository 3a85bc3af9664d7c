import { keyedRoute } from '@/lib/gateway';

/** POST /kb/{kb_id}/search — passages only, metered like a query (docs/api.md §10.2). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = keyedRoute('search');
