import { serveQueryRequest } from '@/lib/gateway';
import { methodNotAllowed, withApiRoute } from '@/lib/platform/http';

/** POST /kb/{kb_id}/query — the keyed query gateway (docs/api.md §3). All checks live in lib/gateway/pipeline.ts. */
export const dynamic = 'force-dynamic';

export const POST = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveQueryRequest(request, params.kb_id, requestId));

const notAllowed = methodNotAllowed(['POST']);
export const GET = notAllowed;
export const HEAD = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = notAllowed;
