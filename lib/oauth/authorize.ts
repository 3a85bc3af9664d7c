import { eq } from 'drizzle-orm';
import { knowledgeBases, oauthCodes } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { siteUrl } from '@/lib/platform/base-url';
import { listSubscriptionsForUser, type SubscriptionView } from '@/lib/subscriptions';
import type { ClientMetadataOptions } from './client-metadata';
import { resolveClient, type OAuthClient } from './clients';
import { knowledgeBaseOfResource } from './metadata';
import { CODE_TTL_MS, hashOpaqueToken, newOpaqueToken, OAUTH_SCOPE } from './tokens';

/**
 * The authorization endpoint's logic (docs/api.md §10.7), under the thin consent page: the request checked (known
 * client, exact redirect URI, PKCE S256, a `resource` naming one knowledge base here), the buyer's subscriptions to it
 * offered, and on consent a single-use code for the chosen one.
 */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  kbId: string;
  kbTitle: string;
}

export type ParsedAuthorization =
  | { ok: true; request: AuthorizationRequest }
  /** Errors that must not be sent to the redirect URI (an unknown client or redirect URI): shown on the page. */
  | { ok: false; redirect: null; description: string }
  /** Errors reported to the client at its redirect URI (RFC 6749 §4.1.2.1). */
  | { ok: false; redirect: string; description: string };

function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', siteUrl('/').replace(/\/$/, ''));
  return url.toString();
}

export async function parseAuthorizationRequest(db: Executor, params: URLSearchParams, options: ClientMetadataOptions = {}): Promise<ParsedAuthorization> {
  const found = await resolveClient(db, params.get('client_id') ?? '', new Date(), options);
  if (!found.ok) return { ok: false, redirect: null, description: found.description };
  const { client } = found;
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!client.redirectUris.includes(redirectUri)) return { ok: false, redirect: null, description: 'The redirect_uri is not one this application registered.' };
  const state = params.get('state');
  const fail = (error: string, description: string): ParsedAuthorization => ({
    ok: false,
    redirect: redirectWith(redirectUri, { error, error_description: description, state }),
    description,
  });
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const codeChallenge = params.get('code_challenge') ?? '';
  if (params.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    return fail('invalid_request', 'PKCE is required: code_challenge (S256) and code_challenge_method=S256.');
  }
  const scope = params.get('scope');
  if (scope !== null && scope.split(' ').some((s) => s !== '' && s !== OAUTH_SCOPE)) return fail('invalid_scope', `The only scope is ${OAUTH_SCOPE}.`);
  const resource = params.get('resource') ?? '';
  const kbId = knowledgeBaseOfResource(resource);
  const [kb] = kbId
    ? await db.select({ title: knowledgeBases.title, status: knowledgeBases.status }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).limit(1)
    : [];
  if (!kbId || !kb || kb.status === 'draft' || kb.status === 'archived') {
    return fail('invalid_target', 'resource must name one knowledge base on this site: <base>/kb/<kb_id>/mcp or <base>/kb/<kb_id>.');
  }
  return { ok: true, request: { client, redirectUri, state, codeChallenge, resource, kbId, kbTitle: kb.title } };
}

export async function consentChoices(db: Executor, userId: string, kbId: string): Promise<SubscriptionView[]> {
  return (await listSubscriptionsForUser(db, userId)).filter((s) => s.kbId === kbId && s.status === 'active');
}

/** Consent: a code for the chosen subscription and this client (its key is made at the exchange), and where to send the browser. */
export async function approveAuthorization(
  db: Executor,
  userId: string,
  request: AuthorizationRequest,
  subscriptionId: string,
  now: Date = new Date(),
): Promise<{ ok: true; redirect: string } | { ok: false; description: string }> {
  const subscription = (await consentChoices(db, userId, request.kbId)).find((s) => s.id === subscriptionId);
  if (!subscription) return { ok: false, description: 'Choose one of your active subscriptions to this knowledge base.' };
  const code = newOpaqueToken('ac');
  await db.insert(oauthCodes).values({
    codeHash: hashOpaqueToken(code),
    clientId: request.client.id,
    subscriptionId: subscription.id,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  return { ok: true, redirect: redirectWith(request.redirectUri, { code, state: request.state }) };
}

/** The buyer said no (RFC 6749 §4.1.2.1 access_denied). */
export function denyAuthorization(request: AuthorizationRequest): string {
  return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The buyer did not allow access.', state: request.state });
}
