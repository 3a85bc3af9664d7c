import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { oauthClients } from '@/db/schema';
import { getRateLimiter } from '@/lib/limits';
import { UNKNOWN_ADDRESS } from '@/lib/platform/client-address';
import type { Executor } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { isCleanId, isCleanText } from '@/lib/platform/text-input';
import { fetchClientMetadata, isClientMetadataUrl, type ClientMetadataOptions } from './client-metadata';
import { isAllowedRedirect } from './redirect-uris';

/**
 * The authorization server's clients (docs/api.md §10.7), all public (PKCE protects the code): registered with RFC 7591,
 * or identified by a client ID metadata document whose row caches the document.
 */
export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  /** The host of a metadata-document client's URL: the consent page names it (the draft's defence against phishing). */
  metadataHost: string | null;
}

const RegistrationSchema = z.object({
  client_name: z.string().trim().min(1).max(100).refine(isCleanText).optional(),
  redirect_uris: z
    .array(z.string().max(2000).refine(isAllowedRedirect, 'each redirect URI must be https, or http on a loopback address, without a fragment'))
    .min(1)
    .max(10),
  grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
  response_types: z.array(z.literal('code')).optional(),
  token_endpoint_auth_method: z.literal('none').optional(),
});

export type RegistrationResult =
  { ok: true; client: Record<string, unknown> } | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

export async function registerClient(db: Executor, metadata: unknown, now: Date = new Date()): Promise<RegistrationResult> {
  const parsed = RegistrationSchema.safeParse(metadata);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'metadata');
    const description = field === 'token_endpoint_auth_method' ? 'Only public clients ("none", with PKCE) are registered.' : `${field}: ${issue.message}`;
    return { ok: false, error: field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata', description };
  }
  const id = newId('cli');
  const name = parsed.data.client_name ?? new URL(parsed.data.redirect_uris[0]!).hostname;
  await db.insert(oauthClients).values({ id, name, redirectUris: parsed.data.redirect_uris, createdAt: now });
  return {
    ok: true,
    client: {
      client_id: id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: name,
      redirect_uris: parsed.data.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  };
}

/** Fetches go to URLs the requester chose and failures are not cached, so unlimited they could aim this server at any host. */
const CLIENT_METADATA_FETCHES_PER_MINUTE = 10;

async function refuseMetadataFetch(requesterAddress: string | undefined): Promise<string | null> {
  if (!requesterAddress || requesterAddress === UNKNOWN_ADDRESS) return null;
  const state = await getRateLimiter().consume(`oauth-client-metadata:${requesterAddress}`, { limit: CLIENT_METADATA_FETCHES_PER_MINUTE, windowMs: 60_000 });
  if (state.allowed) return null;
  const seconds = state.retryAfterSeconds;
  return `Too many applications were looked up from your address (at most ${CLIENT_METADATA_FETCHES_PER_MINUTE} a minute); try again in ${seconds === 1 ? 'a second' : `${seconds} seconds`}.`;
}

export type ClientLookup = { ok: true; client: OAuthClient } | { ok: false; description: string };

/** Fetched when the cached row is absent or stale; the row is written first because codes, tokens and grants reference it. */
export async function resolveClient(db: Executor, clientId: string, now: Date = new Date(), options: ClientMetadataOptions = {}): Promise<ClientLookup> {
  if (!isClientMetadataUrl(clientId)) {
    const client = await findRegisteredClient(db, clientId);
    return client ? { ok: true, client } : { ok: false, description: 'This application is not registered with Almanac (unknown client_id).' };
  }
  const [cached] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  const metadataHost = new URL(clientId).host;
  if (cached?.metadataExpiresAt && cached.metadataExpiresAt.getTime() > now.getTime()) {
    return { ok: true, client: { id: cached.id, name: cached.name, redirectUris: cached.redirectUris, metadataHost } };
  }
  const refused = await refuseMetadataFetch(options.requesterAddress);
  if (refused) return { ok: false, description: refused };
  const fetched = await fetchClientMetadata(clientId, options);
  if (!fetched.ok) return { ok: false, description: `The application's client metadata document (${clientId}) cannot be used: ${fetched.reason}.` };
  const { name, redirectUris, maxAgeS } = fetched.metadata;
  const row = { name, redirectUris, metadataExpiresAt: new Date(now.getTime() + maxAgeS * 1000) };
  await db
    .insert(oauthClients)
    .values({ id: clientId, ...row, createdAt: now })
    .onConflictDoUpdate({ target: oauthClients.id, set: row });
  return { ok: true, client: { id: clientId, name, redirectUris, metadataHost } };
}

async function findRegisteredClient(db: Executor, clientId: string): Promise<OAuthClient | null> {
  if (!isCleanId(clientId) || clientId.length > 100) return null;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return row ? { id: row.id, name: row.name, redirectUris: row.redirectUris, metadataHost: null } : null;
}
