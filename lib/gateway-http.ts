import { errorBody } from './errors';
import { REQUEST_ID_HEADER, jsonResponse } from './http';
import { MAX_BODY_BYTES, handleGatewayRequest, type BodyReadResult } from './gateway';

/**
 * The HTTP face of the gateway: reads the body from the stream with a hard 16 KiB limit (a lying Content-Length
 * cannot get more in), and turns the gateway's outcome into the contract's response. No CORS headers: keys are for
 * servers, not browsers.
 */
export async function readLimitedBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyReadResult> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: 'too_large' };
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(value);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

export async function serveQueryRequest(request: Request, kbId: string, requestId: string): Promise<Response> {
  const outcome = await handleGatewayRequest({
    kbId,
    requestId,
    authorization: request.headers.get('authorization'),
    contentType: request.headers.get('content-type'),
    readBody: () => readLimitedBody(request),
    signal: request.signal,
  });
  // One plain record: jsonResponse builds the only Headers object from it.
  const headers = { ...outcome.headers, [REQUEST_ID_HEADER]: requestId, 'Cache-Control': 'no-store' };
  if (outcome.ok) return jsonResponse(outcome.answer, { status: 200, headers });
  return jsonResponse(errorBody(outcome.code, outcome.message, requestId, outcome.extras), { status: outcome.status, headers });
}
