import Negotiator from 'negotiator';
import { errorBody } from '@/lib/platform/errors';
import type { AnswerProgress, QueryAnswer } from '@/lib/query-answer';
import { overHttp, runKeyed, type GatewayRequest, type KeyedEndpoint } from './keyed';
import { deny, type GatewayOutcome } from './outcome';
import { meterAnswer } from './pipeline';
import { queryOf, type Parsed } from './request-body';

/**
 * Streaming answers (docs/api.md §10.4): POST /kb/{kb_id}/query with `Accept: text/event-stream`. Everything up to the
 * cap reservation (rows 1–9) answers as usual, with a JSON error; from then on the answer is a stream of Server-Sent
 * Events — `citations` (the citations array), `delta` (`{text}`, pieces that concatenate to the answer), `done`
 * (`{tokens_used, usage: {used, cap, remaining}}`) or `error` (an error body) — with a comment every 15 s while the
 * backend works. Counted at `done` under the fair-metering rule; a client that leaves before `done` is not counted.
 */
const HEARTBEAT_MS = 15_000;

/** How a face writes the stream: opened once (status 200 and these headers), then events, then closed. */
export interface EventStreamWriter {
  open(headers: Record<string, string>): void;
  /** False when the client is gone. */
  send(event: string, data: unknown): boolean;
  comment(text: string): boolean;
  close(): void;
  readonly isOpen: boolean;
}

// A media range with parameters only matches an offer with the same ones: a client may name the charset.
const ANSWER_TYPES = ['application/json', 'text/event-stream', 'text/event-stream; charset=utf-8'];

/**
 * Whether the client prefers a stream, by content negotiation (RFC 9110 §12.5.1, with the maintained `negotiator`):
 * `text/event-stream` must be acceptable (q > 0) and rank above JSON by quality, then by its place in the header.
 * "Accept: text/event-stream" streams; "application/json, text/event-stream" (as MCP-style clients send) and
 * "text/event-stream;q=0" get JSON; no Accept header or "*\/*" gets JSON.
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

/** The answer in sentence-sized pieces that concatenate to exactly the answer. */
function answerPieces(answer: string): string[] {
  return answer.match(/[^.!?]*[.!?]+[\s]*|[^.!?]+$/g) ?? (answer ? [answer] : []);
}

/**
 * Runs a streamed query. Returns the outcome; when the stream was opened, the outcome's events were already written
 * (an error after the stream opened is sent as an `error` event here) and the writer is closed.
 */
export async function streamGatewayQuery(request: GatewayRequest, writer: EventStreamWriter, options: { heartbeatMs?: number } = {}): Promise<GatewayOutcome> {
  let heartbeat: NodeJS.Timeout | undefined;
  // A backend that answers piece by piece (a publisher streaming its answer) has its pieces sent as they come; the
  // rest is sent when the whole answer is in. Counting still happens once, at `done`.
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
