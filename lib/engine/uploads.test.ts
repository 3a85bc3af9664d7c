import { describe, expect, it } from 'vitest';
import { sourceNameOf } from './uploads';

const codePoints = (s: string) => Array.from(s).length;
const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('sourceNameOf', () => {
  it('keeps the last path segment, trimmed, without control characters', () => {
    expect(sourceNameOf('C:\\docs\\lights.txt')).toBe('lights.txt');
    expect(sourceNameOf('  a/b/ta\u0007bles.md ')).toBe('tables.md');
  });

  it('shortens a very long name within 200 characters and keeps its extension', () => {
    const name = sourceNameOf(`${'a'.repeat(240)}.txt`);
    expect(name).toBe(`${'a'.repeat(196)}.txt`);
    expect(codePoints(name)).toBe(200);
  });

  it('counts code points and never cuts a surrogate pair', () => {
    const name = sourceNameOf(`${'🐝'.repeat(250)}.md`);
    expect(name.endsWith('.md')).toBe(true);
    expect(codePoints(name)).toBe(200);
    expect(hasLoneSurrogate(name)).toBe(false);
    // 200 code points of astral characters are 400 UTF-16 units: within the limit, so kept whole.
    expect(sourceNameOf(`${'🐝'.repeat(196)}.txt`)).toBe(`${'🐝'.repeat(196)}.txt`);
  });

  it('a name whose "extension" is itself too long is cut like any other', () => {
    const name = sourceNameOf(`notes.${'x'.repeat(300)}`);
    expect(codePoints(name)).toBe(200);
    expect(name.startsWith('notes.')).toBe(true);
  });

  it('does not leave the shortened stem ending in a space or a dot', () => {
    const name = sourceNameOf(`${'a'.repeat(195)}   ${'b'.repeat(50)}.pdf`);
    expect(name).toBe(`${'a'.repeat(195)}.pdf`);
  });
});
