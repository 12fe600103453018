// A deliberately simple model of google/robotstxt (robots.cc: RobotsTxtParser + RobotsMatcher +
// LongestMatchRobotsMatchStrategy), written independently of src/core to check it against: it works on
// bytes line by line, feeds every line through the matcher's state machine, matches every rule with the
// position-set algorithm, and keeps the best match per kind. Slow on purpose; no indexing, no sorting.

import type { Decision } from '../../src/core/types.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

const isSpace = (b: number) => b === 32 || (b >= 9 && b <= 13);
const lower = (b: number) => (b >= 65 && b <= 90 ? b + 32 : b);

function startsWithIgnoreCase(bytes: number[], prefix: string): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (lower(bytes[i]!) !== prefix.charCodeAt(i)) return false;
  return true;
}

function strip(b: number[]): number[] {
  let s = 0;
  let e = b.length;
  while (s < e && isSpace(b[s]!)) s++;
  while (e > s && isSpace(b[e - 1]!)) e--;
  return b.slice(s, e);
}

/** GetKeyAndValueFrom on one line's bytes (already cut at the first NUL). */
function keyValue(raw: number[]): [number[], number[]] | undefined {
  const hash = raw.indexOf(35);
  const line = strip(hash >= 0 ? raw.slice(0, hash) : raw);
  let sep = line.indexOf(58);
  if (sep < 0) {
    const ws = (b: number) => b === 32 || b === 9;
    sep = line.findIndex(ws);
    if (sep < 0) return undefined;
    let v = sep;
    while (v < line.length && ws(line[v]!)) v++;
    if (line.slice(v).some(ws)) return undefined;
  }
  const key = strip(line.slice(0, sep));
  if (key.length === 0) return undefined;
  return [key, strip(line.slice(sep + 1))];
}

type Kind = 'ua' | 'allow' | 'disallow' | 'sitemap' | 'other';

function kindOf(key: number[]): Kind {
  const any = (...ps: string[]) => ps.some((p) => startsWithIgnoreCase(key, p));
  if (any('user-agent', 'useragent', 'user agent')) return 'ua';
  if (any('allow')) return 'allow';
  if (any('disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw')) return 'disallow';
  if (any('sitemap', 'site-map')) return 'sitemap';
  return 'other';
}

function escapeValue(v: number[]): string {
  const hex = '0123456789ABCDEF';
  const isHex = (b: number | undefined) =>
    b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102));
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const b = v[i]!;
    if (b === 37 && isHex(v[i + 1]) && isHex(v[i + 2])) {
      out += `%${String.fromCharCode(v[i + 1]!).toUpperCase()}${String.fromCharCode(v[i + 2]!).toUpperCase()}`;
      i += 2;
    } else if (b >= 0x80) out += `%${hex[b >> 4]}${hex[b & 15]}`;
    else out += String.fromCharCode(b);
  }
  return out;
}

/** RobotsMatchStrategy::Matches: the sorted set of path prefixes that match the pattern so far. */
export function positionSetMatches(path: string, pattern: string): boolean {
  const pos = new Int32Array(path.length + 1);
  let n = 1;
  for (let k = 0; k < pattern.length; k++) {
    const ch = pattern.charCodeAt(k);
    if (ch === 36 && k === pattern.length - 1) return pos[n - 1] === path.length;
    if (ch === 42) {
      n = path.length - pos[0]! + 1;
      for (let i = 1; i < n; i++) pos[i] = pos[i - 1]! + 1;
    } else {
      let m = 0;
      for (let i = 0; i < n; i++)
        if (pos[i]! < path.length && path.charCodeAt(pos[i]!) === ch) pos[m++] = pos[i]! + 1;
      n = m;
      if (n === 0) return false;
    }
  }
  return true;
}

/** Splits bytes into lines the way RobotsTxtParser::Parse does; yields [lineNumber, bytes-up-to-NUL]. */
export function referenceLines(bytes: Uint8Array): [number, number[]][] {
  const out: [number, number[]][] = [];
  const bom = [0xef, 0xbb, 0xbf];
  let bomPos = 0;
  let cur: number[] = [];
  let lineNo = 0;
  let lastCr = false;
  const cut = (l: number[]) => (l.includes(0) ? l.slice(0, l.indexOf(0)) : l);
  for (const ch of bytes) {
    if (bomPos < 3 && ch === bom[bomPos++]) continue;
    bomPos = 3;
    if (ch !== 10 && ch !== 13) {
      if (cur.length < 2083 * 8 - 1) cur.push(ch);
      continue;
    }
    if (!(cur.length === 0 && lastCr && ch === 10)) out.push([++lineNo, cut(cur)]);
    cur = [];
    lastCr = ch === 13;
  }
  out.push([++lineNo, cut(cur)]);
  return out;
}

interface Best {
  priority: number;
  line: number;
  text: string;
}

type Event =
  | { kind: 'ua'; global: boolean; token: string }
  | { kind: 'allow' | 'disallow'; line: number; pattern: string; text: string };

/** The handler calls RobotsTxtParser makes for a body, in order (path-independent). */
function events(bytes: Uint8Array): Event[] {
  const out: Event[] = [];
  for (const [line, raw] of referenceLines(bytes)) {
    const kv = keyValue(raw);
    if (kv === undefined) continue;
    const [key, value] = kv;
    const kind = kindOf(key);
    if (kind === 'ua') {
      const global = value.length >= 1 && value[0] === 42 && (value.length === 1 || isSpace(value[1]!));
      let end = 0;
      const ok = (b: number) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 45 || b === 95;
      while (end < value.length && ok(value[end]!)) end++;
      out.push({ kind, global, token: String.fromCharCode(...value.slice(0, end)).toLowerCase() });
    } else if (kind === 'allow' || kind === 'disallow') {
      const text = `${kind === 'allow' ? 'Allow' : 'Disallow'}: ${dec.decode(new Uint8Array(value))}`;
      out.push({ kind, line, pattern: escapeValue(value), text });
    }
  }
  return out;
}

/**
 * The reference's verdict function for one body and one agent: every call replays every line through
 * RobotsMatcher's state machine for the given path (as pathFromUrl gives it), in Decision form.
 */
export function referenceMatcher(body: string | Uint8Array, agent: string): (path: string) => Decision {
  const evs = events(typeof body === 'string' ? enc.encode(body) : body);
  const agentLower = [...agent].map((c) => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c)).join('');
  return (path) => {
    const none = (): Best => ({ priority: -1, line: 0, text: '' });
    const allow = { specific: none(), global: none() };
    const disallow = { specific: none(), global: none() };
    let seenGlobal = false;
    let seenSpecific = false;
    let everSpecific = false;
    let seenSeparator = false;
    const record = (which: typeof allow, priority: number, line: number, text: string) => {
      const slot = seenSpecific ? which.specific : which.global;
      if (slot.priority < priority) Object.assign(slot, { priority, line, text });
    };
    const handleAllow = (line: number, pattern: string, text: string): void => {
      if (positionSetMatches(path, pattern)) {
        record(allow, pattern.length, line, text);
        return;
      }
      const slash = pattern.lastIndexOf('/');
      if (slash >= 0 && pattern.slice(slash).startsWith('/index.htm')) {
        handleAllow(line, `${pattern.slice(0, slash + 1)}$`, text);
      }
    };
    for (const e of evs) {
      if (e.kind === 'ua') {
        if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false;
        if (e.global) seenGlobal = true;
        else if (e.token === agentLower) everSpecific = seenSpecific = true;
      } else {
        if (!seenGlobal && !seenSpecific) continue;
        seenSeparator = true;
        if (e.kind === 'allow') handleAllow(e.line, e.pattern, e.text);
        else if (positionSetMatches(path, e.pattern)) record(disallow, e.pattern.length, e.line, e.text);
      }
    }
    const implicit: Decision = { allowed: true, verdict: 'allowed_implicit', line: 0, rule: '' };
    // disallow() needs a priority above 0, but matching_line() is HigherPriorityMatch(disallow, allow)
    // whatever the priority: an empty pattern (priority 0) names its line and allows.
    const decide = (a: Best, d: Best): Decision | undefined => {
      if (a.priority < 0 && d.priority < 0) return undefined;
      if (d.priority > 0 && d.priority > a.priority)
        return { allowed: false, verdict: 'disallowed_explicit', line: d.line, rule: d.text };
      const m = d.priority > a.priority ? d : a;
      return { allowed: true, verdict: 'allowed_explicit', line: m.line, rule: m.text };
    };
    const specific = decide(allow.specific, disallow.specific);
    const d = specific ?? (everSpecific ? implicit : (decide(allow.global, disallow.global) ?? implicit));
    // Our one exception (RFC 9309 §2.2.2): /robots.txt is never disallowed.
    return path === '/robots.txt' && !d.allowed ? implicit : d;
  };
}

/** One-shot form of referenceMatcher. */
export function referenceDecision(body: string | Uint8Array, agent: string, path: string): Decision {
  return referenceMatcher(body, agent)(path);
}
