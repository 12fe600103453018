// Builds groups, sitemaps and other records from the lexed lines, with the reference's group semantics
// (RobotsMatcher::HandleUserAgent/HandleAllow/HandleDisallow).

import { extractProductToken, isGlobalAgent } from './agent.js';
import { binaryToText, isAscii } from './bytes.js';
import { Group } from './group.js';
import { KeyKind, lexRobots } from './lexer.js';
import type { RobotsRecord } from './types.js';

export { Group, GroupRule } from './group.js';

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
          current = new Group(s, plainBody);
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
        current.addRule(kind === KeyKind.Allow, line, vs, ve);
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
