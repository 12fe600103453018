import { keyOf, newRowSlot, resolveRowInto } from '../../rows/row-url.js';

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
  const end = fastSiteEnd(url, 0, url.length);
  return end < 0 ? null : url.slice(0, end);
}

/**
 * Where the site of the URL `text.slice(start, end)` ends when the URL has the common shape (the site is
 * then `text.slice(start, result)`); -1 for any other shape (see siteOf).
 */
export function fastSiteEnd(text: string, start: number, end: number): number {
  let hostStart: number;
  if (text.startsWith('https://', start) && end - start >= 8) hostStart = start + 8;
  else if (text.startsWith('http://', start) && end - start >= 7) hostStart = start + 7;
  else return -1;
  let colon = -1;
  let labelStart = hostStart;
  let i = hostStart;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) continue;
    if (c === 0x2d) {
      // A punycode label (`xn--`) is validated by IDNA: the URL rules decide.
      if (colon < 0 && i === labelStart + 3 && text.startsWith('xn-', labelStart)) return -1;
      continue;
    }
    if (c === 0x2e && colon < 0) {
      labelStart = i + 1;
      continue;
    }
    if (c === 0x3a && colon < 0) {
      colon = i;
      continue;
    }
    return -1;
  }
  const hostEnd = colon < 0 ? i : colon;
  const last = text.charCodeAt(hostEnd - 1);
  const first = text.charCodeAt(labelStart);
  // An empty host, a dot at either end, a last label that starts with a digit (IPv4 in any of its forms,
  // `0x7f`): the URL rules decide.
  if (
    hostEnd === hostStart ||
    last === 0x2e ||
    text.charCodeAt(hostStart) === 0x2e ||
    (first >= 0x30 && first <= 0x39)
  ) {
    return -1;
  }
  if (colon >= 0) {
    const port = text.slice(colon + 1, i);
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535 || isDefaultPort(hostStart - start, port)) {
      return -1;
    }
  }
  return i;
}

/** The site of a URL by the classifier's own rules (the host column for a path), or ''. */
export function slowSite(url: string, host: string): string {
  const code = resolveRowInto(decodeLatin1(url), host === '' ? undefined : decodeLatin1(host), 'https', slot);
  return code === null ? keyOf(slot) : '';
}
