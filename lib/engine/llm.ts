import { createParser } from 'eventsource-parser';
import type { AnswerProgress, Citation, QueryAnswer } from '@/lib/query-answer';
import { capture, itemAt } from '@/lib/platform/arrays';
import { NO_ANSWER_TEXT } from './answer';
import { chunkSentences } from './paragraphs';
import type { RetrievedChunk } from './types';
import { countTokens } from './tokens';

/**
 * LLM mode: an OpenAI-compatible `/chat/completions` call (plain fetch; streamed with eventsource-parser when the
 * buyer streams, streamLlmAnswer). The model sees numbered passages, each
 * with its document title, page and heading, and must cite them as [n]; only the passages it cites become
 * citations (a marker of a passage it was not given is dropped), and their excerpts are verbatim text of the
 * passage, so the verbatim guarantee holds whatever the model writes. Every failure (unreachable, an error status,
 * a timeout, a body without message content, an answer citing no passage) is an LlmError, on which the caller
 * answers extractively; only a stream that breaks after its first piece cannot (StreamBroken, below).
 */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}

export const LLM_PASSAGES = 6;
const EXCERPT_CHARS = 400;

export class LlmError extends Error {}

export function buildMessages(query: string, passages: RetrievedChunk[]): Array<{ role: 'system' | 'user'; content: string }> {
  const numbered = passages
    .map((p, i) => `[${i + 1}] ${p.documentTitle}${p.page ? ` (page ${p.page})` : ''}${p.heading ? ` — ${p.heading}` : ''}\n${p.content}`)
    .join('\n\n');
  return [
    {
      role: 'system',
      content:
        'You answer questions using only the numbered passages provided. Cite every statement with the number of the passage ' +
        'it comes from in square brackets, like [2]. Cite only passages you actually used. If the passages do not contain the ' +
        'answer, reply exactly: NO_ANSWER',
    },
    { role: 'user', content: `Passages:\n\n${numbered}\n\nQuestion: ${query}` },
  ];
}

/** Passage numbers cited as [n], [n, m] or [n][m], in first-use order, within range. */
export function parseCitationMarkers(text: string, passageCount: number): number[] {
  const cited: number[] = [];
  for (const group of text.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const raw of capture(group, 1).split(/[,;]/)) {
      const n = Number(raw.trim());
      if (Number.isInteger(n) && n >= 1 && n <= passageCount && !cited.includes(n)) cited.push(n);
    }
  }
  return cited;
}

/** The passage's sentence sharing most words with the model's answer: a verbatim excerpt for the citation. */
function excerptFor(passage: RetrievedChunk, answer: string): string {
  const answerWords = new Set(answer.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let best = '';
  let bestScore = -1;
  for (const span of chunkSentences(passage.content)) {
    const text = passage.content.slice(span.start, span.end);
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const score = words.filter((w) => w.length > 3 && answerWords.has(w)).length;
    if (score > bestScore) {
      best = text;
      bestScore = score;
    }
  }
  const excerpt = best || passage.content;
  if (excerpt.length <= EXCERPT_CHARS) return excerpt;
  const cut = excerpt.lastIndexOf(' ', EXCERPT_CHARS);
  return excerpt.slice(0, cut > 100 ? cut : EXCERPT_CHARS);
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

/** The chat completion request: the numbered passages, the question, and whether to stream the reply. */
async function requestCompletion(config: LlmConfig, messages: ReturnType<typeof buildMessages>, stream: boolean, signal?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(config.timeoutMs ?? 25_000);
  const response = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify({ model: config.model, messages, temperature: 0, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  }).catch((error: unknown) => {
    throw new LlmError(`chat model unreachable: ${(error as Error).message}`);
  });
  if (!response.ok) throw new LlmError(`chat model answered ${response.status}`);
  return response;
}

type Usage = ChatCompletion['usage'];

function tokensOf(usage: Usage, messages: ReturnType<typeof buildMessages>, content: string): number {
  const total = Number(usage?.total_tokens);
  const reported = Number.isInteger(total) && total >= 0 ? total : Number(usage?.prompt_tokens ?? NaN) + Number(usage?.completion_tokens ?? NaN);
  return Number.isInteger(reported) && reported >= 0 ? reported : countTokens(messages.map((m) => m.content).join('\n')) + countTokens(content);
}

const MARKER = /\[(\d+(?:\s*[,;]\s*\d+)*)\]/g;

export async function composeLlmAnswer(config: LlmConfig, query: string, retrieved: RetrievedChunk[], signal?: AbortSignal): Promise<QueryAnswer> {
  const passages = retrieved.slice(0, LLM_PASSAGES);
  const messages = buildMessages(query, passages);
  const response = await requestCompletion(config, messages, false, signal);
  const body = (await response.json().catch(() => null)) as ChatCompletion | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new LlmError('chat model answer has no message content');
  return checkedAnswer(content, passages, tokensOf(body?.usage, messages, content));
}

/** The model's whole answer, checked: only the passages it cites become citations, renumbered in first-use order. */
function checkedAnswer(content: string, passages: RetrievedChunk[], tokensUsed: number): QueryAnswer {
  const text = content.trim();
  if (text === '' || /^NO_ANSWER\b/.test(text)) return { answer: NO_ANSWER_TEXT, citations: [], tokens_used: tokensUsed };
  const cited = parseCitationMarkers(text, passages.length);
  // An answer that cites none of the passages (no marker, or only invented ones) cannot be checked against them:
  // the knowledge base answers extractively instead.
  if (cited.length === 0) throw new LlmError('chat model answer cites none of the passages');
  // Renumber the markers to the citations array, which lists only the passages the model used.
  const renumber = new Map(cited.map((n, i) => [n, i + 1]));
  const answer = text.replace(MARKER, (whole, group: string) => {
    const mapped = group
      .split(/[,;]/)
      .map((raw) => renumber.get(Number(raw.trim())))
      .filter((n): n is number => n !== undefined);
    return mapped.length ? `[${mapped.join(', ')}]` : '';
  });
  const citations: Citation[] = cited.map((n) => {
    const p = itemAt(passages, n - 1);
    return { document_id: p.documentId, title: p.documentTitle, excerpt: excerptFor(p, text), page: p.page };
  });
  return { answer: answer.replace(/\s+([.,;:])/g, '$1').trim(), citations, tokens_used: tokensUsed };
}

/**
 * A chat model's answer streamed as it is written (docs/api.md §10.4). The checks of the whole answer cannot wait for
 * its end here, so they move to its start: nothing is sent until the model has cited one of the passages it was given
 * (an answer that never does, or that says NO_ANSWER, is handled as by composeLlmAnswer, and nothing was sent). Then
 * the `citations` event lists every passage the model was given, in the order its markers number them, so that its
 * markers need no renumbering, and the text follows piece by piece, markers of passages it was not given dropped.
 * A failure after the first piece cannot fall back to the extractive answer: it is a StreamBroken error (the stream
 * ends with an error event and the query is not counted).
 */
export class StreamBroken extends Error {}

export async function streamLlmAnswer(
  config: LlmConfig,
  query: string,
  retrieved: RetrievedChunk[],
  progress: AnswerProgress,
  signal?: AbortSignal,
): Promise<QueryAnswer> {
  const passages = retrieved.slice(0, LLM_PASSAGES);
  const messages = buildMessages(query, passages);
  const response = await requestCompletion(config, messages, true, signal);
  if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
    // A server that ignores `stream` answers whole: checked like any whole answer, then sent in one piece.
    const body = (await response.json().catch(() => null)) as ChatCompletion | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmError('chat model answer has no message content');
    return checkedAnswer(content, passages, tokensOf(body?.usage, messages, content));
  }
  let raw = '';
  let sent = '';
  let started = false;
  let usage: Usage;
  let broken: string | null = null;
  let citations: Citation[] = [];
  const valid = (group: string) =>
    group
      .split(/[,;]/)
      .map((n) => Number(n.trim()))
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= passages.length);
  // The text that can be sent: invalid markers dropped, an unclosed "[" at the end held back until it closes.
  const ready = (final: boolean) => {
    const open = raw.lastIndexOf('[');
    const upTo = !final && open >= 0 && !raw.includes(']', open) ? open : raw.length;
    return raw
      .slice(0, upTo)
      .replace(/(\s*)\[(\d+(?:\s*[,;]\s*\d+)*)\]/g, (whole, space: string, group: string) =>
        valid(group).length ? `${space}[${valid(group).join(', ')}]` : '',
      )
      .replace(/^\s+/, '');
  };
  const flush = (final: boolean) => {
    if (!started) {
      if (parseCitationMarkers(raw, passages.length).length === 0) return;
      started = true;
      citations = passages.map((p) => ({ document_id: p.documentId, title: p.documentTitle, excerpt: excerptFor(p, raw), page: p.page }));
      progress.citations(citations);
    }
    const text = ready(final);
    // Text already sent never changes: a marker dropped later only shortens what follows it.
    if (text.length > sent.length && text.startsWith(sent)) {
      progress.delta(text.slice(sent.length));
      sent = text;
    }
  };
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      let chunk: { choices?: Array<{ delta?: { content?: unknown } }>; usage?: Usage };
      try {
        chunk = JSON.parse(event.data);
      } catch {
        broken = 'chat model stream event is not JSON';
        return;
      }
      if (chunk.usage) usage = chunk.usage;
      const piece = chunk.choices?.[0]?.delta?.content;
      if (typeof piece === 'string' && piece !== '') {
        raw += piece;
        flush(false);
      }
    },
  });
  try {
    const decoder = new TextDecoder();
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(bytes, { stream: true }));
      if (broken) break;
    }
  } catch (error) {
    broken = `chat model stream broke: ${(error as Error).message}`;
  }
  if (broken) {
    if (started) throw new StreamBroken(broken);
    throw new LlmError(broken);
  }
  if (!started) return checkedAnswer(raw, passages, tokensOf(usage, messages, raw));
  flush(true);
  return { answer: sent, citations, tokens_used: tokensOf(usage, messages, raw) };
}
