import { describe, expect, it } from 'vitest';
import { sizeRefusal, uploadRefusal } from './content-manager';

const MB = 1024 * 1024;
const file = { name: 'x.pdf', size: Math.round(30.2 * MB) };

describe('upload refusals in words', () => {
  it('a file over the limit is not sent, and the row says how large it is and what the limit is', () => {
    expect(sizeRefusal(file, 20 * MB)).toBe('Not sent: “x.pdf” is 30.2 MB; the limit is 20 MB per file.');
  });

  it('a 413 from the documents route names the file, its size and the limit the server applies', () => {
    const body = JSON.stringify({
      error: 'payload_too_large',
      message: 'The upload is 30.3 MB; the limit is 10 MB per file.',
      limit_bytes: 10 * MB,
      request_id: 'req_1',
    });
    expect(uploadRefusal(413, body, file, 20 * MB)).toBe('“x.pdf” is 30.2 MB; the limit is 10 MB per file.');
  });

  it('any other refusal from the server shows its sentence', () => {
    const body = JSON.stringify({ error: 'unsupported_media_type', message: '“x.pdf” is not a file type Almanac reads.', request_id: 'req_1' });
    expect(uploadRefusal(415, body, file, 20 * MB)).toBe('“x.pdf” is not a file type Almanac reads.');
  });

  it('a 413 that is not JSON (a web server in front of Almanac) still gets a sentence, never a bare status', () => {
    const message = uploadRefusal(413, '<html><body>413 Request Entity Too Large</body></html>', { name: 'notes.md', size: 5 * MB }, 20 * MB);
    expect(message).toContain('“notes.md” (5 MB)');
    expect(message).toContain('20 MB');
    expect(message).not.toMatch(/413|answered/);
  });

  it('other answers without a sentence get a plain one', () => {
    for (const status of [400, 502, 504]) {
      const message = uploadRefusal(status, 'Bad Gateway', file, 20 * MB);
      expect(message).not.toMatch(/\d{3}|answered/);
      expect(message).toMatch(/\.$/);
    }
  });
});
