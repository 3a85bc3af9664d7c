import { createHash } from 'node:crypto';
import { randomBase62 } from '@/lib/platform/ids';
import { describeTextProblem, textProblem } from '@/lib/platform/text-input';

/**
 * API keys (docs/api.md §4): a mode prefix, 32 base62 random characters (≈190 bits) and a base62 CRC32 of the rest, so
 * the gateway rejects typos without touching the database (the checksum adds no security). Stored only as a SHA-256.
 */

export type KeyMode = 'live' | 'test';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIXES: Record<KeyMode, string> = { live: 'alm_sk_live_', test: 'alm_sk_test_' };
const PREFIX_LENGTH = 12;
const KEY_RANDOM_LENGTH = 32;
const KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = PREFIX_LENGTH + KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH;
const DISPLAY_PREFIX_LENGTH = 8;
const BODY_PATTERN = /^[0-9A-Za-z]+$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of an ASCII string; keys are ASCII only, so char codes are the bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** 6 base62 characters, zero-padded: 62^6 ≈ 5.7e10 > 2^32, so every CRC fits. */
function checksumOf(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface GeneratedApiKey {
  /** The whole key: shown once, never stored, never logged. */
  key: string;
  keyHash: string;
  displayPrefix: string;
  last4: string;
}

export function generateApiKey(mode: KeyMode): GeneratedApiKey {
  const random = randomBase62(KEY_RANDOM_LENGTH);
  const body = PREFIXES[mode] + random;
  const key = body + checksumOf(body);
  return { key, keyHash: hashApiKey(key), displayPrefix: random.slice(0, DISPLAY_PREFIX_LENGTH), last4: key.slice(-4) };
}

export type ParsedApiKey = { ok: true; mode: KeyMode; displayPrefix: string } | { ok: false };

/** Shape and checksum only: pure, no I/O, bounded cost (the length check comes first). */
export function parseApiKey(token: string): ParsedApiKey {
  if (typeof token !== 'string' || token.length !== API_KEY_LENGTH) return { ok: false };
  const prefix = token.slice(0, PREFIX_LENGTH);
  const mode: KeyMode | undefined = prefix === PREFIXES.live ? 'live' : prefix === PREFIXES.test ? 'test' : undefined;
  if (!mode) return { ok: false };
  const rest = token.slice(PREFIX_LENGTH);
  if (!BODY_PATTERN.test(rest)) return { ok: false };
  const body = token.slice(0, PREFIX_LENGTH + KEY_RANDOM_LENGTH);
  if (checksumOf(body) !== token.slice(PREFIX_LENGTH + KEY_RANDOM_LENGTH)) return { ok: false };
  return { ok: true, mode, displayPrefix: rest.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Hex SHA-256. Keys carry ~190 random bits, so a fast unsalted hash is enough (no dictionary to attack). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function maskApiKey(mode: KeyMode, displayPrefix: string, last4: string): string {
  return `${PREFIXES[mode]}${displayPrefix}…${last4}`;
}

export interface KeyRowLike {
  id: string;
  kbId: string;
  subscriptionId: string;
  mode: KeyMode;
  displayPrefix: string;
  last4: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  name?: string | null;
  kbTitle?: string | null;
  oauthClientId?: string | null;
  grantLapsed?: boolean | null;
}

export interface KeyView {
  id: string;
  kbId: string;
  kbTitle?: string;
  subscriptionId: string;
  mode: KeyMode;
  displayPrefix: string;
  last4: string;
  masked: string;
  name: string | null;
  /** `expired`: an app's access whose tokens have all lapsed; the hourly OAuth purge later records it as revoked. */
  status: 'active' | 'revoked' | 'expired';
  /** A key the buyer holds, or an app's access granted through OAuth (§10.7), whose key no one sees. */
  kind: 'key' | 'oauth_grant';
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The only shape of a key that leaves the server: never the hash (explicit fields, no spreading). */
export function toKeyView(row: KeyRowLike): KeyView {
  const view: KeyView = {
    id: row.id,
    kbId: row.kbId,
    subscriptionId: row.subscriptionId,
    mode: row.mode,
    displayPrefix: row.displayPrefix,
    last4: row.last4,
    masked: maskApiKey(row.mode, row.displayPrefix, row.last4),
    name: row.name ?? null,
    status: row.revokedAt ? 'revoked' : row.grantLapsed ? 'expired' : 'active',
    kind: row.oauthClientId ? 'oauth_grant' : 'key',
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
  };
  if (row.kbTitle != null) view.kbTitle = row.kbTitle;
  return view;
}

export const KEY_NAME_MAX_LENGTH = 60;

export type KeyNameResult = { ok: true; name: string | null } | { ok: false; message: string };

/** One line, whitespace collapsed, trimmed; empty is no name (null). Control characters and bad Unicode are refused. */
export function normalizeKeyName(raw: string): KeyNameResult {
  const problem = textProblem(raw);
  if (problem) return { ok: false, message: `A key name cannot be used: ${describeTextProblem(problem)}.` };
  const name = raw.replace(/\s+/g, ' ').trim();
  if (name.length === 0) return { ok: true, name: null };
  if ([...name].length > KEY_NAME_MAX_LENGTH) return { ok: false, message: `A key name has at most ${KEY_NAME_MAX_LENGTH} characters.` };
  return { ok: true, name };
}
