import '../support/gateway-env';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, oauthClients, oauthCodes, oauthTokens } from '@/db/schema';
import type { Database } from '@/db/client';
import { getKeyForUser, listKeysForUser, renameKey, revokeKey } from '@/lib/keys';
import { approveAuthorization, exchangeCode, parseAuthorizationRequest, purgeExpiredOAuthState, registerClient } from '@/lib/oauth';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';

/** The OAuth purge (lib/oauth/housekeeping.ts): what expires goes, what can still act stays, a grant with no token ends. */
let db: Database;
let kb: string;
const APP = 'http://localhost:3000';
const REDIRECT = 'https://agent.example/callback';
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = '7w_YNF9DSfIdPf_pRjSq646_kPr-2-o9NAl16JGghdM'; // BASE64URL(SHA256('v' × 43))
const HOUR = 3600_000;

beforeAll(async () => {
  process.env.APP_URL = APP;
  resetEnvForTesting();
  db = (await createTestDatabase()).db;
  kb = await createKnowledgeBase(db, await createPublisher(db));
});

async function newClient(): Promise<string> {
  const registered = await registerClient(db, { client_name: 'Agent', redirect_uris: [REDIRECT] });
  if (!registered.ok) throw new Error(registered.description);
  return registered.client.client_id as string;
}

async function code(k: BoughtKey, clientId: string): Promise<string> {
  const params = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    resource: `${APP}/kb/${kb}/mcp`,
  });
  const parsed = await parseAuthorizationRequest(db, params);
  if (!parsed.ok) throw new Error(parsed.description);
  const approved = await approveAuthorization(db, k.userId, parsed.request, k.subscriptionId);
  if (!approved.ok) throw new Error(approved.description);
  return new URL(approved.redirect).searchParams.get('code')!;
}

async function grant(k: BoughtKey, clientId: string) {
  const exchanged = await exchangeCode(db, { code: await code(k, clientId), clientId, redirectUri: REDIRECT, codeVerifier: VERIFIER, resource: null });
  if (!exchanged.ok) throw new Error(exchanged.description);
  const [key] = await db.select().from(apiKeys).where(eq(apiKeys.oauthClientId, clientId));
  return key!;
}

const tokensOf = async (keyId: string) =>
  (await db.select({ kind: oauthTokens.kind }).from(oauthTokens).where(eq(oauthTokens.keyId, keyId))).map((t) => t.kind).sort();

describe('OAuth housekeeping', () => {
  it('purges expired codes and tokens, ends a grant left without tokens, keeps what can still act', async () => {
    const k = await buyKey(db, kb);
    const clientId = await newClient();
    const pending = await code(k, clientId);
    const key = await grant(k, clientId);
    const t0 = Date.now();
    expect(await tokensOf(key.id)).toEqual(['access', 'refresh']);
    // Within the hour: nothing of this grant goes.
    await purgeExpiredOAuthState(db, new Date(t0 + 60_000));
    expect(await tokensOf(key.id)).toEqual(['access', 'refresh']);
    // Past ten minutes the codes (the pending one and the used one) are gone; the unexchanged one can no longer be used.
    await purgeExpiredOAuthState(db, new Date(t0 + 11 * 60_000));
    expect(await db.select().from(oauthCodes).where(eq(oauthCodes.clientId, clientId))).toEqual([]);
    expect((await exchangeCode(db, { code: pending, clientId, redirectUri: REDIRECT, codeVerifier: VERIFIER, resource: null })).ok).toBe(false);
    // Past the hour the access token goes; the refresh token keeps the grant alive.
    await purgeExpiredOAuthState(db, new Date(t0 + 2 * HOUR));
    expect(await tokensOf(key.id)).toEqual(['refresh']);
    expect((await db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.revokedAt).toBeNull();
    // Past thirty days the refresh token goes too, and the grant ends; its client stays, as the grant names it.
    const later = new Date(t0 + 31 * 24 * HOUR);
    const purged = await purgeExpiredOAuthState(db, later);
    expect(purged.grantsEnded).toBeGreaterThanOrEqual(1);
    expect(await tokensOf(key.id)).toEqual([]);
    expect((await db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]!.revokedAt).toEqual(later);
    expect(await db.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.id, clientId))).toHaveLength(1);
  });

  it('an access whose tokens have all lapsed is listed as expired before the purge, and cannot be renamed', async () => {
    const k = await buyKey(db, kb);
    const key = await grant(k, await newClient());
    const view = async () => (await listKeysForUser(db, k.userId)).find((v) => v.id === key.id)!;
    expect((await view()).status).toBe('active');
    // The access token lapsed: the unused refresh token still lets the app act.
    await db
      .update(oauthTokens)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(and(eq(oauthTokens.kind, 'access'), eq(oauthTokens.keyId, key.id)));
    expect((await view()).status).toBe('active');
    expect(await renameKey(db, { userId: k.userId, keyId: key.id, name: 'Desk agent' })).toMatchObject({ ok: true });
    // A used (rotated) refresh token cannot act: with it the only one left, the access has expired.
    await db.update(oauthTokens).set({ usedAt: new Date() }).where(eq(oauthTokens.keyId, key.id));
    expect((await view()).status).toBe('expired');
    expect((await getKeyForUser(db, k.userId, key.id))?.status).toBe('expired');
    expect(await renameKey(db, { userId: k.userId, keyId: key.id, name: 'Other' })).toMatchObject({ ok: false, code: 'conflict' });
    // A key the buyer holds has no tokens and never expires.
    expect((await listKeysForUser(db, k.userId)).find((v) => v.kind === 'key')?.status).toBe('active');
  });

  it('drops the tokens of a revoked grant at once, and clients nobody used within 30 days', async () => {
    const k = await buyKey(db, kb);
    const key = await grant(k, await newClient());
    expect((await revokeKey(db, { userId: k.userId, keyId: key.id })).ok).toBe(true);
    const unused = await newClient();
    await purgeExpiredOAuthState(db);
    expect(await tokensOf(key.id)).toEqual([]);
    expect(await db.select({ id: oauthClients.id }).from(oauthClients).where(eq(oauthClients.id, unused))).toHaveLength(1);
    await purgeExpiredOAuthState(db, new Date(Date.now() + 31 * 24 * HOUR));
    const left = await db
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(inArray(oauthClients.id, [unused, key.oauthClientId!]));
    expect(left.map((c) => c.id)).toEqual([key.oauthClientId]);
  });
});
