import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { queryAnswerSchema, type QueryAnswer, type QueryRequest } from './query-answer';
import { resolveAndGuard, type GuardPolicy } from './publisher-ssrf';
import { processSingleton } from './singleton';

/**
 * The `http` backend connector (contract §4): POST {query, kb_id, request_id} to the publisher's endpoint over a
 * keep-alive pool, signed with `Almanac-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` and authorised with
 * the publisher's infrastructure key. The answer must be 2xx, at most 1 MiB (counted on the stream, whatever
 * Content-Length says) and valid against the query-answer schema; anything else is `publisher_error`, and no answer
 * within the knowledge base's timeout is `publisher_timeout`. Errors never carry the secrets.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface HttpBackendTarget {
  endpointUrl: string;
  infraKey: string;
  signingSecret: string;
  timeoutMs: number;
}

export type PublisherOutcome =
  | { ok: true; answer: QueryAnswer }
  | { ok: false; code: 'publisher_error' | 'publisher_timeout'; reason: string };

interface Pools {
  http: http.Agent;
  https: https.Agent;
}

/** One keep-alive pool per protocol for the whole process; sockets are reused across requests and knowledge bases. */
function pools(): Pools {
  return processSingleton('publisher-http-pools', () => ({
    http: new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxSockets: Infinity, maxFreeSockets: 512, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxSockets: Infinity, maxFreeSockets: 512, scheduling: 'lifo' }),
  }));
}

export function signPayload(signingSecret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', signingSecret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** A lookup that answers with the address the guard already checked, so the connection goes exactly there. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

export async function callHttpBackend(target: HttpBackendTarget, request: QueryRequest, policy: GuardPolicy): Promise<PublisherOutcome> {
  const url = new URL(target.endpointUrl);
  const guard = await resolveAndGuard(url, policy);
  if (!guard.ok) return { ok: false, code: 'publisher_error', reason: `endpoint refused: ${guard.reason}` };

  const body = JSON.stringify({ query: request.query, kb_id: request.kbId, request_id: request.requestId });
  const signature = signPayload(target.signingSecret, body, Math.floor(Date.now() / 1000));
  const isHttps = url.protocol === 'https:';
  const agent = isHttps ? pools().https : pools().http;

  return new Promise<PublisherOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: PublisherOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const requestFn = isHttps ? https.request : http.request;
    const req = requestFn(
      url,
      {
        method: 'POST',
        agent,
        lookup: pinnedLookup(guard.address, guard.family),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Accept: 'application/json',
          Authorization: `Bearer ${target.infraKey}`,
          'Almanac-Signature': signature,
          'User-Agent': 'Almanac-Gateway/1',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
          res.destroy();
          return finish({ ok: false, code: 'publisher_error', reason: 'answer larger than 1 MiB' });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            finish({ ok: false, code: 'publisher_error', reason: 'answer larger than 1 MiB' });
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', () => finish({ ok: false, code: 'publisher_error', reason: 'answer stream failed' }));
        res.on('end', () => {
          if (status < 200 || status >= 300) return finish({ ok: false, code: 'publisher_error', reason: `publisher answered HTTP ${status}` });
          let json: unknown;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return finish({ ok: false, code: 'publisher_error', reason: 'answer is not JSON' });
          }
          const parsed = queryAnswerSchema.safeParse(json);
          if (!parsed.success) return finish({ ok: false, code: 'publisher_error', reason: 'answer breaks the query-answer schema' });
          finish({ ok: true, answer: parsed.data });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, code: 'publisher_timeout', reason: `no answer within ${target.timeoutMs} ms` });
      req.destroy();
    }, target.timeoutMs);
    const onAbort = () => {
      finish({ ok: false, code: 'publisher_error', reason: 'request aborted by the caller' });
      req.destroy();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, code: 'publisher_error', reason: `connection failed (${err.code ?? 'error'})` }));
    req.end(body);
  });
}
