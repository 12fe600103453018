// Builds groups, sitemaps and other records from the lexed lines, with the reference's group semantics
// (RobotsMatcher::HandleUserAgent/HandleAllow/HandleDisallow).

import { extractProductToken, isGlobalAgent, isGlobalAgentAt, keyOfAgentValue } from './agent.js';
import { binaryToText, isAscii } from './bytes.js';
import { Group, RuleList } from './group.js';
import { KeyKind, lexRobots } from './lexer.js';
import type { RobotsRecord } from './types.js';

export { Group, GroupRule } from './group.js';

export interface ParsedRobots {
  readonly groups: Group[];
  readonly sitemaps: string[];
  readonly records: RobotsRecord[];
}

/** How a parse ended: what a parse of text appended after it needs to know (see parseBinary's `end`). */
export interface ParseEnd {
  /** The last line number (an empty last line after a final line break counts). */
  lines: number;
  /** It ended in a group whose user-agent lines no rule line followed yet (more would join that group). */
  open: boolean;
  /** A rule line came before any user-agent line (appended to a file, it would join the file's last group). */
  orphans: boolean;
}

const CRAWL_DELAY = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A Crawl-delay value: a non-negative decimal number, fractions allowed; anything else is ignored. */
export function parseCrawlDelay(value: string): number | undefined {
  if (!CRAWL_DELAY.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Rules of the parse running, reused by the next parse unless it grew past 3 × 4096 ints. */
let scratchRules: number[] = [];
const SCRATCH_KEEP = 3 * 4096;

function isCrawlDelayKey(key: string): boolean {
  return key.length >= 11 && key.slice(0, 11).toLowerCase() === 'crawl-delay';
}

/**
 * Parses a binary string (one char per byte). Total: never throws. With `onlyFor` (agent keys, ASCII
 * lower case), only what selecting and compiling these agents' rules needs is kept: groups keep only the
 * tokens among `onlyFor`, a group that names none of them and not `*` keeps no rules (it cannot be
 * selected for these agents, and most of a file's rules are often theirs), and sitemaps, other records
 * and crawl-delays are not collected. Its groups' rules then live in an array the next parse on this
 * thread reuses: they are for compiling at once, not for keeping.
 * `ascii` tells that no char is above 0x7f (then no value needs decoding or escaping for it). `own`: the
 * groups' rules get an array of their own even with `onlyFor` (for parses compared after the next one).
 * `firstLine`: lines before `s` (text appended to a file); `end`, when given, is told how the parse ended.
 */
export function parseBinary(
  s: string,
  onlyFor?: readonly string[],
  ascii = isAscii(s),
  own = onlyFor === undefined,
  firstLine = 0,
  end?: ParseEnd,
): ParsedRobots {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  const records: RobotsRecord[] = [];
  // Rules go to the scratch list; a parse that is kept copies them out at the end (one exact array).
  const rules = new RuleList(scratchRules);
  // Without any '%' or byte above 0x7f in the body, every pattern is its value as written.
  const plainBody = ascii && s.indexOf('%') < 0;
  let current: Group | undefined;
  // Set by an Allow/Disallow line in a group: the next user-agent line starts a new group.
  let seenSeparator = false;
  // Whether the current group's rules are kept (see onlyFor); undefined until its first rule.
  let keep: boolean | undefined;
  const text = (from: number, to: number): string =>
    ascii ? s.slice(from, to) : binaryToText(s.slice(from, to));

  const lines = lexRobots(
    s,
    (line, kind, ks, ke, vs, ve) => {
      switch (kind) {
        case KeyKind.UserAgent: {
          if (current === undefined || seenSeparator) {
            current = new Group(s, plainBody, rules);
            groups.push(current);
            seenSeparator = false;
            keep = undefined;
          }
          if (onlyFor !== undefined) {
            if (isGlobalAgentAt(s, vs, ve)) current.global = true;
            else {
              const key = keyOfAgentValue(s, vs, ve, onlyFor);
              if (key !== undefined) current.tokens.push(key);
            }
            return;
          }
          const value = s.slice(vs, ve);
          if (isGlobalAgent(value)) current.global = true;
          // The token is [a-zA-Z_-]* by construction, so toLowerCase is ASCII-only here.
          else current.tokens.push(extractProductToken(value).toLowerCase());
          return;
        }
        case KeyKind.Allow:
        case KeyKind.Disallow: {
          if (current === undefined) {
            // Rules before any user-agent line are ignored.
            if (end !== undefined) end.orphans = true;
            return;
          }
          seenSeparator = true;
          // A group's user-agent lines all come before its first rule: decide once per group.
          // With onlyFor, every token kept is one of its keys.
          keep ??= onlyFor === undefined || current.global || current.tokens.length > 0;
          if (!keep) return;
          current.addRule(kind === KeyKind.Allow, line, vs, ve);
          return;
        }
        case KeyKind.Sitemap: {
          if (ve > vs && onlyFor === undefined) sitemaps.push(text(vs, ve));
          return;
        }
        default: {
          if (onlyFor !== undefined) return;
          const key = text(ks, ke);
          const value = text(vs, ve);
          records.push({ line, key, value });
          if (current !== undefined && current.crawlDelay === undefined && isCrawlDelayKey(key)) {
            current.crawlDelay = parseCrawlDelay(value);
          }
        }
      }
    },
    firstLine,
  );
  if (rules.data.length > SCRATCH_KEEP) scratchRules = [];
  if (own) rules.own();
  if (end !== undefined) {
    end.lines = lines;
    end.open = current !== undefined && !seenSeparator;
  }
  return { groups, sitemaps, records };
}
