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
  /** Per rule: line × 2 + 1 if Allow, then its value's start and end in `body`. */
  private readonly packed: number[] = [];
  /** Rules made so far, by index. */
  private made: GroupRule[] | undefined;

  constructor(body: string, plain: boolean) {
    this.body = body;
    this.plain = plain;
  }

  addRule(allowed: boolean, line: number, valueStart: number, valueEnd: number): void {
    this.packed.push(line * 2 + (allowed ? 1 : 0), valueStart, valueEnd);
  }

  get ruleCount(): number {
    return this.packed.length / 3;
  }

  /** Whether rule `k` is an Allow. */
  allowedAt(k: number): boolean {
    return (this.packed[3 * k]! & 1) === 1;
  }

  /** Rule `k`'s 1-based line. */
  lineAt(k: number): number {
    return this.packed[3 * k]! >>> 1;
  }

  valueStart(k: number): number {
    return this.packed[3 * k + 1]!;
  }

  valueEnd(k: number): number {
    return this.packed[3 * k + 2]!;
  }

  /** Rule `k` as an object, made once. */
  ruleAt(k: number): GroupRule {
    this.made ??= [];
    let rule = this.made[k];
    if (rule === undefined) {
      const m = this.packed[3 * k]!;
      const raw = this.body.slice(this.packed[3 * k + 1]!, this.packed[3 * k + 2]!);
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
