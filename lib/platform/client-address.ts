import { BlockList, isIP } from 'node:net';
import { getEnv } from './env';
import { PEER_HEADER } from './peer-header.mjs';

/**
 * The one way to know a client's address (per-address limits). Only the TCP peer is certain: `npm start` stamps it in
 * `x-almanac-peer` (lib/server/front-server.mjs), believed only when ALMANAC_LISTEN_URL says serve.mjs runs in front;
 * otherwise the address is UNKNOWN_ADDRESS. X-Forwarded-For is read only from a trusted proxy, right to left: the
 * first untrusted entry is the client, anything further left is the client's own claim.
 */
export const UNKNOWN_ADDRESS = 'unknown';

export interface AddressMatcher {
  has(address: string): boolean;
}

/** `::ffff:10.0.0.1` is 10.0.0.1: one client, one key, whichever way the socket reports it. */
export function normalizeAddress(value: string): string | null {
  let text = value.trim();
  // A proxy may write a port (`203.0.113.7:4711`, `[2001:db8::1]:4711`) or brackets.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  const family = isIP(text);
  if (family === 0) return null;
  const lower = text.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped ? mapped[1]! : lower;
}

export function addressMatcher(entries: readonly string[]): AddressMatcher {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return {
    has(address) {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/** `peer` is null when no trustworthy report exists; `forwardedFor` has repeated headers joined with commas. */
export function resolveClientAddress(input: { peer: string | null; forwardedFor: string | null; trustedProxies: AddressMatcher }): string {
  const peer = input.peer === null ? null : normalizeAddress(input.peer);
  if (peer === null) return UNKNOWN_ADDRESS;
  if (!input.trustedProxies.has(peer)) return peer;
  let nearest = peer;
  const hops = (input.forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]!);
    // Not an address: our own proxy wrote something we cannot use, so stop at the last hop we know.
    if (hop === null) return nearest;
    if (!input.trustedProxies.has(hop)) return hop;
    nearest = hop;
  }
  // Every hop is one of ours: the request started inside the trusted network.
  return nearest;
}

let matcherFor: { list: readonly string[]; matcher: AddressMatcher } | undefined;

function trustedProxies(): AddressMatcher {
  const list = getEnv().TRUSTED_PROXIES;
  if (matcherFor?.list !== list) matcherFor = { list, matcher: addressMatcher(list) };
  return matcherFor.matcher;
}

/** Headers as the fetch API has them, or as a plain object (next-auth hands `authorize` a plain object). */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function readHeader(headers: HeaderSource, name: string): string | null {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

/** The client's address from a request's headers (server actions have `headers()`, not the Request). */
export function clientAddressFromHeaders(headers: HeaderSource): string {
  const behindFrontServer = Boolean(getEnv().ALMANAC_LISTEN_URL);
  return resolveClientAddress({
    peer: behindFrontServer ? readHeader(headers, PEER_HEADER) : null,
    forwardedFor: readHeader(headers, 'x-forwarded-for'),
    trustedProxies: trustedProxies(),
  });
}

export function clientAddress(request: Request): string {
  return clientAddressFromHeaders(request.headers);
}
