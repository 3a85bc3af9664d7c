import { afterEach, describe, expect, it, vi } from 'vitest';
import { addressMatcher, clientAddress, normalizeAddress, resolveClientAddress, UNKNOWN_ADDRESS } from './client-address';
import { resetEnvForTesting } from './env';
import { PEER_HEADER } from './peer-header.mjs';

const none = addressMatcher([]);
const proxies = addressMatcher(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', '::1']);

describe('resolveClientAddress', () => {
  it.each([
    // [peer, X-Forwarded-For, trusted, expected]
    ['203.0.113.9', null, none, '203.0.113.9'],
    // An untrusted peer's X-Forwarded-For is ignored, whatever it says: rotating or faking it changes nothing.
    ['203.0.113.9', '198.51.100.1', none, '203.0.113.9'],
    ['203.0.113.9', '198.51.100.1, 10.0.0.1', proxies, '203.0.113.9'],
    ['::ffff:203.0.113.9', null, none, '203.0.113.9'],
    // A trusted peer: the first untrusted hop from the right is the client; hops left of it are its own claims.
    ['10.0.0.2', '198.51.100.1', proxies, '198.51.100.1'],
    ['10.0.0.2', '6.6.6.6, 198.51.100.1', proxies, '198.51.100.1'],
    ['10.0.0.2', '6.6.6.6, 198.51.100.1, 10.1.1.1, 192.0.2.7', proxies, '198.51.100.1'],
    ['::ffff:10.0.0.2', '198.51.100.1', proxies, '198.51.100.1'],
    ['::1', '2001:db8::5, fd00::1', proxies, '2001:db8::5'],
    ['10.0.0.2', '[2001:db8::5]:4711', proxies, '2001:db8::5'],
    ['10.0.0.2', '198.51.100.1:4711', proxies, '198.51.100.1'],
    // Every hop trusted: the request started inside the trusted network (the farthest hop).
    ['10.0.0.2', '10.9.9.9', proxies, '10.9.9.9'],
    ['10.0.0.2', null, proxies, '10.0.0.2'],
    ['10.0.0.2', '', proxies, '10.0.0.2'],
    // Garbage written behind our own proxy: stop at the last hop we know.
    ['10.0.0.2', '198.51.100.1, not-an-ip, 10.1.1.1', proxies, '10.1.1.1'],
    ['10.0.0.2', 'unknown', proxies, '10.0.0.2'],
    // No trustworthy peer at all.
    [null, '198.51.100.1', proxies, UNKNOWN_ADDRESS],
    ['', '198.51.100.1', proxies, UNKNOWN_ADDRESS],
    ['not-an-ip', null, none, UNKNOWN_ADDRESS],
  ] as const)('peer %j, X-Forwarded-For %j → %s', (peer, forwardedFor, trustedProxies, expected) => {
    expect(resolveClientAddress({ peer, forwardedFor, trustedProxies })).toBe(expected);
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['[::1]', '::1'],
    ['1.2.3.4:80', '1.2.3.4'],
    ['1.2.3', null],
    ['localhost', null],
  ])('%s → %s', (input, expected) => expect(normalizeAddress(input)).toBe(expected));
});

describe('clientAddress (a request)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTesting();
  });
  const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers });
  const configure = (env: Record<string, string>) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    resetEnvForTesting();
  };

  it('believes the peer header only behind the front server (npm start), never the forwarded header of an untrusted peer', () => {
    configure({ ALMANAC_LISTEN_URL: 'http://127.0.0.1:3999', TRUSTED_PROXIES: '' });
    expect(clientAddress(request({ [PEER_HEADER]: '203.0.113.9', 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.9');
  });

  it('reads X-Forwarded-For when the peer is a configured proxy', () => {
    configure({ ALMANAC_LISTEN_URL: 'http://127.0.0.1:3999', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' });
    expect(clientAddress(request({ [PEER_HEADER]: '127.0.0.1', 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.2.3.4' }))).toBe('198.51.100.1');
  });

  it('is unknown without the front server (next dev, a bare next start): anyone could send the peer header there', () => {
    configure({ ALMANAC_LISTEN_URL: '', TRUSTED_PROXIES: '' });
    expect(clientAddress(request({ [PEER_HEADER]: '203.0.113.9', 'x-forwarded-for': '198.51.100.1' }))).toBe(UNKNOWN_ADDRESS);
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address or a range', () => {
    configure({ TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal' });
    expect(() => clientAddress(request({}))).toThrow(/TRUSTED_PROXIES: "proxy.internal" is not an IP address/);
    configure({ TRUSTED_PROXIES: '10.0.0.0/33' });
    expect(() => clientAddress(request({}))).toThrow(/TRUSTED_PROXIES/);
  });
});
