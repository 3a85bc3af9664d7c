import { keyedRoute } from '@/lib/gateway';

/** GET /kb/{kb_id}/usage — where the key's subscription stands; never counted (docs/api.md §10.5). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = keyedRoute('usage');
