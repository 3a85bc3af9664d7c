import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { getEnv } from './env';

/**
 * The SSRF guard for every URL an outsider chooses and the server fetches: publisher endpoints, alert webhooks
 * (docs/api.md §6.7), OAuth client metadata (§10.7). Addresses are classified after DNS resolution, and the connection
 * goes to the address checked (no second lookup to rebind). Public needs https; loopback only in development or with
 * ALLOW_PRIVATE_PUBLISHER_ENDPOINTS, private and reserved ranges only with it; cloud metadata never.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'metadata';

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
/** The IPv6 metadata address as its eight groups, so every spelling of it matches (fd00:ec2:0::254, upper case). */
const METADATA_V6 = new Set(['fd00:ec2:0:0:0:0:0:254']);

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
// Site-local (deprecated by RFC 3879, but a network may still route it inside a site).
privateRanges.addSubnet('fec0::', 10, 'ipv6');

const reserved = new BlockList();
reserved.addSubnet('0.0.0.0', 8, 'ipv4');
reserved.addSubnet('192.0.0.0', 24, 'ipv4');
reserved.addSubnet('192.0.2.0', 24, 'ipv4');
// The 6to4 relay anycast (RFC 7526 deprecated it): whichever relay is nearest, not a host named by the address.
reserved.addSubnet('192.88.99.0', 24, 'ipv4');
reserved.addSubnet('198.18.0.0', 15, 'ipv4');
reserved.addSubnet('198.51.100.0', 24, 'ipv4');
reserved.addSubnet('203.0.113.0', 24, 'ipv4');
reserved.addSubnet('224.0.0.0', 4, 'ipv4');
reserved.addSubnet('240.0.0.0', 4, 'ipv4');
reserved.addAddress('::', 'ipv6');
reserved.addSubnet('ff00::', 8, 'ipv6');
reserved.addSubnet('2001:db8::', 32, 'ipv6');
// Discard-only (RFC 6666): a black hole by definition.
reserved.addSubnet('100::', 64, 'ipv6');
// Local-use NAT64 (RFC 8215) and Teredo lead somewhere their address does not say (an operator's translator, an
// obfuscated client address): refused like any reserved range.
reserved.addSubnet('64:ff9b:1::', 48, 'ipv6');
reserved.addSubnet('2001::', 32, 'ipv6');

function ipv6Groups(address: string): number[] {
  const normalised = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = normalised.split('::');
  const part = (text: string) => (text ? text.split(':').map((g) => parseInt(g, 16)) : []);
  const before = part(head);
  const after = tail === undefined ? [] : part(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const dottedQuad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 host an IPv6 address reaches: mapped, translated, compatible (not :: or ::1), 6to4 or NAT64's prefix. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return dottedQuad(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dottedQuad(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return dottedQuad(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dottedQuad(g[1]!, g[2]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dottedQuad(g[6]!, g[7]!);
  return null;
}

export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  // An IPv6 address that carries an IPv4 address is that IPv4 address in disguise (::ffff:a9fe:a9fe is 169.254.169.254).
  const carried = family === 6 ? embeddedIPv4(address) : null;
  if (carried) return classifyAddress(carried);
  const lower =
    family === 6
      ? ipv6Groups(address)
          .map((x) => x.toString(16))
          .join(':')
      : address;
  if (METADATA.has(address.toLowerCase()) || METADATA_V6.has(lower)) return 'metadata';
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

/** `production: true` judges as `npm start` would: the CLI runs in development but configures what the server calls. */
export function guardPolicy(options: { production?: boolean } = {}): GuardPolicy {
  const env = getEnv();
  return { development: !options.production && env.NODE_ENV === 'development', allowPrivate: env.ALLOW_PRIVATE_PUBLISHER_ENDPOINTS };
}

export type GuardResult = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

export function checkAddress(address: string, protocol: 'http:' | 'https:', policy: GuardPolicy): { ok: true } | { ok: false; reason: string } {
  const kind = classifyAddress(address);
  if (kind === 'metadata') return { ok: false, reason: 'cloud metadata addresses are never allowed' };
  if (kind === 'public') {
    return protocol === 'https:' ? { ok: true } : { ok: false, reason: 'public endpoints must use https' };
  }
  if (kind === 'loopback' && (policy.development || policy.allowPrivate)) return { ok: true };
  if (policy.allowPrivate) return { ok: true };
  return { ok: false, reason: `${kind} addresses are not allowed` };
}

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

/** Every address the host resolves to must pass (an attacker could mix public and private records); returns the first. */
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
  const [first] = addresses;
  if (!first) return { ok: false, reason: `cannot resolve ${host}` };
  for (const { address } of addresses) {
    const verdict = checkAddress(address, protocol, policy);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}
