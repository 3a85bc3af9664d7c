import { describe, expect, it } from 'vitest';
import { formatFileSize, tooLargeMessage } from './file-size';

const MB = 1024 * 1024;

describe('file sizes in words', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [900, '900 bytes'],
    [1536, '1.5 KB'],
    [12 * 1024, '12 KB'],
    [20 * MB, '20 MB'],
    [Math.round(30.2 * MB), '30.2 MB'],
    [3 * 1024 * MB, '3 GB'],
  ])('formatFileSize(%i) = %s', (bytes, text) => expect(formatFileSize(bytes)).toBe(text));

  it('a refused file is never shown as no larger than the limit', () => {
    expect(tooLargeMessage('x.pdf', Math.round(30.2 * MB), 20 * MB)).toBe('“x.pdf” is 30.2 MB; the limit is 20 MB per file.');
    expect(tooLargeMessage('huge.txt', 20 * MB + 1, 20 * MB)).toBe('“huge.txt” is 20.1 MB; the limit is 20 MB per file.');
  });
});
