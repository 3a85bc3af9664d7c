import { afterEach, describe, expect, it, vi } from 'vitest';
import { adoptServerBaseUrl, allowedFormOrigins, baseUrl, resolveBaseUrl, siteUrl } from './base-url';
import { resetEnvForTesting } from './env';
import { isSameOriginPost } from './http';

function configure(env: Record<string, string>) {
  for (const name of ['APP_URL', 'ALMANAC_LISTEN_URL', 'DATABASE_URL', 'NODE_ENV']) vi.stubEnv(name, '');
  vi.stubEnv('NODE_ENV', 'test');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetEnvForTesting();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTesting();
  adoptServerBaseUrl(undefined);
});

describe('baseUrl', () => {
  it('is APP_URL when set (an origin, without the trailing slash)', () => {
    configure({ APP_URL: 'https://almanac.example.com/', ALMANAC_LISTEN_URL: 'http://localhost:3999' });
    expect(resolveBaseUrl()).toEqual({ url: 'https://almanac.example.com', source: 'APP_URL' });
    expect(siteUrl('/account/subscriptions/sub_1')).toBe('https://almanac.example.com/account/subscriptions/sub_1');
  });

  it('is the address npm start listens on when APP_URL is unset (npm start -- -p 3999 links to 3999)', () => {
    configure({ ALMANAC_LISTEN_URL: 'http://localhost:3999' });
    expect(resolveBaseUrl()).toEqual({ url: 'http://localhost:3999', source: 'listening address' });
  });

  it('is the running server’s address in the CLI that shares its embedded database', () => {
    configure({});
    expect(baseUrl()).toBe('http://localhost:3000');
    adoptServerBaseUrl('http://127.0.0.1:4123');
    expect(baseUrl()).toBe('http://127.0.0.1:4123');
  });

  it('is required in production with DATABASE_URL (a real deployment), not on the embedded database', () => {
    configure({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/almanac', ALMANAC_LISTEN_URL: 'http://localhost:3000' });
    expect(() => baseUrl()).toThrow(/APP_URL must be set when DATABASE_URL is set in production/);
    configure({ NODE_ENV: 'production', ALMANAC_LISTEN_URL: 'http://localhost:3000' });
    expect(baseUrl()).toBe('http://localhost:3000');
  });

  it.each(['ftp://x.example', 'https://x.example/almanac', 'https://x.example/?a=1', 'https://user:pw@x.example', 'not a url'])(
    'refuses APP_URL=%s',
    (value) => {
      configure({ APP_URL: value });
      expect(() => baseUrl()).toThrow(/APP_URL: must be an http\(s\) origin/);
    },
  );
});

describe('form posts: same origin', () => {
  const post = (url: string, headers: Record<string, string>) => new Request(url, { method: 'POST', headers });

  it('with APP_URL, accepts only its origin, whatever Host the request names', () => {
    configure({ APP_URL: 'https://almanac.example.com' });
    expect(isSameOriginPost(post('http://localhost:3000/checkout/start', { origin: 'https://almanac.example.com' }))).toBe(true);
    expect(isSameOriginPost(post('http://localhost:3000/checkout/start', { origin: 'http://localhost:3000' }))).toBe(false);
    const forged = post('http://localhost:3000/checkout/start', { origin: 'https://evil.example', host: 'evil.example' });
    expect([...allowedFormOrigins(forged)]).toEqual(['https://almanac.example.com']);
    expect(isSameOriginPost(forged)).toBe(false);
  });

  it('without APP_URL, accepts the address the browser used: 127.0.0.1:3999 and localhost:3999 are the same server', () => {
    configure({ ALMANAC_LISTEN_URL: 'http://localhost:3999' });
    // Next builds request.url from the hostname it was given (localhost), not from the Host header.
    expect(isSameOriginPost(post('http://localhost:3999/checkout/start', { origin: 'http://127.0.0.1:3999', host: '127.0.0.1:3999' }))).toBe(true);
    expect(isSameOriginPost(post('http://localhost:3999/checkout/start', { origin: 'http://localhost:3999', host: 'localhost:3999' }))).toBe(true);
    expect(
      isSameOriginPost(post('http://localhost:3999/checkout/start', { referer: 'http://127.0.0.1:3999/knowledge-bases/kb_1', host: '127.0.0.1:3999' })),
    ).toBe(true);
    expect(isSameOriginPost(post('http://localhost:3999/checkout/start', { origin: 'https://evil.example', host: '127.0.0.1:3999' }))).toBe(false);
    expect(isSameOriginPost(post('http://localhost:3999/checkout/start', { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3999' }))).toBe(false);
    expect(isSameOriginPost(post('http://localhost:3999/checkout/start', {}))).toBe(false);
  });
});
