import { createParser } from 'eventsource-parser';
import type { AnswerProgress, Citation, QueryAnswer } from '@/lib/query-answer';
import { capture, itemAt } from '@/lib/platform/arrays';
import { NO_ANSWER_TEXT } from './answer';
import { chunkSentences } from './paragraphs';
import type { RetrievedChunk } from './types';
import { countTokens } from './tokens';

/** Answers by an OpenAI-compatible chat model (docs/api.md §8.2); on any LlmError the caller answers extractively. */
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

function checkedAnswer(content: string, passages: RetrievedChunk[], tokensUsed: number): QueryAnswer {
  const text = content.trim();
  if (text === '' || /^NO_ANSWER\b/.test(text)) return { answer: NO_ANSWER_TEXT, citations: [], tokens_used: tokensUsed };
  const cited = parseCitationMarkers(text, passages.length);
  // An answer citing none of the passages cannot be checked against them: the knowledge base answers extractively.
  if (cited.length === 0) throw new LlmError('chat model answer cites none of the passages');
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
 * Streamed as written (§10.4): nothing is sent until the model cites a passage it was given; then `citations` lists
 * every passage given, so markers need no renumbering. A later failure is a StreamBroken error.
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
