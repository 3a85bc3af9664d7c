import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { oauthClients } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { isCleanId, isCleanText } from '@/lib/platform/text-input';

/**
 * RFC 7591 dynamic client registration for public clients (docs/api.md §10.7): a name and exact redirect URIs, each
 * https or an http loopback address (a desktop client's local listener). No secret: PKCE protects the code.
 */
export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
}

function isAllowedRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const RegistrationSchema = z.object({
  client_name: z.string().trim().min(1).max(100).refine(isCleanText).optional(),
  redirect_uris: z.array(z.string().max(2000).refine(isAllowedRedirect, 'each redirect URI must be https, or http on a loopback address, without a fragment')).min(1).max(10),
  grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
  response_types: z.array(z.literal('code')).optional(),
  token_endpoint_auth_method: z.literal('none').optional(),
});

export type RegistrationResult =
  | { ok: true; client: Record<string, unknown> }
  | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

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

export async function findClient(db: Executor, clientId: string): Promise<OAuthClient | null> {
  if (!isCleanId(clientId) || clientId.length > 100) return null;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return row ? { id: row.id, name: row.name, redirectUris: row.redirectUris } : null;
}
