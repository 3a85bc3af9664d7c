import { keyedRoute } from '@/lib/gateway';

/** POST /dify/retrieval — Dify's External Knowledge API over the search endpoint (docs/api.md §10.3). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = keyedRoute('dify');
