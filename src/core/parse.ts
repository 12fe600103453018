// Builds groups, sitemaps and other records from the lexed lines, with the reference's group semantics
// (RobotsMatcher::HandleUserAgent/HandleAllow/HandleDisallow).

import { extractProductToken, isGlobalAgent } from './agent.js';
import { binaryToText, isAscii } from './bytes.js';
import { escapePattern } from './escape.js';
import { KeyKind, lexRobots } from './lexer.js';
import type { RobotsRecord, RuleInfo } from './types.js';

/** One Allow/Disallow line of a group. */
export interface GroupRule {
  readonly info: RuleInfo;
  /** The value escaped the reference's way (pure ASCII): what is matched. */
  readonly pattern: string;
}

/** A run of user-agent lines and the rules after it, up to the next user-agent line after a rule. */
export interface Group {
  /** Product tokens of the group's user-agent lines, ASCII lower-cased (`*` lines are not listed). */
  readonly tokens: string[];
  /** Some user-agent line of the group names every crawler (`*`). */
  global: boolean;
  readonly rules: GroupRule[];
  /** The group's first valid Crawl-delay, in seconds. */
  crawlDelay: number | undefined;
}

export interface ParsedRobots {
  readonly groups: Group[];
  readonly sitemaps: string[];
  readonly records: RobotsRecord[];
}

const CRAWL_DELAY = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A Crawl-delay value: a non-negative decimal number, fractions allowed; anything else is ignored. */
export function parseCrawlDelay(value: string): number | undefined {
  if (!CRAWL_DELAY.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function isCrawlDelayKey(key: string): boolean {
  return key.length >= 11 && key.slice(0, 11).toLowerCase() === 'crawl-delay';
}

/**
 * Parses a binary string (one char per byte). Total: never throws. With `onlyFor` (agent keys, ASCII
 * lower case), the rules of a group that names none of them and not `*` are not kept (its tokens are):
 * those groups cannot be selected for these agents, and most of a file's rules are often theirs.
 */
export function parseBinary(s: string, onlyFor?: readonly string[]): ParsedRobots {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  const records: RobotsRecord[] = [];
  let current: Group | undefined;
  // Set by an Allow/Disallow line in a group: the next user-agent line starts a new group.
  let seenSeparator = false;
  // Whether the current group's rules are kept (see onlyFor); undefined until its first rule.
  let keep: boolean | undefined;

  lexRobots(s, (line, kind, ks, ke, vs, ve) => {
    switch (kind) {
      case KeyKind.UserAgent: {
        if (current === undefined || seenSeparator) {
          current = { tokens: [], global: false, rules: [], crawlDelay: undefined };
          groups.push(current);
          seenSeparator = false;
          keep = undefined;
        }
        const value = s.slice(vs, ve);
        if (isGlobalAgent(value)) current.global = true;
        // The token is [a-zA-Z_-]* by construction, so toLowerCase is ASCII-only here.
        else current.tokens.push(extractProductToken(value).toLowerCase());
        return;
      }
      case KeyKind.Allow:
      case KeyKind.Disallow: {
        if (current === undefined) return; // rules before any user-agent line are ignored
        seenSeparator = true;
        // A group's user-agent lines all come before its first rule: decide once per group.
        keep ??= onlyFor === undefined || current.global || current.tokens.some((t) => onlyFor.includes(t));
        if (!keep) return;
        const raw = s.slice(vs, ve);
        const allowed = kind === KeyKind.Allow;
        // The usual value is ASCII without '%': its text and its pattern are the value itself.
        const plain = isAscii(raw);
        const rule = `${allowed ? 'Allow' : 'Disallow'}: ${plain ? raw : binaryToText(raw)}`;
        // Reading a char flattens the concatenation, so the rule text stops pinning the whole body.
        rule.charCodeAt(0);
        const pattern = plain && raw.indexOf('%') < 0 ? raw : escapePattern(raw);
        current.rules.push({ info: { allowed, line, rule }, pattern });
        return;
      }
      case KeyKind.Sitemap: {
        if (ve > vs) sitemaps.push(binaryToText(s.slice(vs, ve)));
        return;
      }
      default: {
        const key = binaryToText(s.slice(ks, ke));
        const value = binaryToText(s.slice(vs, ve));
        records.push({ line, key, value });
        if (current !== undefined && current.crawlDelay === undefined && isCrawlDelayKey(key)) {
          current.crawlDelay = parseCrawlDelay(value);
        }
      }
    }
  });
  return { groups, sitemaps, records };
}
