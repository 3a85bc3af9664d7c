import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { apiKeys, oauthClients, oauthCodes, oauthTokens, subscriptions } from '@/db/schema';
import { issueKey, KEY_NAME_MAX_LENGTH } from '@/lib/keys';
import type { Executor } from '@/lib/platform/db';
import { inTransaction } from '@/lib/platform/transactions';

/**
 * Opaque tokens (docs/api.md §10.7): `alm_at_` access tokens (one hour) and `alm_rt_` refresh tokens (30 days,
 * rotated on each use), 32 random bytes each, stored only as SHA-256 hashes like keys. Each acts as its grant's key
 * (an api_keys row that no one sees), so the gateway meters, limits, scopes and revokes it exactly as that key.
 */
const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;
export const CODE_TTL_MS = 10 * 60 * 1000;
const TOKEN_PATTERN = /^alm_(at|rt|ac)_[A-Za-z0-9_-]{43}$/;

export type OpaqueKind = 'at' | 'rt' | 'ac';

export function newOpaqueToken(kind: OpaqueKind): string {
  return `alm_${kind}_${randomBytes(32).toString('base64url')}`;
}

/** The kind of a well-formed token, or null: malformed ones are refused without touching the database. */
export function opaqueKindOf(token: string): OpaqueKind | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? (match[1] as OpaqueKind) : null;
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) equals the challenge; the verifier is 43–128 unreserved characters. */
function verifyPkce(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export const OAUTH_SCOPE = 'kb:query';

async function issuePair(tx: Executor, grant: { keyId: string; clientId: string; resource: string }, now: Date): Promise<TokenPair> {
  const access = newOpaqueToken('at');
  const refresh = newOpaqueToken('rt');
  await tx.insert(oauthTokens).values([
    { tokenHash: hashOpaqueToken(access), kind: 'access', ...grant, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000) },
    { tokenHash: hashOpaqueToken(refresh), kind: 'refresh', ...grant, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS) },
  ]);
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope: OAUTH_SCOPE };
}

export type TokenResult = { ok: true; tokens: TokenPair } | { ok: false; error: 'invalid_grant' | 'invalid_request'; description: string };

const invalidGrant = (description: string): TokenResult => ({ ok: false, error: 'invalid_grant', description });

/** Revokes a grant: its key (so every instance refuses its tokens within the key cache's half second) and its tokens. */
async function revokeGrant(tx: Executor, keyId: string, now: Date): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  await tx.delete(oauthTokens).where(eq(oauthTokens.keyId, keyId));
}

/** grant_type=authorization_code: the code once, for its client and redirect URI, with the PKCE verifier and resource. */
export async function exchangeCode(
  db: Executor,
  input: { code: string; clientId: string; redirectUri: string; codeVerifier: string; resource: string | null },
  now: Date = new Date(),
): Promise<TokenResult> {
  if (opaqueKindOf(input.code) !== 'ac') return invalidGrant('The authorization code is not valid.');
  return inTransaction(db, async (tx) => {
    const [code] = await tx
      .select()
      .from(oauthCodes)
      .where(eq(oauthCodes.codeHash, hashOpaqueToken(input.code)))
      .for('update');
    if (!code || code.clientId !== input.clientId) return invalidGrant('The authorization code is not valid.');
    if (code.usedAt) {
      // RFC 6749 §4.1.2: a code used twice revokes what it granted.
      if (code.keyId) await revokeGrant(tx, code.keyId, now);
      return invalidGrant('The authorization code was already used; its grant is revoked.');
    }
    if (code.expiresAt.getTime() <= now.getTime()) return invalidGrant('The authorization code has expired.');
    if (code.redirectUri !== input.redirectUri) return invalidGrant('redirect_uri differs from the authorization request’s.');
    if (input.resource !== null && input.resource !== code.resource) return invalidGrant('resource differs from the authorization request’s.');
    if (!verifyPkce(input.codeVerifier, code.codeChallenge)) return invalidGrant('The PKCE code_verifier does not match the code_challenge.');
    const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, code.subscriptionId));
    const [client] = await tx.select({ name: oauthClients.name }).from(oauthClients).where(eq(oauthClients.id, code.clientId));
    if (!subscription || !client) return invalidGrant('The authorization code is not valid.');
    const key = await issueKey(tx, subscription, `OAuth: ${client.name}`.slice(0, KEY_NAME_MAX_LENGTH), code.clientId);
    await tx.update(oauthCodes).set({ usedAt: now, keyId: key.id }).where(eq(oauthCodes.codeHash, code.codeHash));
    return { ok: true, tokens: await issuePair(tx, { keyId: key.id, clientId: code.clientId, resource: code.resource }, now) };
  });
}

/** grant_type=refresh_token: rotation; a refresh token used a second time revokes the whole grant (OAuth 2.1 §4.3.1). */
export async function refreshTokens(
  db: Executor,
  input: { refreshToken: string; clientId: string; resource: string | null },
  now: Date = new Date(),
): Promise<TokenResult> {
  if (opaqueKindOf(input.refreshToken) !== 'rt') return invalidGrant('The refresh token is not valid.');
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select()
      .from(oauthTokens)
      .where(eq(oauthTokens.tokenHash, hashOpaqueToken(input.refreshToken)))
      .for('update');
    if (!row || row.kind !== 'refresh' || row.clientId !== input.clientId) return invalidGrant('The refresh token is not valid.');
    if (row.usedAt) {
      await revokeGrant(tx, row.keyId, now);
      return invalidGrant('The refresh token was already used; its grant is revoked.');
    }
    if (row.expiresAt.getTime() <= now.getTime()) return invalidGrant('The refresh token has expired.');
    if (input.resource !== null && input.resource !== row.resource) return invalidGrant('resource differs from the grant’s.');
    const [key] = await tx.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, row.keyId));
    if (!key || key.revokedAt) return invalidGrant('The grant has been revoked.');
    await tx.update(oauthTokens).set({ usedAt: now }).where(eq(oauthTokens.tokenHash, row.tokenHash));
    return { ok: true, tokens: await issuePair(tx, { keyId: row.keyId, clientId: row.clientId, resource: row.resource }, now) };
  });
}

/** The key an unexpired access token acts as, or null (unknown, expired, or its grant revoked and its tokens deleted). */
export async function findAccessTokenKey(db: Executor, accessToken: string, now: Date = new Date()): Promise<{ keyId: string; resource: string } | null> {
  const [row] = await db
    .select({ keyId: oauthTokens.keyId, resource: oauthTokens.resource })
    .from(oauthTokens)
    .where(and(eq(oauthTokens.tokenHash, hashOpaqueToken(accessToken)), eq(oauthTokens.kind, 'access'), gt(oauthTokens.expiresAt, now)))
    .limit(1);
  return row ?? null;
}
