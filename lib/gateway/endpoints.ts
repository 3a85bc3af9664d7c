import { withApiRoute } from '@/lib/platform/http';
import { HTTP_METHODS, routeMethods, type HttpMethod, type RouteHandler } from '@/lib/platform/route-methods';
import { difyReply, handleDifyRetrieval } from './dify';
import type { GatewayRequest } from './keyed';
import { serveMcpRequest } from './mcp';
import type { GatewayOutcome } from './outcome';
import { handleGatewayRequest } from './pipeline';
import { MAX_BODY_BYTES } from './schemas';
import { handleSearchRequest } from './search';
import { handleUsageRequest } from './usage';
import { gatewayReply, serveKeyed, serveQueryRequest, type GatewayReply } from './web';

/** The keyed endpoints (docs/api.md §3, §10), once for both HTTP stacks: Next's route files and the fast lane's dispatch. */
export type KeyedEndpointDefinition = {
  path: string;
  /** The one method served (HEAD follows GET); every other method is a 405 with `Allow`. */
  method: 'GET' | 'POST';
  /** The route handler's body limit (lib/platform/route-methods.ts): `'own'` where the answer reads it after the key. */
  bodyLimit?: number | 'own';
} & (
  | {
      answer: (request: GatewayRequest) => Promise<GatewayOutcome<unknown>>;
      reply: (outcome: GatewayOutcome<unknown>, requestId: string, authorization: string | null) => GatewayReply;
      web?: WebFace;
    }
  | { web: WebFace; answer?: never; reply?: never }
);

type WebFace = (request: Request, kbId: string, requestId: string) => Promise<Response>;

export const KEYED_ENDPOINTS = {
  query: { path: '/kb/{kb_id}/query', method: 'POST', answer: handleGatewayRequest, reply: gatewayReply, web: serveQueryRequest, bodyLimit: 'own' },
  search: { path: '/kb/{kb_id}/search', method: 'POST', answer: handleSearchRequest, reply: gatewayReply, bodyLimit: 'own' },
  usage: { path: '/kb/{kb_id}/usage', method: 'GET', answer: handleUsageRequest, reply: gatewayReply },
  // POST only: a stateless server has no stream to offer on GET nor a session to end on DELETE, and a 405 is how
  // Streamable HTTP says so.
  mcp: { path: '/kb/{kb_id}/mcp', method: 'POST', web: serveMcpRequest, bodyLimit: MAX_BODY_BYTES },
  dify: { path: '/dify/retrieval', method: 'POST', answer: handleDifyRetrieval, reply: difyReply, bodyLimit: 'own' },
} satisfies Record<string, KeyedEndpointDefinition>;

export type KeyedEndpointName = keyof typeof KEYED_ENDPOINTS;

const SERVED = Object.fromEntries(
  Object.entries(KEYED_ENDPOINTS).map(([name, { method }]) => [name, HTTP_METHODS.filter((m) => m === method || (m === 'HEAD' && method === 'GET'))]),
) as Record<KeyedEndpointName, HttpMethod[]>;

export function servedMethods(name: KeyedEndpointName): HttpMethod[] {
  return SERVED[name];
}

export function keyedRoute(name: KeyedEndpointName): Record<HttpMethod, RouteHandler> {
  const endpoint: KeyedEndpointDefinition = KEYED_ENDPOINTS[name];
  const handler = withApiRoute(async (request, { requestId, params }) => {
    const kbId = typeof params.kbId === 'string' ? params.kbId : '';
    if (endpoint.answer && !endpoint.web) return serveKeyed(request, kbId, requestId, endpoint.answer, endpoint.reply);
    return endpoint.web!(request, kbId, requestId);
  });
  return routeMethods({ [endpoint.method]: handler }, { bodyLimit: endpoint.bodyLimit });
}
