import Negotiator from 'negotiator';
import { errorBody } from '@/lib/platform/errors';
import type { AnswerProgress, QueryAnswer } from '@/lib/query-answer';
import { overHttp, runKeyed, type GatewayRequest, type KeyedEndpoint } from './keyed';
import { deny, type GatewayOutcome } from './outcome';
import { meterAnswer } from './pipeline';
import { queryOf, type Parsed } from './request-body';

/**
 * Streaming answers (docs/api.md §10.4): up to the cap reservation errors are JSON as usual; after it, Server-Sent
 * Events `citations`, `delta`, `done` or `error`, with a heartbeat while the backend works. Counted at `done`.
 */
const HEARTBEAT_MS = 15_000;

export interface EventStreamWriter {
  open(headers: Record<string, string>): void;
  send(event: string, data: unknown): boolean;
  comment(text: string): boolean;
  close(): void;
  readonly isOpen: boolean;
}

// A media range with parameters only matches an offer with the same ones: a client may name the charset.
const ANSWER_TYPES = ['application/json', 'text/event-stream', 'text/event-stream; charset=utf-8'];

/**
 * By content negotiation (RFC 9110 §12.5.1): the stream must rank above JSON, so "application/json, text/event-stream"
 * (as MCP-style clients send), no Accept header and "*\/*" get JSON.
 */
export function wantsEventStream(accept: string | null | undefined): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(ANSWER_TYPES)?.startsWith('text/event-stream') ?? false;
}

const EVENT_STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };

/** One SSE frame; `data` is JSON on one line, so no payload can inject an event. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function answerPieces(answer: string): string[] {
  return answer.match(/[^.!?]*[.!?]+[\s]*|[^.!?]+$/g) ?? (answer ? [answer] : []);
}

export async function streamGatewayQuery(request: GatewayRequest, writer: EventStreamWriter, options: { heartbeatMs?: number } = {}): Promise<GatewayOutcome> {
  let heartbeat: NodeJS.Timeout | undefined;
  let citationsSent = false;
  let deltasSent = false;
  const progress: AnswerProgress = {
    citations: (citations) => {
      citationsSent = writer.send('citations', citations) || citationsSent;
    },
    delta: (text) => {
      if (text !== '') deltasSent = writer.send('delta', { text }) || deltasSent;
    },
  };
  const deliver = async (answer: QueryAnswer, usage: { used: number; cap: number }): Promise<boolean> => {
    clearInterval(heartbeat);
    if (!citationsSent && !writer.send('citations', answer.citations)) return false;
    if (!deltasSent) for (const text of answerPieces(answer.answer)) if (!writer.send('delta', { text })) return false;
    return writer.send('done', { tokens_used: answer.tokens_used, usage: { ...usage, remaining: Math.max(0, usage.cap - usage.used) } });
  };
  const streamed: KeyedEndpoint<string, QueryAnswer> = {
    parse: (json) => (request.idempotencyKey != null ? NOT_REPLAYABLE : queryOf(json)),
    call: (query, run) => {
      const onReserved = () => {
        writer.open({ ...run.headers, ...EVENT_STREAM_HEADERS });
        heartbeat = setInterval(() => writer.comment('heartbeat'), options.heartbeatMs ?? HEARTBEAT_MS);
        heartbeat.unref();
      };
      return meterAnswer(run, query, { deliver, onReserved, progress });
    },
  };
  try {
    const outcome = await runKeyed(overHttp(request), streamed);
    if (writer.isOpen && outcome.ok === false) writer.send('error', errorBody(outcome.code, outcome.message, request.requestId, outcome.extras));
    return outcome;
  } catch (err) {
    if (!writer.isOpen) throw err;
    writer.send('error', errorBody('internal_error', 'Something went wrong on our side. This query was not counted.', request.requestId));
    return deny('internal_error', 'stream failed');
  } finally {
    clearInterval(heartbeat);
    if (writer.isOpen) writer.close();
  }
}

const NOT_REPLAYABLE: Parsed<never> = {
  ok: false,
  code: 'invalid_query',
  message: 'A streamed answer cannot be replayed: send Idempotency-Key without "Accept: text/event-stream".',
};
