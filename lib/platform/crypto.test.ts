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
    const [version, iv, tag, ciphertext = ''] = encrypted.split('.');
    const ct = Buffer.from(ciphertext, 'base64url');
    ct.writeUInt8(ct.readUInt8(0) ^ 1, 0);
    const tampered = [version, iv, tag, ct.toString('base64url')].join('.');
    expect(() => decryptSecret(tampered, key)).toThrow();
    expect(() => decryptSecret(encrypted, deriveEncryptionKey('another-secret'))).toThrow();
    expect(() => decryptSecret('garbage', key)).toThrow();
  });
});
