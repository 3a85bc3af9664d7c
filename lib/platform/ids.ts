import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 string from a CSPRNG (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = 'usr' | 'pub' | 'kb' | 'plan' | 'sub' | 'key' | 'doc' | 'chk' | 'req' | 'evt' | 'aud' | 'qry' | 'msg' | 'cli';

/** Prefixed ids (`kb_…`) tell what they name wherever they appear: logs, URLs, support tickets. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
