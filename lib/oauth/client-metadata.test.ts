import { describe, expect, it } from 'vitest';
import { cacheLifetime, checkClientIdUrl, validateClientMetadata } from './client-metadata';

describe('client ID metadata documents', () => {
  it.each([
    ['https://app.example/oauth/client.json', true],
    ['https://app.example:8443/c?v=1', true],
    ['https://app.example', false],
    ['https://app.example/', false],
    ['http://app.example/client.json', false],
    ['https://user:pw@app.example/client.json', false],
    ['https://app.example/client.json#frag', false],
    ['https://app.example/a/../client.json', false],
    ['https://app.example/./client.json', false],
    ['https://app.example/a/%2E%2E/client.json', false],
    ['https://app.example/client.json\n', false],
    [`https://app.example/${'a'.repeat(2001)}`, false],
  ])('client_id %j is a usable URL: %s', (url, ok) => {
    expect(checkClientIdUrl(url).ok).toBe(ok);
  });

  it.each([
    [undefined, 3600],
    ['public, max-age=600', 600],
    ['max-age=0', 0],
    ['no-store', 0],
    ['no-cache, max-age=600', 0],
    ['max-age=999999', 86400],
    ['max-age=abc', 3600],
  ])('Cache-Control %j allows %i seconds', (header, seconds) => {
    expect(cacheLifetime(header)).toBe(seconds);
  });

  const url = 'https://app.example/client.json';
  it('takes a public client whose document names itself; falls back to the host for a name', () => {
    expect(validateClientMetadata(url, { client_id: url, client_name: 'App', redirect_uris: ['https://app.example/cb'] })).toEqual({
      ok: true,
      name: 'App',
      redirectUris: ['https://app.example/cb'],
    });
    expect(validateClientMetadata(url, { client_id: url, redirect_uris: ['http://127.0.0.1:8080/cb'] })).toMatchObject({ ok: true, name: 'app.example' });
  });

  it.each([
    ['another client_id', { client_id: 'https://app.example/other.json', redirect_uris: ['https://app.example/cb'] }],
    ['no redirect URIs', { client_id: url, redirect_uris: [] }],
    ['an http redirect URI off loopback', { client_id: url, redirect_uris: ['http://app.example/cb'] }],
    ['a secret', { client_id: url, redirect_uris: ['https://app.example/cb'], client_secret: 's' }],
    ['a secret-based auth method', { client_id: url, redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_post' }],
    ['private_key_jwt (not served)', { client_id: url, redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }],
    ['no authorization_code grant', { client_id: url, redirect_uris: ['https://app.example/cb'], grant_types: ['client_credentials'] }],
    ['a name with control characters', { client_id: url, client_name: 'A\u0007pp', redirect_uris: ['https://app.example/cb'] }],
    ['not an object', ['https://app.example/cb']],
  ])('refuses a document with %s', (_why, document) => {
    expect(validateClientMetadata(url, document).ok).toBe(false);
  });
});
