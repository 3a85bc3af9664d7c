import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { getServerSecret } from './server-secret';
import { processSingleton } from './singleton';

/**
 * Publisher secrets are stored as AES-256-GCM under a key HKDF-derived from the server secret, so a database dump
 * alone reveals nothing. The versioned format `v1.<iv>.<tag>.<ciphertext>` (base64url) lets the derivation change.
 */
const VERSION = 'v1';
const INFO = 'almanac/publisher-secrets/v1';

function encryptionKey(): Buffer {
  return processSingleton('crypto-publisher-key', () =>
    Buffer.from(hkdfSync('sha256', Buffer.from(getServerSecret(), 'utf8'), Buffer.from('almanac', 'utf8'), Buffer.from(INFO, 'utf8'), 32)),
  );
}

export function encryptSecret(plaintext: string, key: Buffer = encryptionKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** Throws when the value was not produced by encryptSecret under this server secret (tampered or wrong secret). */
export function decryptSecret(encoded: string, key: Buffer = encryptionKey()): string {
  const parts = encoded.split('.');
  const [version, iv, tag, ciphertext] = parts;
  if (parts.length !== 4 || version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new Error('unrecognised secret encoding');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** For tests: the key derived from an explicit secret (proves the derivation depends on the secret). */
export function deriveEncryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('almanac', 'utf8'), Buffer.from(INFO, 'utf8'), 32));
}

/** `Almanac-Signature` of an outgoing call: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signPayload(signingSecret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', signingSecret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
