import { keyedRoute } from '@/lib/gateway';

/** POST /kb/{kb_id}/query — the keyed query gateway (docs/api.md §3; the endpoint table is lib/gateway/endpoints.ts). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = keyedRoute('query');
