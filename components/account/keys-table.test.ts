import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { KeyView } from '@/lib/keys';
import { KeysTable, LastUsed } from './keys-table';

const key = (over: Partial<KeyView>): KeyView => ({
  id: 'key_1',
  kbId: 'kb_1',
  subscriptionId: 'sub_1',
  mode: 'test',
  displayPrefix: 'AbCdEfGh',
  last4: 'wxyz',
  masked: 'alm_sk_test_AbCdEfGh…wxyz',
  name: null,
  status: 'active',
  kind: 'key',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

describe('KeysTable', () => {
  it('offers Rename and Revoke on an active key, and neither on a revoked one', () => {
    const html = renderToStaticMarkup(
      createElement(KeysTable, {
        caption: 'Keys',
        keys: [key({}), key({ id: 'key_2', masked: 'alm_sk_test_ZzZzZzZz…abcd', status: 'revoked', revokedAt: '2026-01-02T00:00:00.000Z' })],
      }),
    );
    expect(html).toContain('aria-label="Rename key alm_sk_test_AbCdEfGh…wxyz"');
    expect(html).toContain('aria-label="Revoke key alm_sk_test_AbCdEfGh…wxyz"');
    expect(html).not.toContain('Rename key alm_sk_test_ZzZzZzZz…abcd');
    expect(html).not.toContain('/account/keys/key_2/rename');
  });

  it("shows an OAuth grant as an app's access, not as a key", () => {
    const html = renderToStaticMarkup(createElement(KeysTable, { caption: 'Keys', keys: [key({ kind: 'oauth_grant', name: 'OAuth: Claude' })] }));
    expect(html).toContain('App access (OAuth)');
    expect(html).toContain('aria-label="Revoke access of OAuth: Claude"');
    expect(html).not.toContain('alm_sk_test_AbCdEfGh…wxyz');
  });

  it('offers neither Rename nor Revoke on an expired access, and says the app must connect again', () => {
    const html = renderToStaticMarkup(
      createElement(KeysTable, { caption: 'Keys', keys: [key({ kind: 'oauth_grant', name: 'OAuth: Claude', status: 'expired' })] }),
    );
    expect(html).not.toContain('/account/keys/key_1/rename');
    expect(html).not.toContain('/account/keys/key_1/revoke');
    expect(html).toContain('Expired: the app must connect again');
    expect(html).toContain('>Expired<');
  });
});

describe('LastUsed', () => {
  const now = Date.parse('2026-05-20T12:00:00.000Z');
  const html = (value: string | null) => renderToStaticMarkup(createElement(LastUsed, { value, now }));
  it('says "within the last minute" for a use under a minute old, and the instant otherwise', () => {
    expect(html('2026-05-20T11:59:30.000Z')).toContain('within the last minute');
    expect(html('2026-05-20T11:59:00.000Z')).toContain('11:59');
    expect(html('2026-05-20T11:59:00.000Z')).not.toContain('within');
    expect(html(null)).toBe('never');
  });
});
