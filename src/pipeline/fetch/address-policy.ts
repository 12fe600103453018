import { BlockList, isIP } from 'node:net';
import { fetchError } from './error-codes.js';

/**
 * Which IP addresses a fetch may connect to. A crawl log is untrusted input: without `--allow-private`
 * an audit must not reach loopback, private networks, link-local (cloud metadata) or other special ranges.
 */

/** Refused IPv4 networks as [address, prefix length] (exported for tests that need a variant list). */
export const V4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (incl. 192.0.0.192 Oracle metadata)
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];

/** Refused IPv6 networks as [address, prefix length]. */
export const V6_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 2765), which a stateless translator may route to IPv4
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): a site's own translator, where any prefix length embeds IPv4
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 (AWS metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/**
 * The default list of refused ranges. IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked against the IPv4 rules,
 * and so are the IPv4 addresses embedded in NAT64 and 6to4 addresses (see embeddedV4).
 */
export function defaultBlockList(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of V4_RANGES) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of V6_RANGES) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/** IPv4 embedded in NAT64 (64:ff9b::/96) or 6to4 (2002::/16) addresses, which route to that IPv4 host. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const groups = expandV6(lower);
  if (groups === undefined) return undefined;
  const toV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) {
    return toV4(groups[6]!, groups[7]!);
  }
  if (groups[0] === 0x2002) return toV4(groups[1]!, groups[2]!);
  return undefined;
}

function expandV6(address: string): number[] | undefined {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined;
  return [...left, ...new Array<number>(fill).fill(0), ...right];
}

/** Strips the brackets of an IPv6 URL host and any zone id. */
export function bareAddress(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** True when connecting to `address` (an IP literal) must be refused under `list`. */
export function isBlockedAddress(address: string, list: BlockList): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return list.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  if (list.check(bare, 'ipv6')) return true;
  const v4 = embeddedV4(bare);
  return v4 !== undefined && list.check(v4, 'ipv4');
}

/**
 * The error for connecting to `hostname` when it is an IP literal that `refuse` refuses, else null. Node
 * skips `lookup` for literals, so the lookup's own check never sees them.
 */
export function refusedLiteral(hostname: string, refuse: (address: string) => boolean): Error | null {
  const host = bareAddress(hostname);
  if (isIP(host) === 0 || !refuse(host)) return null;
  return fetchError('ERR_BLOCKED_ADDRESS', `${host} is a refused address; use --allow-private`);
}

/** The error for a connected peer whose address `refuse` refuses (belt and braces, whatever resolved it), else null. */
export function refusedPeer(remote: string | undefined, refuse: (address: string) => boolean): Error | null {
  if (remote === undefined || !refuse(remote)) return null;
  return fetchError('ERR_BLOCKED_ADDRESS', `${remote} is a refused address`);
}
