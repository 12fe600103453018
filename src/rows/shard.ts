import { domainToASCII } from 'node:url';

/**
 * Host-sharded runs (`classify --shard K/N`): a shard keeps the rows whose host hashes to K, so N runs
 * over the same input split its rows, and its origins, between them. Any tool can reproduce the key:
 * FNV-1a 32-bit (offset basis 2166136261, prime 16777619) over the bytes of the canonical ASCII host
 * (lower case, IDN in punycode, no trailing dot, an IPv6 literal with its brackets), modulo N, plus 1.
 * Rows with no host (invalid rows, blank lines in line mode) belong to shard 1.
 */
export const SHARD_KEY = 'fnv1a32(host) mod N';

/** This run's place among the shards: `index` is 1-based, 1 ≤ index ≤ count. */
export interface Shard {
  index: number;
  count: number;
}

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * FNV-1a 32-bit of a string's chars (one byte each) without its trailing dots, A-Z folded to lower case;
 * -1 at a char past ASCII when `asciiOnly`.
 */
function fnv(s: string, asciiOnly: boolean): number {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2e) end--;
  let h = OFFSET_BASIS;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f && asciiOnly) return -1;
    h ^= c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
    h = Math.imul(h, PRIME);
  }
  return h >>> 0;
}

/** The FNV-1a 32-bit hash of a host's canonical form (see SHARD_KEY), as an unsigned integer. */
export function hostHash(host: string): number {
  const h = fnv(host, true);
  if (h >= 0) return h;
  const ascii = domainToASCII(host);
  // A name that is no valid IDN is hashed as its UTF-8 bytes: stable, if of no use to anyone.
  return fnv(ascii !== '' ? ascii : Buffer.from(host.toLowerCase(), 'utf8').toString('latin1'), false);
}

/** The 1-based shard of `host` among `count` shards. */
export function shardOf(host: string, count: number): number {
  return (hostHash(host) % count) + 1;
}

/** A byte of a plain host name as hashed (A-Z folded to lower case), or 0 for a byte that ends it. */
const HOST_BYTE = new Uint8Array(256);
for (let c = 0x30; c <= 0x39; c++) HOST_BYTE[c] = c;
for (let c = 0x61; c <= 0x7a; c++) HOST_BYTE[c] = c;
for (let c = 0x41; c <= 0x5a; c++) HOST_BYTE[c] = c | 0x20;
for (const c of [0x2d, 0x2e, 0x5f]) HOST_BYTE[c] = c;

/**
 * The host hash of a URL field written `http://host` or `https://host` (lower-case scheme, nothing to
 * trim) whose host is a plain DNS name ending at `/`, `?`, `#` or the field's end, read straight from
 * the batch's bytes at [start, end) without allocating; -1 for anything else (a port, userinfo, IDN,
 * punycode, an IP address, a trailing dot, an empty label), which is left to the row's full resolution.
 * Only forms that the row's resolution takes as that very host are answered, so a row this says
 * belongs to another shard can be dropped before its origin is resolved (in a worker, or as it is read).
 */
export function plainUrlHostHash(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 8 || bytes[start] !== 0x68 || bytes[start + 1] !== 0x74) return -1;
  if (bytes[start + 2] !== 0x74 || bytes[start + 3] !== 0x70) return -1;
  const p = start + (bytes[start + 4] === 0x73 ? 8 : 7);
  if (p >= end || bytes[p - 3] !== 0x3a || bytes[p - 2] !== 0x2f || bytes[p - 1] !== 0x2f) return -1;
  let h = OFFSET_BASIS;
  let labelStart = p;
  let i = p;
  for (; i < end; i++) {
    const c = HOST_BYTE[bytes[i]!]!;
    if (c <= 0x2e) {
      if (c === 0) break;
      if (c === 0x2e) {
        if (i === labelStart) return -1;
        labelStart = i + 1;
      } else if (i - labelStart >= 3 && bytes[i - 1] === 0x2d && (bytes[i - 2]! | 0x20) === 0x6e) {
        // `xn--` anywhere: punycode, which the full resolution validates.
        if ((bytes[i - 3]! | 0x20) === 0x78) return -1;
      }
    }
    h = Math.imul(h ^ c, PRIME);
  }
  if (i === p || labelStart === i) return -1; // no host, or a trailing dot
  if (i < end) {
    const c = bytes[i];
    if (c !== 0x2f && c !== 0x3f && c !== 0x23) return -1;
  }
  // A last label starting with a digit may make the host an IPv4 address.
  const first = bytes[labelStart]! | 0x20;
  if (first < 0x61 || first > 0x7a) return -1;
  return h >>> 0;
}

/** `BatchRows.owners` of a row whose host is another shard's: not written, not counted. */
export const OTHER_SHARD = -2;
