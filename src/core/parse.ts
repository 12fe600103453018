// Builds groups, sitemaps and other records from the lexed lines, with the reference's group semantics
// (RobotsMatcher::HandleUserAgent/HandleAllow/HandleDisallow).

import { extractProductToken, isGlobalAgent } from './agent.js';
import { binaryToText, isAscii } from './bytes.js';
import { escapePattern } from './escape.js';
import { KeyKind, lexRobots } from './lexer.js';
import type { Decision, RobotsRecord, RuleInfo } from './types.js';

/**
 * One Allow/Disallow line of a group. Its text (`info.rule`) is made on first use: most rules of a parsed
 * file are never reported, so parsing keeps only the value.
 */
export class GroupRule {
  readonly allowed: boolean;
  readonly line: number;
  /** The value escaped the reference's way (pure ASCII): what is matched. */
  readonly pattern: string;
  /** The value as a binary string (one char per byte). */
  private readonly value: string;
  private made: RuleInfo | undefined;
  private decided: Decision | undefined;

  constructor(allowed: boolean, line: number, value: string, pattern: string) {
    this.allowed = allowed;
    this.line = line;
    this.value = value;
    this.pattern = pattern;
    this.made = undefined;
    this.decided = undefined;
  }

  /** The Decision this rule gives when it decides by its own pattern. */
  get decision(): Decision {
    if (this.decided === undefined) {
      const { allowed, line, rule } = this.info;
      this.decided = Object.freeze({
        allowed,
        verdict: allowed ? 'allowed_explicit' : 'disallowed_explicit',
        line,
        rule,
      });
    }
    return this.decided;
  }

  get info(): RuleInfo {
    if (this.made === undefined) {
      const rule = `${this.allowed ? 'Allow' : 'Disallow'}: ${binaryToText(this.value)}`;
      // Reading a char flattens the concatenation, so the rule text stops pinning the whole body.
      rule.charCodeAt(0);
      this.made = { allowed: this.allowed, line: this.line, rule };
    }
    return this.made;
  }
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
 * `ascii` tells that no char is above 0x7f (then no value needs decoding or escaping for it).
 */
export function parseBinary(s: string, onlyFor?: readonly string[], ascii = isAscii(s)): ParsedRobots {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  const records: RobotsRecord[] = [];
  // Without any '%' or byte above 0x7f in the body, every pattern is its value as written.
  const plainBody = ascii && s.indexOf('%') < 0;
  let current: Group | undefined;
  // Set by an Allow/Disallow line in a group: the next user-agent line starts a new group.
  let seenSeparator = false;
  // Whether the current group's rules are kept (see onlyFor); undefined until its first rule.
  let keep: boolean | undefined;
  const text = (from: number, to: number): string =>
    ascii ? s.slice(from, to) : binaryToText(s.slice(from, to));

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
        const pattern = plainBody || (isAscii(raw) && raw.indexOf('%') < 0) ? raw : escapePattern(raw);
        current.rules.push(new GroupRule(kind === KeyKind.Allow, line, raw, pattern));
        return;
      }
      case KeyKind.Sitemap: {
        if (ve > vs) sitemaps.push(text(vs, ve));
        return;
      }
      default: {
        const key = text(ks, ke);
        const value = text(vs, ve);
        records.push({ line, key, value });
        if (current !== undefined && current.crawlDelay === undefined && isCrawlDelayKey(key)) {
          current.crawlDelay = parseCrawlDelay(value);
        }
      }
    }
  });
  return { groups, sitemaps, records };
}
