import { describe, expect, it } from 'vitest';
import { checkAddress, classifyAddress, parseEndpointUrl, resolveAndGuard } from './ssrf-guard';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.5.6.7', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:7f00:1', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['::', 'reserved'],
    ['172.32.0.1', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('checkAddress policy', () => {
  const strict = { development: false, allowPrivate: false };
  const dev = { development: true, allowPrivate: false };
  const open = { development: false, allowPrivate: true };
  it('allows https to public addresses only, by default', () => {
    expect(checkAddress('8.8.8.8', 'https:', strict).ok).toBe(true);
    expect(checkAddress('8.8.8.8', 'http:', strict).ok).toBe(false);
    expect(checkAddress('127.0.0.1', 'https:', strict).ok).toBe(false);
    expect(checkAddress('10.0.0.1', 'https:', strict).ok).toBe(false);
    expect(checkAddress('169.254.1.1', 'https:', strict).ok).toBe(false);
  });
  it('allows loopback in development, but not private networks', () => {
    expect(checkAddress('127.0.0.1', 'http:', dev).ok).toBe(true);
    expect(checkAddress('10.0.0.1', 'https:', dev).ok).toBe(false);
  });
  it('lets an operator allow private networks, never the metadata service', () => {
    expect(checkAddress('10.0.0.1', 'http:', open).ok).toBe(true);
    expect(checkAddress('169.254.169.254', 'http:', open).ok).toBe(false);
    expect(checkAddress('fd00:ec2::254', 'https:', open).ok).toBe(false);
  });
});

describe('endpoint URLs', () => {
  it('rejects other schemes, credentials and garbage', () => {
    expect(parseEndpointUrl('ftp://example.com/').ok).toBe(false);
    expect(parseEndpointUrl('https://user:pw@example.com/').ok).toBe(false);
    expect(parseEndpointUrl('not a url').ok).toBe(false);
    expect(parseEndpointUrl('https://example.com/answer').ok).toBe(true);
  });
  it('resolves names before checking them (localhost is loopback)', async () => {
    const url = new URL('https://localhost:9/');
    expect((await resolveAndGuard(url, { development: false, allowPrivate: false })).ok).toBe(false);
    expect((await resolveAndGuard(url, { development: true, allowPrivate: false })).ok).toBe(true);
    const literal = await resolveAndGuard(new URL('http://[::ffff:169.254.169.254]/'), { development: true, allowPrivate: true });
    expect(literal.ok).toBe(false);
  });
});
