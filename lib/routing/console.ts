import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases } from '@/db/schema';
import { decryptSecret } from '@/lib/platform/crypto';
import { getEnv } from '@/lib/platform/env';
import { guardPolicy } from '@/lib/platform/ssrf-guard';
import { getRateLimiter } from '@/lib/limits';
import { newRequestId } from '@/lib/platform/http';
import { inTransaction, type Refusal } from '@/lib/platform/transactions';
import { requireOwnedKnowledgeBase } from '@/lib/publishing';
import type { QueryAnswer } from '@/lib/query-answer';
import { configureHttpBackend, prepareRoute, routeQuery, type ConfigureResult } from './backends';

/**
 * The publisher console's side of routing (docs/api.md §9.5): http backend settings, whose secrets are write-only (a
 * blank field keeps the stored one), and "try it", answered through exactly the gateway's route but outside the
 * gateway (no cap, no analytics). It is still rate-limited per account: each question costs a backend as much as a buyer's.
 */

export interface BackendSettingsView {
  kind: 'hosted' | 'http';
  endpointUrl: string | null;
  timeoutMs: number;
  hasInfraKey: boolean;
  hasSigningSecret: boolean;
}

export async function getBackendSettings(
  db: Executor,
  userId: string,
  kbId: unknown,
): Promise<{ ok: true; settings: BackendSettingsView } | Refusal<'not_found'>> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  const { kb } = owned;
  return {
    ok: true,
    settings: {
      kind: kb.backendKind,
      endpointUrl: kb.endpointUrl,
      timeoutMs: kb.timeoutMs,
      hasInfraKey: Boolean(kb.infraKeyEncrypted),
      hasSigningSecret: Boolean(kb.signingSecretEncrypted),
    },
  };
}

export interface HttpBackendForm {
  kbId: string;
  endpointUrl: string;
  /** Blank: keep the stored one. */
  infraKey?: string;
  signingSecret?: string;
  timeoutMs?: number;
}

/** Saves the http backend of an owned knowledge base (the SSRF guard judges the endpoint as production will). */
export async function saveHttpBackend(db: Executor, userId: string, form: HttpBackendForm): Promise<ConfigureResult | Refusal<'not_found'>> {
  const owned = await requireOwnedKnowledgeBase(db, userId, form.kbId);
  if (!owned.ok) return owned;
  const keep = (given: string | undefined, stored: string | null) => (given && given.length > 0 ? given : stored ? decryptSecret(stored) : '');
  let infraKey: string;
  let signingSecret: string;
  try {
    infraKey = keep(form.infraKey, owned.kb.infraKeyEncrypted);
    signingSecret = keep(form.signingSecret, owned.kb.signingSecretEncrypted);
  } catch {
    return { ok: false, code: 'invalid_request', message: 'The stored secrets cannot be read with this server’s secret: enter both again.' };
  }
  return configureHttpBackend(db, { kbId: owned.kb.id, endpointUrl: form.endpointUrl, infraKey, signingSecret, timeoutMs: form.timeoutMs }, guardPolicy());
}

/** Back to the engine; the endpoint and secrets are forgotten, since a secret no longer used is one less to leak. */
export async function switchToHostedBackend(db: Executor, userId: string, kbId: unknown): Promise<{ ok: true } | Refusal<'not_found'>> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  await inTransaction(db, async (tx) => {
    await tx
      .update(knowledgeBases)
      .set({ backendKind: 'hosted', endpointUrl: null, infraKeyEncrypted: null, signingSecretEncrypted: null })
      .where(eq(knowledgeBases.id, owned.kb.id));
    // A listing created with an http backend has no engine statistics row yet (lib/publishing/listings.ts).
    await tx.execute(sql`insert into kb_index_stats (kb_id) values (${owned.kb.id}) on conflict do nothing`);
  });
  return { ok: true };
}

export type TryOutcome =
  { ok: true; requestId: string; latencyMs: number; answer: QueryAnswer } | { ok: false; requestId: string; latencyMs: number; code: string; reason: string };

/** The console's own limit was reached: the page shows the message, the answer carries Retry-After. */
export interface TryLimited {
  ok: false;
  code: 'rate_limit_exceeded';
  message: string;
  retryAfterSeconds: number;
}

const CONSOLE_WINDOW_MS = 60_000;

export async function tryKnowledgeBase(db: Executor, userId: string, kbId: unknown, query: string): Promise<TryOutcome | TryLimited | Refusal<'not_found'>> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  const limit = getEnv().CONSOLE_QUERIES_PER_MINUTE;
  const state = await getRateLimiter().consume(`console-query:${userId}`, { limit, windowMs: CONSOLE_WINDOW_MS });
  if (!state.allowed) {
    return {
      ok: false,
      code: 'rate_limit_exceeded',
      message: `The console allows ${limit} test questions a minute per account, across all your listings. Try again in ${state.retryAfterSeconds} s.`,
      retryAfterSeconds: state.retryAfterSeconds,
    };
  }
  const route = prepareRoute(owned.kb);
  const requestId = newRequestId();
  const started = performance.now();
  const outcome = await routeQuery(route, { kbId: owned.kb.id, query, requestId });
  const latencyMs = Math.round(performance.now() - started);
  return outcome.ok
    ? { ok: true, requestId, latencyMs, answer: outcome.answer }
    : { ok: false, requestId, latencyMs, code: outcome.code, reason: outcome.reason };
}
