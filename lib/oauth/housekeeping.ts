import { and, eq, inArray, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import { apiKeys, oauthClients, oauthCodes, oauthTokens } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import { inTransaction } from '@/lib/platform/transactions';

/**
 * Removes what the authorization server no longer needs (docs/api.md §10.7): expired codes (a used one is kept until
 * then, so a second use still revokes its grant) and tokens, every token of a revoked grant, and unused clients. A grant
 * left with no token is marked revoked, so the account page stops listing it. Every statement is safe to race.
 */
const UNUSED_CLIENT_MS = 30 * 24 * 3600 * 1000;

export interface OAuthPurge {
  codes: number;
  tokens: number;
  grantsEnded: number;
  clients: number;
}

export async function purgeExpiredOAuthState(db: Executor, now: Date = new Date()): Promise<OAuthPurge> {
  return inTransaction(db, async (tx) => {
    const codes = await tx.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now)).returning({ id: oauthCodes.codeHash });
    const revokedKeys = tx.select({ id: apiKeys.id }).from(apiKeys).where(isNotNull(apiKeys.revokedAt));
    const tokens = await tx
      .delete(oauthTokens)
      .where(or(lt(oauthTokens.expiresAt, now), inArray(oauthTokens.keyId, revokedKeys)))
      .returning({ id: oauthTokens.tokenHash });
    const grantsEnded = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(
        and(
          isNotNull(apiKeys.oauthClientId),
          isNull(apiKeys.revokedAt),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(oauthTokens)
              .where(eq(oauthTokens.keyId, apiKeys.id)),
          ),
        ),
      )
      .returning({ id: apiKeys.id });
    const clients = await tx
      .delete(oauthClients)
      .where(
        and(
          or(
            and(isNull(oauthClients.metadataExpiresAt), lt(oauthClients.createdAt, new Date(now.getTime() - UNUSED_CLIENT_MS))),
            lt(oauthClients.metadataExpiresAt, now),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(apiKeys)
              .where(eq(apiKeys.oauthClientId, oauthClients.id)),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(oauthCodes)
              .where(eq(oauthCodes.clientId, oauthClients.id)),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(oauthTokens)
              .where(eq(oauthTokens.clientId, oauthClients.id)),
          ),
        ),
      )
      .returning({ id: oauthClients.id });
    return { codes: codes.length, tokens: tokens.length, grantsEnded: grantsEnded.length, clients: clients.length };
  });
}

export function startOAuthPurge(): PeriodicTask {
  return processSingleton('oauth-purge', () =>
    new PeriodicTask('oauth-purge', async (db, now) => void (await purgeExpiredOAuthState(db, now)), 3_600_000).start(),
  );
}
