import { getEnv } from '@/lib/platform/env';
import { clientAddress } from '@/lib/platform/client-address';
import { ApiError } from '@/lib/platform/errors';
import { withApiRoute } from '@/lib/platform/http';
import { mayReadMetrics, renderMetrics } from '@/lib/platform/metrics';
import { routeMethods } from '@/lib/platform/route-methods';

/** GET /metrics — Prometheus's text format, for METRICS_TOKEN's bearer or a private address (lib/platform/metrics.ts). */
export const dynamic = 'force-dynamic';

const metrics = withApiRoute(async (request) => {
  if (!mayReadMetrics({ token: getEnv().METRICS_TOKEN, authorization: request.headers.get('authorization'), clientAddress: clientAddress(request) })) {
    throw new ApiError('unauthorized', 'Metrics are served to the METRICS_TOKEN bearer, or without it only to private addresses.', {
      headers: { 'WWW-Authenticate': 'Bearer realm="almanac-metrics"' },
    });
  }
  const { contentType, body } = await renderMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: metrics });
