import { describe, expect, it } from 'vitest';
import { decodeQueryString, decodeUtf8, idProblem, idSchema, textProblem, textSchema } from './text-input';

describe('the text rule (docs/api.md §7.2)', () => {
  const controls = [...Array(32).keys()].map((c) => String.fromCharCode(c)).concat('\u007f');

  it.each(controls.map((c) => [c.charCodeAt(0).toString(16).padStart(4, '0'), c]))('ids refuse U+%s', (_hex, c) => {
    expect(idProblem(`kb_${c}x`)).toBe('control_character');
  });

  it('free text refuses control characters except tab, LF and CR', () => {
    for (const c of controls) {
      const allowed = c === '\t' || c === '\n' || c === '\r';
      expect(textProblem(`a${c}b`), JSON.stringify(c)).toBe(allowed ? null : 'control_character');
    }
  });

  it('refuses lone surrogates and accepts well-formed text, astral characters included', () => {
    for (const bad of ['\ud800', 'a\udc00', '\udbff\ud800', 'x\ud83d']) {
      expect(idProblem(bad)).toBe('invalid_unicode');
      expect(textProblem(bad)).toBe('invalid_unicode');
    }
    for (const good of ['kb_QglFcJlU2cgvXuOC', 'Société générale', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀', 'a\u0080b', '']) {
      expect(idProblem(good)).toBeNull();
      expect(textProblem(good)).toBeNull();
    }
  });

  it('gives zod schemas that apply the same rules', () => {
    expect(idSchema().safeParse('  sub_abc  ')).toEqual({ success: true, data: 'sub_abc' });
    expect(idSchema().safeParse('sub_\u0000').success).toBe(false);
    expect(idSchema().safeParse('').success).toBe(false);
    expect(idSchema().safeParse('x'.repeat(65)).success).toBe(false);
    expect(idSchema().safeParse(42).success).toBe(false);
    expect(textSchema(10).safeParse('a\tb\nc').success).toBe(true);
    expect(textSchema(10).safeParse('a\u0000').success).toBe(false);
    expect(textSchema(3).safeParse('abcd').success).toBe(false);
  });
});

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 and refuses anything else instead of replacing it', () => {
    expect(decodeUtf8(Buffer.from('{"query":"Société"}'))).toBe('{"query":"Société"}');
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe('{}');
    for (const bytes of [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf]]) {
      expect(decodeUtf8(Uint8Array.from(bytes)), bytes.join(' ')).toBeNull();
    }
  });
});

describe('decodeQueryString', () => {
  it('decodes like URLSearchParams, + as a space, repeated names kept in order', () => {
    const result = decodeQueryString('?query=soci%C3%A9t%C3%A9+g&tags=a&tags=b&empty=&bare');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.params.get('query')).toBe('société g');
    expect(result.params.getAll('tags')).toEqual(['a', 'b']);
    expect(result.params.get('empty')).toBe('');
    expect(result.params.get('bare')).toBe('');
    expect(decodeQueryString('').ok).toBe(true);
  });

  it('refuses malformed escapes and escaped bytes that are not UTF-8, naming the parameter', () => {
    expect(decodeQueryString('?page=1&query=%ZZ')).toEqual({ ok: false, name: 'query' });
    expect(decodeQueryString('?query=%')).toEqual({ ok: false, name: 'query' });
    expect(decodeQueryString('?query=%C3%28')).toEqual({ ok: false, name: 'query' });
    expect(decodeQueryString('?query=%ED%A0%80')).toEqual({ ok: false, name: 'query' });
    expect(decodeQueryString('?%FF=1')).toEqual({ ok: false, name: '%FF' });
  });

  it('decodes control characters (the text rule judges them, not the decoder)', () => {
    const result = decodeQueryString('?query=a%00b');
    expect(result.ok && result.params.get('query')).toBe('a\u0000b');
  });
});
