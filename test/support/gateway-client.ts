import { POST, GET, PUT, PATCH, DELETE, OPTIONS } from '@/app/kb/[kb_id]/query/route';

/** Calls the real route handlers in-process with a Web Request, and returns status, headers and parsed body. */
export interface GatewayCall {
  kbId: string;
  authorization?: string | null;
  body?: string | ReadableStream<Uint8Array> | null;
  contentType?: string | null;
  method?: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  headers?: Record<string, string>;
}

export interface GatewayReply {
  status: number;
  headers: Headers;
  body: any;
}

const handlers = { POST, GET, PUT, PATCH, DELETE, OPTIONS };

export function jsonQuery(query: unknown): string {
  return JSON.stringify({ query });
}

export async function callGateway(call: GatewayCall): Promise<GatewayReply> {
  const method = call.method ?? 'POST';
  const headers = new Headers(call.headers);
  if (call.authorization !== undefined && call.authorization !== null) headers.set('authorization', call.authorization);
  const contentType = call.contentType === undefined ? 'application/json' : call.contentType;
  if (contentType !== null) headers.set('content-type', contentType);
  const body = method === 'GET' ? undefined : (call.body ?? undefined);
  const request = new Request(`http://localhost/kb/${encodeURIComponent(call.kbId)}/query`, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handlers[method](request, { params: Promise.resolve({ kb_id: call.kbId }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
