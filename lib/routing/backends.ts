import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '@/db/client';
import { knowledgeBases, type KnowledgeBase } from '@/db/schema';
import { answerHostedQuery, findPassages, type Passage } from '@/lib/engine';
import { getDb } from '@/lib/platform/db';
import { decryptSecret, encryptSecret } from '@/lib/platform/crypto';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { HttpConnector, type PublisherOutcome } from './http-connector';
import { guardPolicy, parseEndpointUrl, resolveAndGuard, type GuardPolicy } from '@/lib/platform/ssrf-guard';
import { queryAnswerSchema, type QueryRequest } from '@/lib/query-answer';

/**
 * Publisher routing (docs/api.md §6): a knowledge base answers through the `hosted` engine or the publisher's `http`
 * endpoint. The gateway prepares a route once per cache period and calls routeQuery with it for every query; secrets
 * are decrypted when the route is prepared and live only inside its connector, never returned or logged.
 */
export interface KnowledgeBaseRoute {
  id: string;
  status: KnowledgeBase['status'];
  backendKind: 'hosted' | 'http';
  endpointUrl: string | null;
  infraKeyEncrypted: string | null;
  signingSecretEncrypted: string | null;
  timeoutMs: number;
}

export async function findKnowledgeBaseRoute(db: Executor, kbId: string): Promise<KnowledgeBaseRoute | null> {
  const [row] = await db
    .select({
      id: knowledgeBases.id,
      status: knowledgeBases.status,
      backendKind: knowledgeBases.backendKind,
      endpointUrl: knowledgeBases.endpointUrl,
      infraKeyEncrypted: knowledgeBases.infraKeyEncrypted,
      signingSecretEncrypted: knowledgeBases.signingSecretEncrypted,
      timeoutMs: knowledgeBases.timeoutMs,
    })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.id, kbId))
    .limit(1);
  return row ?? null;
}

export type RouteOutcome = PublisherOutcome | { ok: false; code: 'internal_error'; reason: string };

/** How a prepared route answers: the built-in engine, a publisher connector, or the same failure every time. */
type Backend = { kind: 'hosted' } | { kind: 'http'; connector: HttpConnector } | { kind: 'unusable'; outcome: RouteOutcome };

/** A knowledge base's route with its backend ready to call (no secrets in the visible fields). */
export interface PreparedRoute {
  id: string;
  status: KnowledgeBaseRoute['status'];
  timeoutMs: number;
  backend: Backend;
}

export function prepareRoute(kb: KnowledgeBaseRoute): PreparedRoute {
  const timeoutMs = kb.timeoutMs > 0 ? kb.timeoutMs : getEnv().PUBLISHER_TIMEOUT_MS;
  return { id: kb.id, status: kb.status, timeoutMs, backend: prepareBackend(kb, timeoutMs) };
}

function prepareBackend(kb: KnowledgeBaseRoute, timeoutMs: number): Backend {
  if (kb.backendKind !== 'http') return { kind: 'hosted' };
  if (!kb.endpointUrl || !kb.infraKeyEncrypted || !kb.signingSecretEncrypted) {
    return { kind: 'unusable', outcome: { ok: false, code: 'publisher_error', reason: 'the http backend is not configured' } };
  }
  try {
    const infraKey = decryptSecret(kb.infraKeyEncrypted);
    const signingSecret = decryptSecret(kb.signingSecretEncrypted);
    return { kind: 'http', connector: new HttpConnector({ endpointUrl: kb.endpointUrl, infraKey, signingSecret, timeoutMs }, guardPolicy()) };
  } catch {
    // Wrong ALMANAC_SECRET or a tampered row: our fault, not the publisher's.
    return { kind: 'unusable', outcome: { ok: false, code: 'internal_error', reason: 'publisher secrets cannot be decrypted with this server secret' } };
  }
}

export async function loadKnowledgeBaseRoute(db: Executor, kbId: string): Promise<PreparedRoute | null> {
  const row = await findKnowledgeBaseRoute(db, kbId);
  return row ? prepareRoute(row) : null;
}

/** Not async itself: the publisher's call is the promise the gateway awaits, with no wrapper around it. */
export function routeQuery(route: PreparedRoute, request: QueryRequest): Promise<RouteOutcome> {
  switch (route.backend.kind) {
    case 'http':
      return route.backend.connector.call(request);
    case 'unusable':
      return Promise.resolve(route.backend.outcome);
    case 'hosted':
      return answerHosted(route, request);
  }
}

/** The built-in engine under a publisher's timeout; its failures are ours (500). A buyer's hang-up stops it too. */
async function underTimeout<T>(
  kb: PreparedRoute,
  request: Pick<QueryRequest, 'requestId' | 'signal'>,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ ok: true; value: T } | Extract<RouteOutcome, { ok: false }>> {
  const { timeoutMs } = kb;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  request.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Extract<RouteOutcome, { ok: false }>>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, code: 'publisher_timeout', reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const working = work(controller.signal).then(
    (value) => ({ ok: true as const, value }),
    (err): Extract<RouteOutcome, { ok: false }> => {
      log.error({ err, request_id: request.requestId, kb_id: kb.id }, 'hosted engine failed');
      return { ok: false, code: 'internal_error', reason: 'hosted engine failed' };
    },
  );
  try {
    return await Promise.race([working, timeout]);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onOuterAbort);
  }
}

async function answerHosted(kb: PreparedRoute, request: QueryRequest): Promise<RouteOutcome> {
  const answered = await underTimeout(kb, request, (signal) => answerHostedQuery({ ...request, kbId: kb.id, signal }));
  if (!answered.ok) return answered;
  const parsed = queryAnswerSchema.safeParse(answered.value);
  return parsed.success ? { ok: true, answer: parsed.data } : { ok: false, code: 'internal_error', reason: 'engine answer breaks the schema' };
}

export interface SearchRequest extends Pick<QueryRequest, 'query' | 'requestId' | 'signal'> {
  topK: number;
}

export type SearchOutcome = { ok: true; passages: Passage[] } | Extract<RouteOutcome, { ok: false }>;

/** A hosted index is searched; an `http` backend has no search call (§6), so its citations, scored by rank, are the passages. */
export async function routeSearch(route: PreparedRoute, request: SearchRequest): Promise<SearchOutcome> {
  if (route.backend.kind === 'hosted') {
    const found = await underTimeout(route, request, async (signal) => findPassages(await getDb(), route.id, request.query, request.topK, signal));
    return found.ok ? { ok: true, passages: found.value } : found;
  }
  const answered = await routeQuery(route, { kbId: route.id, query: request.query, requestId: request.requestId, signal: request.signal });
  if (!answered.ok) return answered;
  const passages = answered.answer.citations.slice(0, request.topK).map((citation, rank) => ({
    documentId: citation.document_id,
    title: citation.title,
    excerpt: citation.excerpt,
    page: citation.page,
    heading: null,
    score: Math.round((1 / (rank + 1)) * 1e4) / 1e4,
  }));
  return { ok: true, passages };
}

const httpBackendInputSchema = z.object({
  kbId: z.string().min(1),
  endpointUrl: z.string().min(1).max(2_000),
  infraKey: z.string().min(16, 'the infrastructure key must be at least 16 characters').max(1_000),
  signingSecret: z.string().min(32, 'the signing secret must be at least 32 characters').max(1_000),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
});

export type HttpBackendInput = z.input<typeof httpBackendInputSchema>;

export type ConfigureResult =
  | { ok: true; kbId: string; endpointUrl: string; timeoutMs: number }
  | { ok: false; code: 'invalid_request' | 'knowledge_base_not_found'; message: string; fieldErrors?: Record<string, string> };

/** "the key must be…" → "The key must be…." for a message shown alone under its field. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/** Validates the endpoint (the SSRF guard after DNS) and stores both secrets encrypted; the answer never carries them. */
export async function configureHttpBackend(db: Executor, input: HttpBackendInput, policy: GuardPolicy = guardPolicy()): Promise<ConfigureResult> {
  const parsed = httpBackendInputSchema.safeParse(input);
  // The message names the fields (for the CLI); fieldErrors holds each field's own, for the console's form.
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= sentence(issue.message);
    return { ok: false, code: 'invalid_request', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), fieldErrors };
  }
  const value = parsed.data;
  const endpoint = parseEndpointUrl(value.endpointUrl);
  if (!endpoint.ok)
    return { ok: false, code: 'invalid_request', message: `endpointUrl: ${endpoint.reason}`, fieldErrors: { endpointUrl: sentence(endpoint.reason) } };
  const guard = await resolveAndGuard(endpoint.url, policy);
  if (!guard.ok) return { ok: false, code: 'invalid_request', message: `endpointUrl: ${guard.reason}`, fieldErrors: { endpointUrl: sentence(guard.reason) } };
  const timeoutMs = value.timeoutMs ?? getEnv().PUBLISHER_TIMEOUT_MS;
  const updated = await db
    .update(knowledgeBases)
    .set({
      backendKind: 'http',
      endpointUrl: endpoint.url.toString(),
      infraKeyEncrypted: encryptSecret(value.infraKey),
      signingSecretEncrypted: encryptSecret(value.signingSecret),
      // updated_at is left alone: it means "content updated" in the catalogue, and this is plumbing.
      timeoutMs,
    })
    .where(eq(knowledgeBases.id, value.kbId))
    .returning({ id: knowledgeBases.id });
  if (updated.length === 0) return { ok: false, code: 'knowledge_base_not_found', message: 'No such knowledge base.' };
  return { ok: true, kbId: value.kbId, endpointUrl: endpoint.url.toString(), timeoutMs };
}
