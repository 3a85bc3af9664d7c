import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveEncryptionKey, encryptSecret } from './crypto';

describe('publisher secret encryption', () => {
  const key = deriveEncryptionKey('test-secret-not-real');

  it('round-trips and never contains the plaintext', () => {
    const secret = 'whsec_fake_' + 'x'.repeat(30);
    const encrypted = encryptSecret(secret, key);
    expect(encrypted).not.toContain(secret);
    expect(encrypted.startsWith('v1.')).toBe(true);
    expect(decryptSecret(encrypted, key)).toBe(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(encryptSecret('same', key)).not.toBe(encryptSecret('same', key));
  });

  it('rejects a tampered ciphertext and a different server secret', () => {
    const encrypted = encryptSecret('infra-key-fake', key);
    const parts = encrypted.split('.');
    const ct = Buffer.from(parts[3], 'base64url');
    ct[0] ^= 1;
    const tampered = [parts[0], parts[1], parts[2], ct.toString('base64url')].join('.');
    expect(() => decryptSecret(tampered, key)).toThrow();
    expect(() => decryptSecret(encrypted, deriveEncryptionKey('another-secret'))).toThrow();
    expect(() => decryptSecret('garbage', key)).toThrow();
  });
});
