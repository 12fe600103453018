/**
 * Where a 3xx leads, shared by the live fetch and the import of archived captures (which must not load
 * the HTTP client to read a Location).
 */

/** RFC 9309 §2.3.1.2: follow at least five consecutive redirects. */
export const MAX_REDIRECTS = 5;

/**
 * A header value as its bytes meant it: HTTP clients hand header bytes over one char per byte (latin1),
 * but a raw non-ASCII Location is UTF-8 in practice (`/röbots.txt`), as browsers and curl read it.
 */
function headerText(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return STRICT_UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value; // not UTF-8: Latin-1 it is
  }
}
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The http(s) URL a 3xx's Location names, resolved against `base`, without fragment; else undefined. */
export function nextLocation(location: string | null, base: string): URL | undefined {
  if (location === null || location.trim() === '') return undefined;
  try {
    const next = new URL(headerText(location.trim()), base);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return undefined;
    next.hash = '';
    return next;
  } catch {
    return undefined;
  }
}
