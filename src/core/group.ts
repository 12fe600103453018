// A group of a parsed robots.txt: its user-agents and its rules, kept as offsets into the body until a
// rule is needed as an object (a parsed file holds a few objects per group, not per rule).

import { binaryToText, isAscii } from './bytes.js';
import { escapePattern } from './escape.js';
import type { Decision, RuleInfo } from './types.js';

/**
 * One Allow/Disallow line of a group. Its text (`info.rule`) is made on first use: most rules of a parsed
 * file are never reported.
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

/**
 * The rules of a parse's groups, three ints each (see Group.list), one array for all of them instead
 * of a growing array per group. Groups sharing a list take their rules in turn, as a file lists them.
 * A plain array of small integers: kept parses hold it, and a typed array's buffer costs more per parse.
 */
export class RuleList {
  /** Ints in [0, length); a reused array may hold stale ones past it. */
  data: number[];
  /** Ints used. */
  length = 0;

  constructor(data: number[] = []) {
    this.data = data;
  }

  push(a: number, b: number, c: number): void {
    const d = this.data;
    d[this.length] = a;
    d[this.length + 1] = b;
    d[this.length + 2] = c;
    this.length += 3;
  }

  /** Moves the rules to an array of their own, exactly sized: for a list kept with its groups. */
  own(): void {
    this.data = this.data.slice(0, this.length);
  }
}

/** A run of user-agent lines and the rules after it, up to the next user-agent line after a rule. */
export class Group {
  /** Product tokens of the group's user-agent lines, ASCII lower-cased (`*` lines are not listed). */
  readonly tokens: string[] = [];
  /** Some user-agent line of the group names every crawler (`*`). */
  global = false;
  /** The group's first valid Crawl-delay, in seconds. */
  crawlDelay: number | undefined = undefined;
  /** The body (a binary string) the rules' offsets point into. */
  readonly body: string;
  /** No rule value needs escaping: each pattern is `body[start, end)` as is. */
  readonly plain: boolean;
  /** Per rule, from int 3 × `first`: line × 2 + 1 if Allow, then its value's start and end in `body`. */
  private readonly list: RuleList;
  private readonly first: number;
  private count = 0;
  /** Rules made so far, by index. */
  private made: GroupRule[] | undefined;

  /** Rules added to `list` after this group's and before the next group's are this group's. */
  constructor(body: string, plain: boolean, list = new RuleList()) {
    this.body = body;
    this.plain = plain;
    this.list = list;
    this.first = list.length / 3;
  }

  addRule(allowed: boolean, line: number, valueStart: number, valueEnd: number): void {
    this.list.push(line * 2 + (allowed ? 1 : 0), valueStart, valueEnd);
    this.count++;
  }

  get ruleCount(): number {
    return this.count;
  }

  /** Whether rule `k` is an Allow. */
  allowedAt(k: number): boolean {
    return (this.list.data[3 * (this.first + k)]! & 1) === 1;
  }

  /** Rule `k`'s 1-based line. */
  lineAt(k: number): number {
    return this.list.data[3 * (this.first + k)]! >>> 1;
  }

  valueStart(k: number): number {
    return this.list.data[3 * (this.first + k) + 1]!;
  }

  valueEnd(k: number): number {
    return this.list.data[3 * (this.first + k) + 2]!;
  }

  /**
   * How far `o`'s rules are moved down from this group's (lines added or removed above them, in another
   * version of the file): the line shift, when `o` has the same rules (kind and value) each moved by it;
   * null when both have no rules; undefined when the rules differ or move apart.
   */
  ruleShiftTo(o: Group): number | null | undefined {
    const n = this.count;
    if (o.count !== n) return undefined;
    if (n === 0) return null;
    // One group in both parses (a later version parsed as an earlier one plus appended text).
    if (o === this) return 0;
    const a = this.list.data;
    const b = o.list.data;
    const shift = (b[3 * o.first]! >>> 1) - (a[3 * this.first]! >>> 1);
    for (let k = 0; k < n; k++) {
      const i = 3 * (this.first + k);
      const j = 3 * (o.first + k);
      // line × 2 + allow: the same kind on a line `shift` further.
      if (b[j]! !== a[i]! + 2 * shift) return undefined;
      const at = a[i + 1]!;
      const from = b[j + 1]!;
      const len = a[i + 2]! - at;
      if (b[j + 2]! - from !== len) return undefined;
      for (let c = 0; c < len; c++)
        if (this.body.charCodeAt(at + c) !== o.body.charCodeAt(from + c)) return undefined;
    }
    return shift;
  }

  /** Rule `k` as an object, made once. */
  ruleAt(k: number): GroupRule {
    this.made ??= [];
    let rule = this.made[k];
    if (rule === undefined) {
      const m = this.list.data[3 * (this.first + k)]!;
      const raw = this.body.slice(
        this.list.data[3 * (this.first + k) + 1]!,
        this.list.data[3 * (this.first + k) + 2]!,
      );
      const pattern = this.plain || (isAscii(raw) && raw.indexOf('%') < 0) ? raw : escapePattern(raw);
      rule = new GroupRule((m & 1) === 1, m >>> 1, raw, pattern);
      this.made[k] = rule;
    }
    return rule;
  }

  /** Every rule, in file order. */
  get rules(): readonly GroupRule[] {
    const n = this.ruleCount;
    const out: GroupRule[] = new Array(n);
    for (let k = 0; k < n; k++) out[k] = this.ruleAt(k);
    return out;
  }
}
