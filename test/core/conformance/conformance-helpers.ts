// Shared plumbing for the conformance suites: case shapes, body encodings, and one assertion that runs a
// case through every public path (check, compile().check, compile().checkPath; string and byte bodies).

import { expect } from 'vitest';
import { type Decision, parseRobotsTxt, pathFromUrl, type Verdict } from '../../../src/core/index.js';

/** A robots.txt body: text (standing for its UTF-8 bytes) or raw bytes. */
export type Body = string | Uint8Array;

/** One expected check: for `url` and `agent`, the verdict and the line that decides it (0 = none). */
export interface Expect {
  agent: string;
  url: string;
  allowed: boolean;
  /** The deciding line; 0 when no rule decides (allowed_implicit). */
  line: number;
  /** The deciding rule's text; by default derived from the body's line `line` (see `ruleTextAt`). */
  rule?: string;
}

/** A robots.txt body with the checks a source makes against it. */
export interface BodyCase {
  /** The test (or section) of the source that states these facts. */
  test: string;
  robots: Body;
  /** Shown in test names instead of the body (for generated or binary bodies). */
  label?: string;
  expects: Expect[];
}

/** A case we deliberately decide differently from its source, asserted as our documented behaviour. */
export interface Difference {
  /** What the source expects. */
  source: string;
  reason: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Expectation shorthand: `[agent, url, 'allowed' | 'disallowed', line]`. */
export type Row = [
  agent: string,
  url: string,
  outcome: 'allowed' | 'disallowed',
  line: number,
  rule?: string,
];

export function rows(test: string, robots: Body, list: Row[], label?: string): BodyCase {
  return {
    test,
    robots,
    label,
    expects: list.map(([agent, url, outcome, line, rule]) => ({
      agent,
      url,
      allowed: outcome === 'allowed',
      line,
      rule,
    })),
  };
}

/** Decodes a body spelled with `\xHH` escapes for raw octets (the spec-test fixtures' binary bodies). */
export function decodeEscapedBytes(spelled: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < spelled.length; ) {
    if (
      spelled[i] === '\\' &&
      spelled[i + 1] === 'x' &&
      /^[0-9A-Fa-f]{2}$/.test(spelled.slice(i + 2, i + 4))
    ) {
      out.push(Number.parseInt(spelled.slice(i + 2, i + 4), 16));
      i += 4;
      continue;
    }
    const cp = spelled.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    out.push(...encoder.encode(ch));
    i += ch.length;
  }
  return Uint8Array.from(out);
}

/**
 * The canonical text of the Allow/Disallow rule on 1-based line `line` of `body`: `Allow: <value>` or
 * `Disallow: <value>`, the value as written with the comment and surrounding whitespace removed. Lines
 * end at CR, LF or CRLF, as in the reference parser.
 */
export function ruleTextAt(body: Body, line: number): string {
  const text = typeof body === 'string' ? body : decoder.decode(body);
  const raw = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)[line - 1];
  if (raw === undefined) throw new Error(`body has no line ${line}`);
  const content = raw.split('#')[0]!.trim();
  const colon = content.indexOf(':');
  const cut = colon >= 0 ? colon : content.search(/[ \t]/);
  const key = content.slice(0, cut).trim().toLowerCase();
  const value = content.slice(cut + 1).trim();
  return `${key.startsWith('allow') ? 'Allow' : 'Disallow'}: ${value}`;
}

function verdictOf(e: Expect): Verdict {
  if (e.line === 0) return 'allowed_implicit';
  return e.allowed ? 'allowed_explicit' : 'disallowed_explicit';
}

/** The decision we expect for `e` against `robots`. */
export function expectedDecision(robots: Body, e: Expect): Decision {
  return {
    allowed: e.allowed,
    verdict: verdictOf(e),
    line: e.line,
    rule: e.line === 0 ? '' : (e.rule ?? ruleTextAt(robots, e.line)),
  };
}

/** A long rule shown by its length and ends, so a failure prints a readable diff. */
function short(rule: string): string {
  return rule.length <= 200 ? rule : `${rule.slice(0, 60)}…(${rule.length} chars)…${rule.slice(-20)}`;
}

/** Plain copy, so vitest diffs show the fields (the engine returns frozen shared objects). */
function plain(d: Decision): Decision {
  return { allowed: d.allowed, verdict: d.verdict, line: d.line, rule: short(d.rule) };
}

/** The bodies a case is parsed from: the text and its UTF-8 bytes, or just the bytes. */
export function bodyForms(robots: Body): { form: string; body: Body }[] {
  if (typeof robots !== 'string') return [{ form: 'bytes', body: robots }];
  return [
    { form: 'string', body: robots },
    { form: 'bytes', body: encoder.encode(robots) },
  ];
}

/** Asserts the exact decision through every public path and both body forms. */
export function expectCheck(robots: Body, e: Expect): void {
  const want = plain(expectedDecision(robots, e));
  for (const { form, body } of bodyForms(robots)) {
    const parsed = parseRobotsTxt(body);
    expect(plain(parsed.check(e.url, e.agent)), `${form} body, RobotsTxt.check`).toEqual(want);
    const compiled = parsed.compile(e.agent);
    expect(plain(compiled.check(e.url)), `${form} body, CompiledRules.check`).toEqual(want);
    expect(plain(compiled.checkPath(pathFromUrl(e.url))), `${form} body, CompiledRules.checkPath`).toEqual(
      want,
    );
  }
}

/** Asserts only the allowed/disallowed outcome (for sources that state nothing else). */
export function expectOutcome(robots: Body, agent: string, url: string, allowed: boolean): void {
  for (const { form, body } of bodyForms(robots)) {
    const parsed = parseRobotsTxt(body);
    expect(parsed.check(url, agent).allowed, `${form} body, RobotsTxt.check`).toBe(allowed);
    const compiled = parsed.compile(agent);
    expect(compiled.check(url).allowed, `${form} body, CompiledRules.check`).toBe(allowed);
    expect(compiled.checkPath(pathFromUrl(url)).allowed, `${form} body, CompiledRules.checkPath`).toBe(
      allowed,
    );
  }
}

function shortUrl(url: string): string {
  if (url === '') return '(empty url)';
  return url.length <= 100 ? url : `${url.slice(0, 40)}…(${url.length} chars)…${url.slice(-8)}`;
}

/** Flattens body cases into named rows for `it.each`. */
export function flatten(cases: BodyCase[]): { name: string; robots: Body; e: Expect }[] {
  const seen = new Map<string, number>();
  return cases.flatMap((c) =>
    c.expects.map((e) => {
      const base = `${c.test} | ${e.agent || '(empty agent)'} ${shortUrl(e.url)}${c.label ? ` [${c.label}]` : ''}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return { name: n === 1 ? base : `${base} #${n}`, robots: c.robots, e };
    }),
  );
}
