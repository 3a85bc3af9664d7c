import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, crc32, generateApiKey, hashApiKey, normalizeKeyName, parseApiKey, toKeyView } from './format';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SAMPLE = Array.from({ length: 60 }, (_, i) => generateApiKey(i % 2 === 0 ? 'live' : 'test'));

describe('generateApiKey', () => {
  it('produces the documented format for both modes', () => {
    const live = generateApiKey('live');
    const test = generateApiKey('test');
    expect(live.key).toMatch(/^alm_sk_live_[0-9A-Za-z]{38}$/);
    expect(test.key).toMatch(/^alm_sk_test_[0-9A-Za-z]{38}$/);
    expect(live.key).toHaveLength(API_KEY_LENGTH);
    expect(live.displayPrefix).toBe(live.key.slice(12, 20));
    expect(live.last4).toBe(live.key.slice(-4));
    expect(live.keyHash).toBe(createHash('sha256').update(live.key).digest('hex'));
    expect(parseApiKey(live.key)).toEqual({ ok: true, mode: 'live', displayPrefix: live.displayPrefix });
    expect(parseApiKey(test.key)).toEqual({ ok: true, mode: 'test', displayPrefix: test.displayPrefix });
  });

  it('never repeats and spreads over the whole alphabet', () => {
    const keys = new Set(SAMPLE.map((k) => k.key));
    expect(keys.size).toBe(SAMPLE.length);
    const seen = new Set(SAMPLE.flatMap((k) => [...k.key.slice(12, 44)]));
    expect(seen.size).toBeGreaterThan(55);
  });

  it('encodes the CRC32 of the body as 6 zero-padded base62 characters', () => {
    // Known vector: CRC-32 of "123456789" is 0xCBF43926.
    expect(crc32('123456789')).toBe(0xcbf43926);
    for (const { key } of SAMPLE) {
      const tail = key.slice(-6);
      const value = [...tail].reduce((acc, ch) => acc * 62 + ALPHABET.indexOf(ch), 0);
      expect(value).toBe(crc32(key.slice(0, -6)));
    }
  });
});

describe('parseApiKey', () => {
  it('catches every single-character substitution at every position', () => {
    let checked = 0;
    for (const { key } of SAMPLE) {
      for (let i = 12; i < key.length; i++) {
        for (const ch of ALPHABET) {
          if (ch === key[i]) continue;
          const mutated = key.slice(0, i) + ch + key.slice(i + 1);
          if (parseApiKey(mutated).ok) throw new Error(`substitution at ${i} accepted`);
          checked++;
        }
      }
      // Substitutions inside the prefix too.
      for (let i = 0; i < 12; i++) {
        const mutated = key.slice(0, i) + (key[i] === 'x' ? 'y' : 'x') + key.slice(i + 1);
        expect(parseApiKey(mutated).ok).toBe(false);
      }
    }
    expect(checked).toBe(SAMPLE.length * 38 * 61);
  });

  it('catches every adjacent transposition of different characters', () => {
    let checked = 0;
    for (const { key } of SAMPLE) {
      for (let i = 0; i < key.length - 1; i++) {
        if (key[i] === key[i + 1]) continue;
        const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
        if (parseApiKey(swapped).ok) throw new Error(`transposition at ${i} accepted`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(SAMPLE.length * 40);
  });

  it.each([
    ['empty', ''],
    ['wrong family', 'alm_pk_live_' + 'A'.repeat(38)],
    ['uppercase prefix', 'ALM_SK_LIVE_' + 'A'.repeat(38)],
    ['bare random', 'A'.repeat(50)],
  ])('rejects %s', (_label, token) => {
    expect(parseApiKey(token)).toEqual({ ok: false });
  });

  it('rejects wrong lengths, foreign characters and the other prefix with a valid body', () => {
    const { key } = generateApiKey('live');
    expect(parseApiKey(key + 'a').ok).toBe(false);
    expect(parseApiKey(key.slice(0, -1)).ok).toBe(false);
    expect(parseApiKey(` ${key}`.slice(0, API_KEY_LENGTH)).ok).toBe(false);
    for (const bad of ['-', '_', ' ', 'é', '+', '/', '=']) {
      expect(parseApiKey(key.slice(0, 20) + bad + key.slice(21)).ok).toBe(false);
    }
    // Same random part and checksum under the test prefix: the checksum covers the prefix.
    expect(parseApiKey('alm_sk_test_' + key.slice(12)).ok).toBe(false);
    expect(parseApiKey(undefined as unknown as string).ok).toBe(false);
  });
});

describe('toKeyView', () => {
  it('masks the key and never exposes the hash', () => {
    const generated = generateApiKey('live');
    const row = {
      id: 'key_1',
      kbId: 'kb_1',
      subscriptionId: 'sub_1',
      mode: 'live' as const,
      displayPrefix: generated.displayPrefix,
      last4: generated.last4,
      keyHash: generated.keyHash,
      userId: 'usr_1',
      revokedAt: null,
      lastUsedAt: new Date('2026-01-31T12:00:00Z'),
      createdAt: new Date('2026-01-01T00:00:00Z'),
      name: 'production',
      kbTitle: 'Title',
    };
    const view = toKeyView(row);
    expect(view).toEqual({
      id: 'key_1',
      kbId: 'kb_1',
      kbTitle: 'Title',
      subscriptionId: 'sub_1',
      mode: 'live',
      displayPrefix: generated.displayPrefix,
      last4: generated.last4,
      masked: `alm_sk_live_${generated.displayPrefix}…${generated.last4}`,
      name: 'production',
      status: 'active',
      kind: 'key',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: '2026-01-31T12:00:00.000Z',
      revokedAt: null,
    });
    expect(JSON.stringify(view)).not.toContain(generated.keyHash);
    expect(JSON.stringify(view)).not.toContain(generated.key);
    expect(toKeyView({ ...row, revokedAt: new Date('2026-02-01T00:00:00Z'), kbTitle: undefined })).toMatchObject({
      status: 'revoked',
      revokedAt: '2026-02-01T00:00:00.000Z',
    });
    expect(toKeyView({ ...row, oauthClientId: 'cli_1' })).toMatchObject({ kind: 'oauth_grant' });
    expect(hashApiKey('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('normalizeKeyName', () => {
  it.each([
    ['production server', { ok: true, name: 'production server' }],
    ['  two   words\there ', { ok: true, name: 'two words here' }],
    ['line\nbreak', { ok: true, name: 'line break' }],
    ['', { ok: true, name: null }],
    ['   ', { ok: true, name: null }],
    ['é'.repeat(60), { ok: true, name: 'é'.repeat(60) }],
    ['x'.repeat(61), { ok: false }],
    ['nul\u0000byte', { ok: false }],
    ['lone \ud800 surrogate', { ok: false }],
  ] as const)('%j', (raw, expected) => {
    expect(normalizeKeyName(raw)).toMatchObject(expected);
  });
});
