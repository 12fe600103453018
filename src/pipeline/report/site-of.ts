import { keyOf, newRowSlot, resolveRowInto } from '../../workers/row-url.js';

const slot = newRowSlot();

/** latin1 view of UTF-8 bytes → the text (only strings with a byte ≥ 0x80 are decoded). */
export function decodeLatin1(s: string): string {
  return /[\u0080-\u00ff]/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

function isDefaultPort(scheme: number, port: string): boolean {
  return (scheme === 8 && port === '443') || (scheme === 7 && port === '80');
}

/**
 * The row's site, `scheme://host[:port]` as classify keys origins (`keyOf`), or '' when the row names
 * none. `url` and `host` are latin1 views. The common shape (lower-case `http(s)://host[:port]/…` with a
 * plain ASCII host) is cut by hand; anything else goes through the classifier's own URL rules.
 */
export function siteOf(url: string, host: string): string {
  return fastSite(url) ?? slowSite(url, host);
}

/** The site of the common shape of URL, cut by hand; null for any other (see siteOf). */
export function fastSite(url: string): string | null {
  let start = 0;
  if (url.startsWith('https://')) start = 8;
  else if (url.startsWith('http://')) start = 7;
  else return null;
  let colon = -1;
  let i = start;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d) continue;
    if (c === 0x2e && colon < 0) continue;
    if (c === 0x3a && colon < 0) {
      colon = i;
      continue;
    }
    return null;
  }
  const hostEnd = colon < 0 ? i : colon;
  const last = url.charCodeAt(hostEnd - 1);
  const lastLabel = url.charCodeAt(url.lastIndexOf('.', hostEnd - 1) + 1 || start);
  // An empty host, a dot at either end, a last label that starts with a digit (IPv4 in any of its forms,
  // `0x7f`), a punycode label (validated by IDNA): the URL rules decide.
  if (
    hostEnd === start ||
    last === 0x2e ||
    url.charCodeAt(start) === 0x2e ||
    (last >= 0x30 && last <= 0x39) ||
    (lastLabel >= 0x30 && lastLabel <= 0x39) ||
    isPunycodeIn(url, start, hostEnd)
  ) {
    return null;
  }
  if (colon >= 0) {
    const port = url.slice(colon + 1, i);
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535 || isDefaultPort(start, port)) {
      return null;
    }
  }
  return url.slice(0, i);
}

function isPunycodeIn(url: string, start: number, end: number): boolean {
  const at = url.indexOf('xn--', start);
  return at >= 0 && at < end;
}

/** The site of a URL by the classifier's own rules (the host column for a path), or ''. */
export function slowSite(url: string, host: string): string {
  const code = resolveRowInto(decodeLatin1(url), host === '' ? undefined : decodeLatin1(host), 'https', slot);
  return code === null ? keyOf(slot) : '';
}
