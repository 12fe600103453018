// URL → path+query, as the reference's GetPathParamsQuery takes it.

/** Where a URL's path+query lies inside it (a reusable out-parameter: locating allocates nothing). */
export interface PathSpan {
  start: number;
  end: number;
}

/** The path is `url[start, end)` as is. */
export const SPAN_IN_PLACE = 0;
/** The path is `/` followed by `url[start, end)` (it began with '?' or ';'). */
export const SPAN_NEEDS_SLASH = 1;
/** The URL has no path: the path is `/`. */
export const SPAN_ROOT = 2;

// Fast paths for `http(s)://host/path` with none of / ? ; # in the host. Both are sticky, so a match
// leaves lastIndex on the '/' that starts the path. Why regex: on Node 20 here a regex test costs ~25 ns
// plus ~1 ns a scanned char, an indexOf ~14 ns, a charCodeAt ~2.5 ns (notes/locate.md, bench/locate.bench.mjs).
/** Short URLs: the regex also checks that no '#' or NUL follows, so the path runs to the end. */
const SHORT_HTTP = /https?:\/\/[^/?;#]*(?=\/[^#\0]*$)/y;
/** Long URLs: the regex stops at the path; two memchr-fast indexOf find its end. */
const LONG_HTTP = /https?:\/\/[^/?;#]*(?=\/)/y;
/** Up to here scanning the path in the regex beats two indexOf calls (crossover ~40 path chars). */
const SHORT_URL_MAX = 64;

/**
 * Locates the path, params and query of a URL the way GetPathParamsQuery does: a leading `//` is
 * skipped; a `://` counts as the scheme's end only before any '/', '?' or ';'; the path runs from the
 * first of those after the authority to the fragment ('#' before the path means no path). A NUL ends
 * the path too (the reference matches the path as a C string).
 */
export function locatePath(url: string, span: PathSpan): number {
  const n = url.length;
  // 'h': paths and other schemes skip the regex.
  if (url.charCodeAt(0) === 104) {
    if (n <= SHORT_URL_MAX) {
      SHORT_HTTP.lastIndex = 0;
      if (SHORT_HTTP.test(url)) {
        span.start = SHORT_HTTP.lastIndex;
        span.end = n;
        return SPAN_IN_PLACE;
      }
    } else {
      LONG_HTTP.lastIndex = 0;
      if (LONG_HTTP.test(url)) {
        const start = LONG_HTTP.lastIndex;
        let end = url.indexOf('#', start);
        if (end < 0) end = n;
        const nul = url.indexOf('\0', start);
        span.start = start;
        span.end = nul >= 0 && nul < end ? nul : end;
        return SPAN_IN_PLACE;
      }
    }
  }
  const authority = httpAuthority(url);
  return authority < 0 ? locateGeneral(url, span) : locateAfterAuthority(url, authority, span);
}

/** 7 or 8 when `url` starts with `http://` or `https://`, else -1 (charCodeAt: cheaper than startsWith). */
function httpAuthority(url: string): number {
  if (
    url.charCodeAt(0) !== 104 ||
    url.charCodeAt(1) !== 116 ||
    url.charCodeAt(2) !== 116 ||
    url.charCodeAt(3) !== 112
  ) {
    return -1;
  }
  const colon = url.charCodeAt(4) === 115 ? 5 : 4;
  return url.charCodeAt(colon) === 58 && url.charCodeAt(colon + 1) === 47 && url.charCodeAt(colon + 2) === 47
    ? colon + 3
    : -1;
}

/** The path of `url` given that its authority starts at `a` (after "scheme://"). */
function locateAfterAuthority(url: string, a: number, span: PathSpan): number {
  const n = url.length;
  let start = url.indexOf('/', a);
  if (start < 0) start = n;
  const query = url.indexOf('?', a);
  if (query >= 0 && query < start) start = query;
  const param = url.indexOf(';', a);
  if (param >= 0 && param < start) start = param;
  let end = url.indexOf('#', a);
  if (end < 0) end = n;
  else if (end < start) return SPAN_ROOT;
  if (start === n) return SPAN_ROOT;
  const nul = url.indexOf('\0', start);
  if (nul >= 0 && nul < end) end = nul;
  span.start = start;
  span.end = end;
  return url.charCodeAt(start) === 47 ? SPAN_IN_PLACE : SPAN_NEEDS_SLASH;
}

/** Any other URL or path, in one pass. */
function locateGeneral(url: string, span: PathSpan): number {
  const n = url.length;
  const searchStart = n >= 2 && url.charCodeAt(0) === 47 && url.charCodeAt(1) === 47 ? 2 : 0;
  let i = searchStart;
  let c = 0;
  for (; i < n; i++) {
    c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 59) break;
    if (c === 35) return SPAN_ROOT;
  }
  if (i === n) return SPAN_ROOT;
  // The first "://" can only be where the first '/' is its middle char; any later one follows a '/'.
  if (c === 47 && i > searchStart && url.charCodeAt(i - 1) === 58 && url.charCodeAt(i + 1) === 47) {
    return locateAfterAuthority(url, i + 2, span);
  }
  const start = i;
  for (; i < n; i++) {
    c = url.charCodeAt(i);
    if (c === 35 || c === 0) break;
  }
  span.start = start;
  span.end = i;
  return url.charCodeAt(start) === 47 ? SPAN_IN_PLACE : SPAN_NEEDS_SLASH;
}

const scratch: PathSpan = { start: 0, end: 0 };

/**
 * The path, params and query of a URL (or of a path): scheme, authority and fragment removed; the
 * result always starts with '/', and is '/' when the URL has no path. The path is not re-escaped:
 * the caller gives URLs in escaped form, as the reference expects.
 */
export function pathFromUrl(url: string): string {
  const kind = locatePath(url, scratch);
  if (kind === SPAN_ROOT) return '/';
  const path = url.slice(scratch.start, scratch.end);
  return kind === SPAN_IN_PLACE ? path : `/${path}`;
}
