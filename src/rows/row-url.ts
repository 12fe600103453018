import { pathFromUrl } from '../core/index.js';

/**
 * Turning a crawl-log row's url (and optional host column) into the origin whose robots.txt applies
 * and the path+query the matcher judges. Hot path of the pipeline: one call per row, so the common
 * shape (`http(s)://plain.host[:port]/…`) is scanned by hand; anything odd falls back to WHATWG URL.
 */

/** Same shape as the pipeline's `Origin` (policy.ts); declared here so workers never import upward. */
/** An origin: scheme, ASCII (punycode) lower-case host, and port (the pipeline's policies are keyed by it). */
export interface Origin {
  scheme: 'http' | 'https';
  /** Lower-case ASCII (punycode) host; IPv6 literals keep their brackets. */
  host: string;
  /** Explicit port, or the scheme's default. */
  port: number;
}

/** Why a row cannot be judged. Stable strings: they are written to the `error_code` column. */
export type RowErrorCode =
  | 'missing_url'
  | 'bad_url'
  | 'unsupported_scheme'
  | 'path_without_host'
  | 'bad_host';

export interface RowUrlOk {
  ok: true;
  origin: Origin;
  /** `originKey(origin)`: `scheme://host[:port]`, default port omitted. */
  key: string;
  /** Path, params and query the reference's way (GetPathParamsQuery); always starts with `/`. */
  path: string;
  /** An absolute URL's host differs from a non-empty host column (the URL wins). */
  hostMismatch: boolean;
}

export interface RowUrlError {
  ok: false;
  code: RowErrorCode;
}

export type RowUrlResult = RowUrlOk | RowUrlError;

const FAIL: { [K in RowErrorCode]: RowUrlError } = {
  missing_url: Object.freeze({ ok: false, code: 'missing_url' }),
  bad_url: Object.freeze({ ok: false, code: 'bad_url' }),
  unsupported_scheme: Object.freeze({ ok: false, code: 'unsupported_scheme' }),
  path_without_host: Object.freeze({ ok: false, code: 'path_without_host' }),
  bad_host: Object.freeze({ ok: false, code: 'bad_host' }),
};

interface Authority {
  origin: Origin;
  key: string;
}

/** Where the hot path writes a row's origin and path without allocating objects. */
export interface RowSlot {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  path: string;
  hostMismatch: boolean;
}

export function newRowSlot(): RowSlot {
  return { scheme: 'https', host: '', port: 443, path: '/', hostMismatch: false };
}

/** `scheme://host[:port]` with the default port omitted (identical to policy.ts `originKey`). */
export function keyOf(o: Origin): string {
  const def = o.scheme === 'https' ? 443 : 80;
  return o.port === def ? `${o.scheme}://${o.host}` : `${o.scheme}://${o.host}:${o.port}`;
}

function makeAuthority(scheme: 'http' | 'https', host: string, port: number): Authority {
  const origin: Origin = { scheme, host, port };
  return { origin, key: keyOf(origin) };
}

/** Leading/trailing C0 controls and spaces are ignored, as WHATWG URL ignores them. */
function trim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Length of `scheme:` at the start of s (RFC 3986 scheme chars), or 0. */
function schemeLength(s: string): number {
  const c0 = s.charCodeAt(0) | 0x20;
  if (c0 < 0x61 || c0 > 0x7a) return 0;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) return i + 1;
    const l = c | 0x20;
    const ok = (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
    if (!ok) return 0;
  }
  return 0;
}

/** `http`/`https` (any case) as the scheme of s given its `scheme:` length, else `other`. */
function schemeOf(s: string, len: number): 'http' | 'https' | 'other' {
  if (len !== 5 && len !== 6) return 'other';
  const isHttp =
    (s.charCodeAt(0) | 0x20) === 0x68 &&
    (s.charCodeAt(1) | 0x20) === 0x74 &&
    (s.charCodeAt(2) | 0x20) === 0x74 &&
    (s.charCodeAt(3) | 0x20) === 0x70;
  if (!isHttp) return 'other';
  if (len === 5) return 'http';
  return (s.charCodeAt(4) | 0x20) === 0x73 ? 'https' : 'other';
}

/**
 * Hand scan of `//host[:port]` after the scheme for plain ASCII DNS names, into `out`. Returns FALLBACK
 * when the authority needs the full WHATWG parser (userinfo, IPv6/IPv4, IDN, xn--, escapes, odd slashes).
 */
function fastAuthority(s: string, start: number, scheme: 'http' | 'https', out: RowSlot): number {
  if (s.charCodeAt(start) !== 0x2f || s.charCodeAt(start + 1) !== 0x2f) return FALLBACK;
  const hostStart = start + 2;
  let i = hostStart;
  let upper = false;
  let labelStart = hostStart;
  let lastLabelFirst = -1;
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) continue;
    if (c === 0x2e) {
      if (i === labelStart) return FALLBACK; // empty label: let WHATWG decide
      lastLabelFirst = s.charCodeAt(labelStart);
      labelStart = i + 1;
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f) continue;
    if (c >= 0x41 && c <= 0x5a) {
      upper = true;
      continue;
    }
    break;
  }
  const hostEnd = i;
  if (hostEnd === hostStart) return FALLBACK;
  if (labelStart < hostEnd) lastLabelFirst = s.charCodeAt(labelStart);
  // A last label starting with a digit may make the host an IPv4 address (or invalid): WHATWG decides.
  if ((lastLabelFirst | 0x20) < 0x61 || (lastLabelFirst | 0x20) > 0x7a) return FALLBACK;
  let port = scheme === 'https' ? 443 : 80;
  let badPort = false;
  if (i < n && s.charCodeAt(i) === 0x3a) {
    i++;
    const portStart = i;
    let value = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
    }
    if (i - portStart > 5) return FALLBACK;
    // Port 0 cannot be connected to, so no robots.txt can be fetched for it (WHATWG accepts it).
    badPort = value > 65535 || (value === 0 && i > portStart);
    if (i > portStart) port = value;
  }
  if (i < n) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) return BAD; // see plainAuthority
    // Not the authority's end: what looked like host:port may be userinfo (`a:0@host`).
    if (c !== 0x2f && c !== 0x3f && c !== 0x23) return FALLBACK;
  }
  if (badPort) return BAD;
  let host = s.slice(hostStart, hostEnd);
  if (upper) host = host.toLowerCase();
  if (host.includes('xn--')) return FALLBACK; // punycode must be validated
  out.scheme = scheme;
  out.host = host;
  out.port = port;
  return OK;
}

const OK = 1;
const BAD = 0;
const FALLBACK = -1;

/**
 * Whether `//authority` follows the scheme and ends at `/`, `?`, `#` or the end. Only then do WHATWG's
 * host and the reference's path (after `//authority`) come from the same URL: WHATWG also reads
 * `https:/h/p`, `https:///h/p` and `https://h\p` as https://h/p, where the reference's path is `/h/p`
 * or `/`, so a verdict on it would judge another path than the one fetched.
 */
function plainAuthority(s: string, start: number): boolean {
  if (s.charCodeAt(start) !== 0x2f || s.charCodeAt(start + 1) !== 0x2f) return false;
  for (let i = start + 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) return false;
    if (c === 0x2f || c === 0x3f || c === 0x23) return i > start + 2;
  }
  return s.length > start + 2;
}

/** WHATWG URL for everything the fast scan declines: IDN → punycode, IPv4/IPv6, userinfo, escapes. */
function slowAuthority(s: string, start: number, out: RowSlot): RowErrorCode | null {
  if (!plainAuthority(s, start)) return 'bad_url';
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return 'bad_url';
  }
  const scheme = u.protocol === 'http:' ? 'http' : u.protocol === 'https:' ? 'https' : null;
  if (scheme === null) return 'unsupported_scheme';
  if (u.hostname === '' || u.port === '0') return 'bad_url';
  out.scheme = scheme;
  out.host = u.hostname;
  out.port = u.port === '' ? (scheme === 'https' ? 443 : 80) : Number(u.port);
  return null;
}

/** Origin of an absolute (or scheme-relative, given `scheme`) URL string that is already trimmed. */
function absoluteAuthority(s: string, out: RowSlot): RowErrorCode | null {
  const len = schemeLength(s);
  if (len === 0) return 'bad_url';
  const scheme = schemeOf(s, len);
  if (scheme === 'other') return 'unsupported_scheme';
  const fast = fastAuthority(s, len, scheme, out);
  if (fast === OK) return null;
  if (fast === BAD) return 'bad_url';
  return slowAuthority(s, len, out);
}

const HOST_MEMO_LIMIT = 4096;
const hostMemo = new Map<string, Authority | null>();
const memoSlot = newRowSlot();

/**
 * Origin named by a host column value: `host`, `host:port`, `[v6]:port`, a bare IPv6 address, or even
 * a URL (whose own scheme then counts). null when it names no valid host. Memoised: crawl logs repeat hosts.
 */
export function resolveHostColumn(value: string, scheme: 'http' | 'https'): Authority | null {
  const memoKey = scheme === 'https' ? value : `\u0000${value}`;
  const hit = hostMemo.get(memoKey);
  if (hit !== undefined) return hit;
  const s = trim(value);
  let result: Authority | null = null;
  if (s !== '') {
    const hasScheme = s.includes('://');
    // Two colons or more and no brackets: an IPv6 address as logs write it (`::1`), which has no port.
    const bareV6 = !hasScheme && s.charCodeAt(0) !== 0x5b && s.indexOf(':') !== s.lastIndexOf(':');
    const url = hasScheme ? s : bareV6 ? `${scheme}://[${s}]` : `${scheme}://${s}`;
    const code = absoluteAuthority(url, memoSlot);
    result = code === null ? makeAuthority(memoSlot.scheme, memoSlot.host, memoSlot.port) : null;
  }
  if (hostMemo.size >= HOST_MEMO_LIMIT) hostMemo.clear();
  hostMemo.set(memoKey, result);
  return result;
}

/**
 * Resolves one row into `out` without allocating (beyond the path string); returns null, or the
 * reason the row cannot be judged. Same rules as resolveRowUrl.
 */
export function resolveRowInto(
  url: string,
  host: string | undefined,
  scheme: 'http' | 'https',
  out: RowSlot,
): RowErrorCode | null {
  const s = trim(url);
  if (s === '') return 'missing_url';
  const hasHost = host !== undefined && host !== '';
  out.hostMismatch = false;
  if (s.charCodeAt(0) === 0x2f && s.charCodeAt(1) !== 0x2f) {
    if (!hasHost) return 'path_without_host';
    const a = resolveHostColumn(host, scheme);
    if (a === null) return trim(host) === '' ? 'path_without_host' : 'bad_host';
    out.scheme = a.origin.scheme;
    out.host = a.origin.host;
    out.port = a.origin.port;
    out.path = pathFromUrl(s);
    return null;
  }
  let abs = s.charCodeAt(0) === 0x2f ? `${scheme}:${s}` : s;
  let code = absoluteAuthority(abs, out);
  if (code === 'bad_url' || code === 'unsupported_scheme') {
    const fixed = schemelessUrl(s, hasHost ? host : undefined, scheme, out);
    if (fixed !== null) {
      abs = fixed;
      code = null;
    } else if (HOST_LIKE.test(authorityOf(s))) code = 'bad_url'; // `host:0/a` is a bad port, not a scheme
  }
  if (code !== null) return code;
  if (hasHost && host !== out.host) {
    const h = resolveHostColumn(host, scheme);
    out.hostMismatch = h === null ? trim(host) !== '' : h.origin.host !== out.host;
  }
  out.path = pathFromUrl(abs);
  return null;
}

/** `host.tld[:port]`, `1.2.3.4[:port]` or `[v6][:port]`: what a scheme-less URL starts with (validated later by WHATWG). */
const HOST_LIKE =
  /^(?:(?:[^\s.:@[\]]+\.)+[a-z\u00a0-\uffff][^\s.:@[\]]*\.?|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Last labels that are file extensions and no top-level domain: `index.html` is a relative path. */
const FILE_NAME = /\.(?:html?|php\d?|aspx?|jsp|cgi|css|js|json|xml|txt|pdf|png|jpe?g|gif|svg|webp|ico)$/i;

/** The text before the first `/`, `?`, `#` or `\`: a scheme-less URL's authority. */
function authorityOf(s: string): string {
  let end = 0;
  for (; end < s.length; end++) {
    const c = s.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c) break;
  }
  return s.slice(0, end);
}

/**
 * A URL written without its scheme (`www.example.com/a`, `example.com:8080/a?b`), as frontier lists and
 * hand-made logs have them, read as `scheme://` + url: the reference's GetPathParamsQuery also takes the
 * text before the first '/' as the authority. Accepted only when that text names the host column's host
 * or, with no host column, clearly looks like a host name; otherwise null (a relative path such as
 * `index.html/x` must not be guessed into a host). On success `out` holds the origin.
 */
function schemelessUrl(
  s: string,
  hostColumn: string | undefined,
  scheme: 'http' | 'https',
  out: RowSlot,
): string | null {
  const authority = authorityOf(s);
  if (authority === '' || authority.includes('@')) return null;
  const url = `${scheme}://${s}`;
  if (hostColumn === undefined) {
    if (!HOST_LIKE.test(authority) || FILE_NAME.test(authority)) return null;
    return absoluteAuthority(url, out) === null ? url : null;
  }
  const named = resolveHostColumn(hostColumn, scheme);
  if (named === null || absoluteAuthority(url, out) !== null) return null;
  return out.host === named.origin.host ? url : null;
}

/**
 * Resolves one row. `url` is absolute (http/https, any case, any port), scheme-relative (`//h/p`, takes
 * `scheme`), scheme-less (`h.example/p`, takes `scheme`; see schemelessUrl) or a path (`/a?b`, origin
 * from the host column with `scheme`). Never throws.
 */
export function resolveRowUrl(url: string, host: string | undefined, scheme: 'http' | 'https'): RowUrlResult {
  const slot = newRowSlot();
  const code = resolveRowInto(url, host, scheme, slot);
  if (code !== null) return FAIL[code];
  const origin: Origin = { scheme: slot.scheme, host: slot.host, port: slot.port };
  return { ok: true, origin, key: keyOf(origin), path: slot.path, hostMismatch: slot.hostMismatch };
}
