import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard for publisher endpoints (docs/api.md §6.7). The publisher chooses the URL, so it must never let Almanac's
 * server reach its own network: addresses are classified AFTER DNS resolution, and the connector connects to the
 * address that was checked (no second lookup an attacker could rebind).
 *
 * Rules: https to public addresses always. Loopback (http or https) in development mode, or when the operator sets
 * ALLOW_PRIVATE_PUBLISHER_ENDPOINTS. Private, link-local, shared (CGNAT) and reserved addresses (http or https) only
 * with ALLOW_PRIVATE_PUBLISHER_ENDPOINTS. Cloud metadata addresses never, whatever the setting. No credentials in
 * the URL (they would be sent to the publisher's host in clear view of its logs).
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'metadata';

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');

const privateRanges = new BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

const reserved = new BlockList();
reserved.addSubnet('0.0.0.0', 8, 'ipv4');
reserved.addSubnet('192.0.0.0', 24, 'ipv4');
reserved.addSubnet('192.0.2.0', 24, 'ipv4');
reserved.addSubnet('198.18.0.0', 15, 'ipv4');
reserved.addSubnet('198.51.100.0', 24, 'ipv4');
reserved.addSubnet('203.0.113.0', 24, 'ipv4');
reserved.addSubnet('224.0.0.0', 4, 'ipv4');
reserved.addSubnet('240.0.0.0', 4, 'ipv4');
reserved.addAddress('::', 'ipv6');
reserved.addSubnet('ff00::', 8, 'ipv6');
reserved.addSubnet('2001:db8::', 32, 'ipv6');
reserved.addSubnet('64:ff9b::', 96, 'ipv6');

export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  const lower = address.toLowerCase();
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address in disguise.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return classifyAddress(mapped[1]);
  // The same in hex form, as the URL parser normalises it: ::ffff:a9fe:a9fe is 169.254.169.254.
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1], 16);
    const lo = parseInt(mappedHex[2], 16);
    return classifyAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (METADATA.has(lower)) return 'metadata';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, type)) return 'loopback';
  if (linkLocal.check(address, type)) return 'link-local';
  if (privateRanges.check(address, type)) return 'private';
  if (reserved.check(address, type)) return 'reserved';
  return 'public';
}

export interface GuardPolicy {
  development: boolean;
  allowPrivate: boolean;
}

export type GuardResult = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** Is a connection to this (already resolved) address over this protocol allowed? */
export function checkAddress(address: string, protocol: 'http:' | 'https:', policy: GuardPolicy): { ok: true } | { ok: false; reason: string } {
  const kind = classifyAddress(address);
  if (kind === 'metadata') return { ok: false, reason: 'cloud metadata addresses are never allowed' };
  if (kind === 'public') {
    return protocol === 'https:' ? { ok: true } : { ok: false, reason: 'public endpoints must use https' };
  }
  if (kind === 'loopback' && (policy.development || policy.allowPrivate)) return { ok: true };
  if (policy.allowPrivate) return { ok: true };
  return { ok: false, reason: `${kind} addresses are not allowed for publisher endpoints` };
}

/** Syntax-only checks on the endpoint URL (no DNS). */
export function parseEndpointUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'the endpoint must use https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed; use the infrastructure key' };
  if (url.hash) return { ok: false, reason: 'the endpoint must not contain a fragment' };
  return { ok: true, url };
}

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * Resolves the endpoint's host and checks EVERY address it resolves to (an attacker could mix a public and a
 * private record); returns the first, which the connector then connects to.
 */
export async function resolveAndGuard(url: URL, policy: GuardPolicy): Promise<GuardResult> {
  const host = stripBrackets(url.hostname);
  const protocol = url.protocol as 'http:' | 'https:';
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: `cannot resolve ${host}` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `cannot resolve ${host}` };
  for (const { address } of addresses) {
    const verdict = checkAddress(address, protocol, policy);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
