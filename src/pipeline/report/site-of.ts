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
  let labelStart = start;
  let i = start;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) continue;
    if (c === 0x2d) {
      // A punycode label (`xn--`) is validated by IDNA: the URL rules decide.
      if (colon < 0 && i === labelStart + 3 && url.startsWith('xn-', labelStart)) return null;
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
    return null;
  }
  const hostEnd = colon < 0 ? i : colon;
  const last = url.charCodeAt(hostEnd - 1);
  const first = url.charCodeAt(labelStart);
  // An empty host, a dot at either end, a last label that starts with a digit (IPv4 in any of its forms,
  // `0x7f`): the URL rules decide.
  if (
    hostEnd === start ||
    last === 0x2e ||
    url.charCodeAt(start) === 0x2e ||
    (first >= 0x30 && first <= 0x39)
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

/** The site of a URL by the classifier's own rules (the host column for a path), or ''. */
export function slowSite(url: string, host: string): string {
  const code = resolveRowInto(decodeLatin1(url), host === '' ? undefined : decodeLatin1(host), 'https', slot);
  return code === null ? keyOf(slot) : '';
}
