import https from 'node:https';
import { z } from 'zod';
import { getEnv } from '@/lib/platform/env';
import { pinnedLookup, resolveAndGuard, type GuardPolicy } from '@/lib/platform/ssrf-guard';
import { isCleanText } from '@/lib/platform/text-input';
import { isAllowedRedirect } from './redirect-uris';

/**
 * Client ID Metadata Documents (docs/api.md §10.7; the MCP authorization spec's preferred registration): a client whose
 * `client_id` is an https URL publishes its metadata there. The requester chooses that URL, so the fetch is guarded
 * like a publisher endpoint: resolved once and checked (ssrf-guard.ts), pinned, no redirects, bounded in size and time.
 */
const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** Cache lifetime without a Cache-Control max-age, and the ceiling of one. */
const DEFAULT_CACHE_S = 3600;
const MAX_CACHE_S = 24 * 3600;
const MAX_URL_LENGTH = 2000;

export interface ClientMetadataOptions {
  /** Which addresses the fetch may reach; by default the publisher endpoints' policy of this server. */
  policy?: GuardPolicy;
  /** The requester's address, whose fetches are limited; absent or unknown, nothing is counted (as on public endpoints). */
  requesterAddress?: string;
  /** Extra trusted certificate authorities (PEM), for tests with a local https server. */
  ca?: string;
}

interface ClientMetadata {
  name: string;
  redirectUris: string[];
  /** How long the document may be used before it is fetched again (0: every time). */
  maxAgeS: number;
}

export type ClientMetadataResult = { ok: true; metadata: ClientMetadata } | { ok: false; reason: string };

/** Whether a client_id is meant as a metadata document URL (then it is judged by its rules, never looked up as `cli_…`). */
export function isClientMetadataUrl(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** The URL rules of the draft (§3): https, a path, no dot segments, fragment or credentials. */
export function checkClientIdUrl(clientId: string): { ok: true; url: URL } | { ok: false; reason: string } {
  if (clientId.length > MAX_URL_LENGTH) return { ok: false, reason: 'the client_id URL is too long' };
  // The URL parser drops tabs and line breaks silently; the document must match the client_id as sent.
  if (/[\u0000-\u0020\u007f]/.test(clientId)) return { ok: false, reason: 'the client_id URL must not contain spaces or control characters' };
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return { ok: false, reason: 'the client_id is not a valid URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'the client_id URL must use https' };
  if (url.username || url.password) return { ok: false, reason: 'the client_id URL must not contain credentials' };
  if (clientId.includes('#')) return { ok: false, reason: 'the client_id URL must not contain a fragment' };
  // The raw path, before the URL parser resolves dot segments away.
  const afterScheme = clientId.slice('https://'.length);
  const pathStart = afterScheme.search(/[/?]/);
  const rawPath = pathStart === -1 ? '' : afterScheme.slice(pathStart).split('?')[0]!;
  if (rawPath === '' || rawPath === '/') return { ok: false, reason: 'the client_id URL must have a path' };
  if (rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    return { ok: false, reason: 'the client_id URL must not contain . or .. segments' };
  return { ok: true, url };
}

const SECRET_AUTH_METHODS = new Set(['client_secret_post', 'client_secret_basic', 'client_secret_jwt']);

const DocumentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(100).refine(isCleanText).optional(),
  redirect_uris: z
    .array(z.string().max(MAX_URL_LENGTH).refine(isAllowedRedirect, 'each must be https, or http on a loopback address, without a fragment'))
    .min(1)
    .max(20),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
  client_secret: z.unknown().optional(),
  client_secret_expires_at: z.unknown().optional(),
});

export function validateClientMetadata(
  clientId: string,
  document: unknown,
): { ok: true; name: string; redirectUris: string[] } | { ok: false; reason: string } {
  const parsed = DocumentSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${issue.path.join('.') || 'the document'}: ${issue.message}` };
  }
  const doc = parsed.data;
  if (doc.client_id !== clientId) return { ok: false, reason: 'its client_id is not the URL it was fetched from' };
  if (doc.client_secret !== undefined || doc.client_secret_expires_at !== undefined)
    return { ok: false, reason: 'a metadata document must not contain a client secret' };
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none') {
    const why = SECRET_AUTH_METHODS.has(doc.token_endpoint_auth_method)
      ? 'a shared secret cannot be established by a metadata document'
      : 'only public clients (PKCE) are served';
    return { ok: false, reason: `token_endpoint_auth_method must be "none": ${why}` };
  }
  if (doc.grant_types && !doc.grant_types.includes('authorization_code')) return { ok: false, reason: 'grant_types must include authorization_code' };
  if (doc.response_types && !doc.response_types.includes('code')) return { ok: false, reason: 'response_types must include code' };
  return { ok: true, name: doc.client_name ?? new URL(clientId).hostname, redirectUris: doc.redirect_uris };
}

export function cacheLifetime(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  if (!maxAge) return DEFAULT_CACHE_S;
  const seconds = Number(maxAge.slice('max-age='.length));
  return Number.isInteger(seconds) && seconds >= 0 ? Math.min(seconds, MAX_CACHE_S) : DEFAULT_CACHE_S;
}

function defaultPolicy(): GuardPolicy {
  const env = getEnv();
  return { development: env.NODE_ENV === 'development', allowPrivate: env.ALLOW_PRIVATE_PUBLISHER_ENDPOINTS };
}

async function download(
  url: URL,
  options: ClientMetadataOptions,
): Promise<{ ok: true; body: string; cacheControl: string | undefined } | { ok: false; reason: string }> {
  const guard = await resolveAndGuard(url, options.policy ?? defaultPolicy());
  if (!guard.ok) return { ok: false, reason: `its address is refused (${guard.reason})` };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Awaited<ReturnType<typeof download>>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = https.request(url, {
      method: 'GET',
      lookup: pinnedLookup(guard.address, guard.family),
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      headers: { Accept: 'application/json', 'Accept-Encoding': 'identity', 'User-Agent': 'Almanac-OAuth/1' },
    });
    const timer = setTimeout(() => settle({ ok: false, reason: `no answer within ${FETCH_TIMEOUT_MS / 1000} s` }), FETCH_TIMEOUT_MS);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, reason: `connection failed (${err.code ?? 'error'})` }));
    req.on('response', (res) => {
      if (res.statusCode !== 200) return settle({ ok: false, reason: `it answered HTTP ${res.statusCode} (redirects are not followed)` });
      if (!/\bjson\b/i.test(res.headers['content-type'] ?? '')) return settle({ ok: false, reason: 'it is not served as JSON' });
      if (Number(res.headers['content-length'] ?? 0) > CLIENT_METADATA_MAX_BYTES)
        return settle({ ok: false, reason: `it is larger than ${CLIENT_METADATA_MAX_BYTES} bytes` });
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > CLIENT_METADATA_MAX_BYTES) return settle({ ok: false, reason: `it is larger than ${CLIENT_METADATA_MAX_BYTES} bytes` });
        chunks.push(chunk);
      });
      res.on('end', () => settle({ ok: true, body: Buffer.concat(chunks).toString('utf8'), cacheControl: res.headers['cache-control'] }));
      res.on('error', () => settle({ ok: false, reason: 'the answer was cut off' }));
    });
    req.end();
  });
}

/** Fetches and validates the document a client_id URL names. Failures are never cached (the draft forbids it). */
export async function fetchClientMetadata(clientId: string, options: ClientMetadataOptions = {}): Promise<ClientMetadataResult> {
  const checked = checkClientIdUrl(clientId);
  if (!checked.ok) return checked;
  const answer = await download(checked.url, options);
  if (!answer.ok) return answer;
  let document: unknown;
  try {
    document = JSON.parse(answer.body);
  } catch {
    return { ok: false, reason: 'it is not valid JSON' };
  }
  const valid = validateClientMetadata(clientId, document);
  if (!valid.ok) return valid;
  return { ok: true, metadata: { name: valid.name, redirectUris: valid.redirectUris, maxAgeS: cacheLifetime(answer.cacheControl) } };
}
