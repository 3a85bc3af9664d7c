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
    ['fec0::1', 'private'],
    ['feff:ffff::1', 'private'],
    ['100::1', 'reserved'],
    ['100::ffff:ffff:ffff:ffff', 'reserved'],
    ['100:0:0:1::1', 'public'],
    ['192.88.99.1', 'reserved'],
    ['192.88.100.1', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  // IPv6 forms that carry an IPv4 address are classified by the IPv4 address they carry.
  it.each([
    // IPv4-compatible ::/96 (deprecated), dotted and hex.
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'metadata'],
    ['::169.254.1.1', 'link-local'],
    ['::10.0.0.1', 'private'],
    ['::c0a8:101', 'private'],
    ['::8.8.8.8', 'public'],
    ['0:0:0:0:0:0:0:2', 'reserved'],
    // IPv4-mapped in its other spellings, and IPv4-translated ::ffff:0:0/96.
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::FFFF:A9FE:A9FE', 'metadata'],
    ['::ffff:0:a00:1', 'private'],
    ['::ffff:0:7f00:1', 'loopback'],
    // 6to4 2002::/16: the IPv4 address is bits 16–47.
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:a00:1:1::5', 'private'],
    ['2002:c0a8:101::', 'private'],
    ['2002:808:808::1', 'public'],
    // NAT64, the well-known prefix 64:ff9b::/96: the last 32 bits.
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    // Local-use NAT64 (64:ff9b:1::/48) and Teredo (2001::/32) hide where they lead: refused unless private networks are allowed.
    ['64:ff9b:1::a00:1', 'reserved'],
    ['64:ff9b:1::808:808', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    // Neighbours of those ranges stay public.
    ['2003::1', 'public'],
    ['64:ff9c::1', 'public'],
    ['2001:4860:4860::8888', 'public'],
    // The IPv6 metadata address in any spelling.
    ['FD00:EC2::254', 'metadata'],
    ['fd00:ec2:0:0::254', 'metadata'],
  ])('%s carries its IPv4 class: %s', (address, kind) => {
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
