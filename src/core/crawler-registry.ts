// From a User-Agent header (or a bare product token) to the robots.txt product token a crawler is judged under.

import { createRequire } from 'node:module';
import type crawlerUserAgentsList from 'crawler-user-agents';
import { asciiLower, normalizeAgent } from './agent.js';
import { CRAWLER_TABLE, type CrawlerEntry, type CrawlerPurpose } from './crawler-table.js';

export { CRAWLER_PURPOSES, type CrawlerPurpose, MAJOR_CRAWLERS } from './crawler-table.js';

export interface CrawlerInfo {
  readonly token: string;
  readonly operator: string;
  readonly purpose: CrawlerPurpose;
}

export type ResolvedCrawler =
  | { readonly token: string; readonly known: boolean; readonly crawler?: CrawlerInfo }
  | { readonly token: null; readonly reason: 'not_a_crawler' };

const NOT_A_CRAWLER: ResolvedCrawler = Object.freeze({ token: null, reason: 'not_a_crawler' });

const INFO = new Map<string, CrawlerInfo>();
for (const e of CRAWLER_TABLE) {
  INFO.set(asciiLower(e.token), Object.freeze({ token: e.token, operator: e.operator, purpose: e.purpose }));
}

/** The operator and purpose of a token in our table (case-insensitive), or undefined. */
export function crawlerInfo(token: string): CrawlerInfo | undefined {
  return INFO.get(asciiLower(token));
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

interface TablePattern {
  readonly lower: string;
  readonly entry: CrawlerEntry;
}

// Longest first: the first whole-word hit is the most specific (`Googlebot-Image` before `Googlebot`).
const TABLE_PATTERNS: readonly TablePattern[] = CRAWLER_TABLE.flatMap((entry) =>
  entry.patterns.map((p) => ({ lower: p.toLowerCase(), entry })),
).sort((a, b) => b.lower.length - a.lower.length);

function tableMatch(lowerUa: string): CrawlerEntry | undefined {
  for (const p of TABLE_PATTERNS) {
    let at = lowerUa.indexOf(p.lower);
    while (at >= 0) {
      const end = at + p.lower.length;
      // Whole words: a pattern's own edge that is not a letter or digit (`Yeti/`) needs no boundary.
      const before =
        at === 0 || !isWordChar(p.lower.charCodeAt(0)) || !isWordChar(lowerUa.charCodeAt(at - 1));
      const after =
        end === lowerUa.length ||
        !isWordChar(p.lower.charCodeAt(p.lower.length - 1)) ||
        !isWordChar(lowerUa.charCodeAt(end));
      if (before && after) return p.entry;
      at = lowerUa.indexOf(p.lower, at + 1);
    }
  }
  return undefined;
}

/**
 * crawler-user-agents' patterns, compiled once on first use: most are plain literals, indexed by their
 * first three characters so a header is scanned once; the few real regular expressions run one by one.
 */
interface ForeignPatterns {
  readonly literals: Map<string, string[]>;
  readonly regexes: RegExp[];
}

let foreign: ForeignPatterns | undefined;

function foreignPatterns(): ForeignPatterns {
  if (foreign !== undefined) return foreign;
  // Loaded on first use: half a megabyte of JSON that most runs (product tokens, no agent column) never read.
  const crawlerUserAgents: typeof crawlerUserAgentsList = createRequire(import.meta.url)(
    'crawler-user-agents',
  );
  const literals = new Map<string, string[]>();
  const regexes: RegExp[] = [];
  for (const { pattern } of crawlerUserAgents) {
    if (/^(?:[^\\.^$|?*+()[\]{}]|\\[^a-zA-Z0-9])*$/.test(pattern)) {
      const literal = pattern.replace(/\\(.)/g, '$1');
      if (literal.length >= 3) {
        const key = literal.slice(0, 3);
        const list = literals.get(key);
        if (list === undefined) literals.set(key, [literal]);
        else list.push(literal);
        continue;
      }
    }
    regexes.push(new RegExp(pattern));
  }
  foreign = { literals, regexes };
  return foreign;
}

/** Where a crawler-user-agents pattern matches the header: [start, end), or undefined. */
function foreignMatch(ua: string): [number, number] | undefined {
  const { literals, regexes } = foreignPatterns();
  for (let i = 0; i + 3 <= ua.length; i++) {
    const list = literals.get(ua.slice(i, i + 3));
    if (list === undefined) continue;
    for (const literal of list) if (ua.startsWith(literal, i)) return [i, i + literal.length];
  }
  for (const re of regexes) {
    const m = re.exec(ua);
    if (m !== null) return [m.index, m.index + m[0].length];
  }
  return undefined;
}

function isSeparator(c: number): boolean {
  // space, tab, ( ) ; , + "
  return c === 32 || c === 9 || c === 40 || c === 41 || c === 59 || c === 44 || c === 43 || c === 34;
}

const NOT_PRODUCTS = new Set([
  'mozilla',
  'compatible',
  'applewebkit',
  'khtml',
  'like',
  'gecko',
  'chrome',
  'safari',
  'version',
  'mobile',
]);

/** The product (`Name/1.2` → `Name`) of the header around [start, end), unless it is a URL or a browser word. */
function productAround(ua: string, start: number, end: number): string | undefined {
  let s = start;
  let e = Math.max(end, start + 1);
  while (s > 0 && !isSeparator(ua.charCodeAt(s - 1))) s--;
  while (e < ua.length && !isSeparator(ua.charCodeAt(e))) e++;
  const piece = ua.slice(s, e);
  if (/:\/\/|^https?:|^www\.|@/i.test(piece)) return undefined;
  const token = normalizeAgent(piece).replace(/^[^A-Za-z0-9_]+|[^A-Za-z0-9_]+$/g, '');
  if (token === '' || NOT_PRODUCTS.has(token.toLowerCase())) return undefined;
  return token;
}

/** The `compatible; Name/x.y` product, else the header's first product when it is not `Mozilla`. */
function headlineProduct(ua: string): string | undefined {
  const compatible = /compatible;\s*/i.exec(ua);
  if (compatible !== null) {
    const at = compatible.index + compatible[0].length;
    const p = productAround(ua, at, at + 1);
    if (p !== undefined) return p;
  }
  return productAround(ua, 0, 1);
}

const BOT_WORDS = /bot|crawl|spider|slurp|fetch|scrap|archiv|index/gi;

function botProduct(ua: string): string | undefined {
  for (const m of ua.matchAll(BOT_WORDS)) {
    const p = productAround(ua, m.index, m.index + m[0].length);
    if (p !== undefined) return p;
  }
  return undefined;
}

function judged(token: string): ResolvedCrawler {
  const crawler = crawlerInfo(token);
  return crawler === undefined ? { token, known: false } : { token: crawler.token, known: true, crawler };
}

function resolveHeader(ua: string): ResolvedCrawler {
  const entry = tableMatch(ua.toLowerCase());
  if (entry !== undefined) return judged(entry.token);
  const hit = foreignMatch(ua);
  if (hit !== undefined) {
    const token = productAround(ua, hit[0], hit[1]) ?? headlineProduct(ua) ?? botProduct(ua);
    if (token !== undefined) return judged(token);
  }
  const token = botProduct(ua);
  return token === undefined ? NOT_A_CRAWLER : judged(token);
}

function resolveUncached(value: string): ResolvedCrawler {
  const v = value.trim();
  if (v === '' || v === '-') return NOT_A_CRAWLER;
  if (!/[\s(]/.test(v)) {
    const token = normalizeAgent(v);
    return token === '' ? NOT_A_CRAWLER : judged(token);
  }
  return resolveHeader(v);
}

/** An access log repeats a few hundred headers; this many distinct ones are remembered. */
const MEMO_SIZE = 4096;
/** Longer headers are resolved every time rather than held. */
const MEMO_MAX_KEY = 1024;
const memo = new Map<string, ResolvedCrawler>();

/**
 * The product token a row's crawler is judged under. A bare token (`GPTBot`, `MyBot/2.1`) is used as is;
 * a User-Agent header is looked up in our table, then in crawler-user-agents, then read for a bot-like
 * product; a browser's header, an empty cell or `-` is not a crawler.
 */
export function resolveCrawler(userAgentOrToken: string): ResolvedCrawler {
  const hit = memo.get(userAgentOrToken);
  if (hit !== undefined) {
    memo.delete(userAgentOrToken);
    memo.set(userAgentOrToken, hit);
    return hit;
  }
  const resolved = resolveUncached(userAgentOrToken);
  if (userAgentOrToken.length <= MEMO_MAX_KEY) {
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
    memo.set(userAgentOrToken, resolved);
  }
  return resolved;
}
