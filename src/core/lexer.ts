// Splits a robots.txt (as a binary string) into key/value lines exactly as the reference's
// RobotsTxtParser::Parse and GetKeyAndValueFrom do.

/** Bytes of a line kept by the reference (2083 * 8 - 1); the rest of the line is dropped. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

/** Kinds of keys the reference recognises (plain numbers: cheap to compare, safe across modules). */
export const KeyKind = { UserAgent: 0, Allow: 1, Disallow: 2, Sitemap: 3, Unknown: 4 } as const;
export type KeyKind = (typeof KeyKind)[keyof typeof KeyKind];

/** Receives one key/value line: offsets into the binary string, both ranges already stripped. */
export type LineSink = (
  line: number,
  kind: KeyKind,
  keyStart: number,
  keyEnd: number,
  valueStart: number,
  valueEnd: number,
) => void;

/** absl::ascii_isspace: space, \t, \n, \v, \f, \r. */
export function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

const USER_AGENT_PREFIXES = ['user-agent', 'useragent', 'user agent'];
const DISALLOW_PREFIXES = ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];
const SITEMAP_PREFIXES = ['sitemap', 'site-map'];

/** The char at `i`, ASCII upper case folded to lower (no byte ≥ 0x80 lower-cases to ASCII). */
function lowerAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Whether `s[start, end)` starts with the lower-case ASCII `prefix`, ignoring ASCII case. */
function hasPrefixAt(s: string, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let j = 0; j < prefix.length; j++) if (lowerAt(s, start + j) !== prefix.charCodeAt(j)) return false;
  return true;
}

function hasAnyPrefixAt(s: string, start: number, end: number, prefixes: readonly string[]): boolean {
  for (const p of prefixes) if (hasPrefixAt(s, start, end, p)) return true;
  return false;
}

/**
 * The reference's ParsedRobotsKey::Parse on the key `s[start, end)`: case-insensitive prefixes, typos
 * included. Compares chars in place: a key is classified on every line, so no slice is made.
 */
export function classifyKeyAt(s: string, start: number, end: number): KeyKind {
  // The usual spellings first: one native compare each.
  const length = end - start;
  switch (lowerAt(s, start)) {
    case 117: // u
      if (length >= 10 && s.startsWith('User-agent', start)) return KeyKind.UserAgent;
      return hasAnyPrefixAt(s, start, end, USER_AGENT_PREFIXES) ? KeyKind.UserAgent : KeyKind.Unknown;
    case 97: // a
      if (length >= 5 && s.startsWith('Allow', start)) return KeyKind.Allow;
      return hasPrefixAt(s, start, end, 'allow') ? KeyKind.Allow : KeyKind.Unknown;
    case 100: // d
      if (length >= 8 && s.startsWith('Disallow', start)) return KeyKind.Disallow;
      return hasAnyPrefixAt(s, start, end, DISALLOW_PREFIXES) ? KeyKind.Disallow : KeyKind.Unknown;
    case 115: // s
      return hasAnyPrefixAt(s, start, end, SITEMAP_PREFIXES) ? KeyKind.Sitemap : KeyKind.Unknown;
    default:
      return KeyKind.Unknown;
  }
}

/** `classifyKeyAt` on a whole key. */
export function classifyKey(key: string): KeyKind {
  return classifyKeyAt(key, 0, key.length);
}

/**
 * Parses one line [start, contentEnd) (comment and anything after a NUL already cut off; `colon` is the
 * line's first ':' before contentEnd, or -1) and emits it if it is a key/value line.
 */
function parseLine(
  s: string,
  line: number,
  start: number,
  contentEnd: number,
  colon: number,
  sink: LineSink,
): void {
  let ls = start;
  let re = contentEnd;
  while (ls < re && isAsciiSpace(s.charCodeAt(ls))) ls++;
  while (re > ls && isAsciiSpace(s.charCodeAt(re - 1))) re--;
  if (ls === re) return;
  let sep = colon;
  if (sep < 0) {
    // Google-specific: a missing colon is accepted when exactly two space/tab-separated tokens remain.
    for (let i = ls; i < re; i++) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9) {
        sep = i;
        break;
      }
    }
    if (sep < 0) return;
    let v = sep;
    while (v < re && (s.charCodeAt(v) === 32 || s.charCodeAt(v) === 9)) v++;
    for (let i = v; i < re; i++) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9) return;
    }
  }
  let ke = sep;
  while (ke > ls && isAsciiSpace(s.charCodeAt(ke - 1))) ke--;
  if (ke === ls) return;
  let vs = sep + 1;
  while (vs < re && isAsciiSpace(s.charCodeAt(vs))) vs++;
  sink(line, classifyKeyAt(s, ls, ke), ls, ke, vs, re);
}

/**
 * Walks the lines of a binary string: a partial or complete UTF-8 BOM at the start is skipped; LF, CR
 * and CRLF end lines (CRLF once, CR CR twice); the last line is always emitted, so line numbers count
 * the way the reference counts them. `firstLine`: lines before `s` (the text it continues). Returns the
 * last line's number.
 */
export function lexRobots(s: string, sink: LineSink, firstLine = 0): number {
  const n = s.length;
  let i = 0;
  if (n > 0 && s.charCodeAt(0) === 0xef) {
    i = 1;
    if (n > 1 && s.charCodeAt(1) === 0xbb) {
      i = 2;
      if (n > 2 && s.charCodeAt(2) === 0xbf) i = 3;
    }
  }
  // Next occurrence at or after the current line's start of each char that matters, found by native
  // scans (a JS char loop costs several times more per char) and reused until a line passes it.
  let lf = -1;
  let cr = -1;
  let hash = -1;
  let nul = -1;
  let colon = -1;
  let line = firstLine;
  let start = i;
  let lastWasCr = false;
  for (;;) {
    if (lf < start) lf = nextOf(s, '\n', start);
    if (cr < start) cr = nextOf(s, '\r', start);
    const end = Math.min(lf, cr);
    if (!(end < n && s.charCodeAt(end) === 10 && lastWasCr && end === start)) {
      // The reference handles a line as a C string: a NUL ends it, and so does a comment.
      let cut = end - start > MAX_LINE_BYTES ? start + MAX_LINE_BYTES : end;
      if (hash < start) hash = nextOf(s, '#', start);
      if (nul < start) nul = nextOf(s, '\0', start);
      if (hash < cut) cut = hash;
      if (nul < cut) cut = nul;
      if (colon < start) colon = nextOf(s, ':', start);
      parseLine(s, ++line, start, cut, colon < cut ? colon : -1, sink);
    }
    if (end === n) return line;
    lastWasCr = s.charCodeAt(end) === 13;
    start = end + 1;
  }
}

/** Index of the first `ch` at or after `from`, or the string's length. */
function nextOf(s: string, ch: string, from: number): number {
  const k = s.indexOf(ch, from);
  return k < 0 ? s.length : k;
}
