import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { citationSchema, queryAnswerSchema, type AnswerProgress, type Citation, type QueryAnswer, type QueryRequest } from '@/lib/query-answer';
import { pinnedLookup, resolveAndGuard, type GuardPolicy, type GuardResult } from '@/lib/platform/ssrf-guard';
import { signPayload } from '@/lib/platform/crypto';
import { processSingleton } from '@/lib/platform/singleton';
import { WorkerPool } from '@/lib/platform/worker-pool';
import { decodePublisherAnswer, type DecodedAnswer } from './answer-task';

/**
 * The `http` backend connector (docs/api.md §6.2): signed POSTs to the publisher's endpoint over keep-alive pools. An
 * answer must be 2xx, at most 1 MiB counted on the stream and schema-valid, else `publisher_error`; none within the
 * timeout is `publisher_timeout`. Errors never carry the secrets.
 */
const MAX_ANSWER_BYTES = 1024 * 1024;
const streamedCitationsSchema = z.array(citationSchema).max(50);

export interface HttpBackendTarget {
  endpointUrl: string;
  infraKey: string;
  signingSecret: string;
  timeoutMs: number;
}

export type PublisherOutcome = { ok: true; answer: QueryAnswer } | { ok: false; code: 'publisher_error' | 'publisher_timeout'; reason: string };

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

type CheckedAddress = Extract<GuardResult, { ok: true }>;

/**
 * An endpoint prepared once per route-cache period: URL parsed, SSRF verdict taken (every call connects to the checked
 * address), secrets decrypted. That adds no exposure: the key that decrypts them lives in the same memory anyway.
 */
export class HttpConnector {
  private readonly url: URL;
  private readonly isHttps: boolean;
  private readonly authorization: string;
  private guard: Promise<GuardResult> | undefined;
  private options: http.RequestOptions | undefined;

  constructor(
    private readonly target: HttpBackendTarget,
    private readonly policy: GuardPolicy,
  ) {
    this.url = new URL(target.endpointUrl);
    this.isHttps = this.url.protocol === 'https:';
    this.authorization = `Bearer ${target.infraKey}`;
  }

  /** After the first call the address is known and checked: straight to the request, no async wrapper. */
  call(request: QueryRequest): Promise<PublisherOutcome> {
    return this.options ? this.send(this.options, request) : this.checkThenSend(request);
  }

  private async checkThenSend(request: QueryRequest): Promise<PublisherOutcome> {
    this.guard ??= resolveAndGuard(this.url, this.policy);
    const guard = await this.guard;
    if (!guard.ok) return { ok: false, code: 'publisher_error', reason: `endpoint refused: ${guard.reason}` };
    this.options ??= this.requestOptions(guard);
    return this.send(this.options, request);
  }

  private requestOptions(guard: CheckedAddress): http.RequestOptions {
    const { url } = this;
    return {
      protocol: url.protocol,
      // The hostname (not the address) so the Host header and TLS name checks are the endpoint's; the pinned lookup
      // decides where the socket goes.
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || (this.isHttps ? 443 : 80),
      path: url.pathname + url.search,
      method: 'POST',
      agent: this.isHttps ? pools().https : pools().http,
      lookup: pinnedLookup(guard.address, guard.family),
    };
  }

  private send(options: http.RequestOptions, request: QueryRequest): Promise<PublisherOutcome> {
    const body = JSON.stringify({ query: request.query, kb_id: request.kbId, request_id: request.requestId });
    const signature = signPayload(this.target.signingSecret, body, Math.floor(Date.now() / 1000));
    const timeoutMs = this.target.timeoutMs;
    return new Promise<PublisherOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: PublisherOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const requestFn = this.isHttps ? https.request : http.request;
      const req = requestFn(
        {
          ...options,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            // A buyer's stream asks the publisher for one (an optional extension of the publisher contract, §6.2).
            Accept: request.progress ? 'text/event-stream, application/json;q=0.9' : 'application/json',
            Authorization: this.authorization,
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
          const streamed = request.progress && status >= 200 && status < 300 && /^text\/event-stream/i.test(String(res.headers['content-type'] ?? ''));
          if (streamed) return readAnswerStream(res, request.progress!, finish);
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
            void decodeAnswer(Buffer.concat(chunks, size)).then((decoded) =>
              finish(decoded.ok ? { ok: true, answer: decoded.answer } : { ok: false, code: 'publisher_error', reason: decoded.reason }),
            );
          });
        },
      );
      const timer = setTimeout(() => {
        finish({ ok: false, code: 'publisher_timeout', reason: `no answer within ${timeoutMs} ms` });
        req.destroy();
      }, timeoutMs);
      const onAbort = () => {
        finish({ ok: false, code: 'publisher_error', reason: 'request aborted by the caller' });
        req.destroy();
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, code: 'publisher_error', reason: `connection failed (${err.code ?? 'error'})` }));
      req.end(body);
    });
  }
}

/** Answers up to this size are decoded on the calling thread; a worker round trip would cost more than it saves. */
export const INLINE_ANSWER_BYTES = 8 * 1024;
const ANSWER_DECODE_TIMEOUT_MS = 5_000;

const answerPool = () => processSingleton('publisher-answer-pool', () => new WorkerPool({ size: 2, maxHeapMb: 128, idleMs: 300_000 }));

export async function decodeAnswer(bytes: Buffer): Promise<DecodedAnswer> {
  if (bytes.length <= INLINE_ANSWER_BYTES) return decodePublisherAnswer(bytes);
  const copy = new Uint8Array(bytes);
  try {
    return await answerPool().run<DecodedAnswer>({
      module: 'lib/routing/answer-task.ts',
      exportName: 'decodePublisherAnswer',
      args: [copy],
      transfer: [copy.buffer],
      timeoutMs: ANSWER_DECODE_TIMEOUT_MS,
    });
  } catch (error) {
    return { ok: false, reason: `answer could not be read (${error instanceof Error ? error.message : 'worker failed'})` };
  }
}

/** Server-Sent Events `citations`, `delta`, then `done` or `error` (§6.2), passed on as they come and checked whole at the end. */
function readAnswerStream(res: http.IncomingMessage, progress: AnswerProgress, finish: (outcome: PublisherOutcome) => void): void {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let size = 0;
  let citations: Citation[] | null = null;
  let answer = '';
  let tokensUsed: number | null = null;
  let stopped = false;
  const fail = (reason: string) => {
    res.destroy();
    finish({ ok: false, code: 'publisher_error', reason });
  };
  const onEvent = (event: string, data: string): boolean => {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      fail('stream event is not JSON');
      return false;
    }
    switch (event) {
      case 'citations': {
        const parsed = streamedCitationsSchema.safeParse(json);
        if (!parsed.success || citations !== null) {
          fail('stream citations break the schema or come twice');
          return false;
        }
        citations = parsed.data;
        progress.citations(citations);
        return true;
      }
      case 'delta': {
        const text = (json as { text?: unknown })?.text;
        if (typeof text !== 'string' || citations === null) {
          fail('stream delta without text or before citations');
          return false;
        }
        answer += text;
        progress.delta(text);
        return true;
      }
      case 'done': {
        const used = (json as { tokens_used?: unknown })?.tokens_used;
        tokensUsed = typeof used === 'number' ? used : -1;
        return false;
      }
      default:
        fail(`stream event ${event.slice(0, 20)}`);
        return false;
    }
  };
  res.on('data', (chunk: Buffer) => {
    if (stopped) return;
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) return fail('answer larger than 1 MiB');
    buffer += decoder.write(chunk);
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue; // a comment (heartbeat)
      if (!onEvent(event, data.join('\n'))) {
        stopped = true;
        return;
      }
    }
  });
  res.on('error', () => finish({ ok: false, code: 'publisher_error', reason: 'answer stream failed' }));
  res.on('end', () => {
    if (tokensUsed === null) return finish({ ok: false, code: 'publisher_error', reason: 'stream ended without done' });
    const parsed = queryAnswerSchema.safeParse({ answer, citations, tokens_used: tokensUsed });
    finish(
      parsed.success ? { ok: true, answer: parsed.data } : { ok: false, code: 'publisher_error', reason: 'streamed answer breaks the query-answer schema' },
    );
  });
}

/** One call without a kept connector (diagnostics; the gateway keeps connectors with its route cache). */
export function callHttpBackend(target: HttpBackendTarget, request: QueryRequest, policy: GuardPolicy): Promise<PublisherOutcome> {
  return new HttpConnector(target, policy).call(request);
}
