// The parses of an origin's versions, oldest first, for compiling them together: a version whose body is
// an earlier version's plus lines appended at its end (a group added at the end, the commonest change)
// is that parse's groups followed by the appended lines' own, parsed alone.

import { isAscii, toBinary } from './bytes.js';
import { type ParsedRobots, type ParseEnd, parseBinary } from './parse.js';

/** A body parsed as its bytes; an ASCII string is its own binary string, tested once. */
export function parseBody(
  body: string | Uint8Array,
  onlyFor?: readonly string[],
  own?: boolean,
  firstLine = 0,
  end?: ParseEnd,
): ParsedRobots {
  if (typeof body === 'string' && isAscii(body)) return parseBinary(body, onlyFor, true, own, firstLine, end);
  const binary = toBinary(body);
  return parseBinary(binary, onlyFor, isAscii(binary), own, firstLine, end);
}

const LF = 10;
const BOM_FIRST = 0xef;

const CR = 13;

/**
 * The text `later` appends to `earlier` on lines of its own, and where its first line is relative to
 * `earlier`'s last line number: the line after it when `earlier` ends without a line break (the text
 * then starts by ending that line), the same when it ends with LF (its last line is the empty one after
 * it). Undefined when `later` is not `earlier` plus such text, or the text starts like a BOM (skipped at
 * the start of a file only).
 */
function appendedText(
  earlier: string | Uint8Array,
  later: string | Uint8Array,
): { text: string | Uint8Array; lineAfter: number } | undefined {
  const n = earlier.length;
  if (later.length <= n) return undefined;
  const text = typeof earlier === 'string';
  if (text !== (typeof later === 'string')) return undefined;
  const at = (s: string | Uint8Array, i: number) => (typeof s === 'string' ? s.charCodeAt(i) : s[i]!);
  if (
    text
      ? !(later as string).startsWith(earlier as string)
      : !prefixOf(earlier as Uint8Array, later as Uint8Array)
  )
    return undefined;
  const last = n === 0 ? -1 : at(earlier, n - 1);
  let from = n;
  let lineAfter = -1;
  if (last !== LF) {
    // A CR ending would make CRLF of an appended LF: not worth the care.
    if (last === CR) return undefined;
    const c = at(later, n);
    if (c === LF) from = n + 1;
    else if (c === CR) from = n + 1 < later.length && at(later, n + 1) === LF ? n + 2 : n + 1;
    else return undefined;
    lineAfter = 0;
  }
  const first = from < later.length ? at(later, from) : -1;
  // U+FEFF encodes to EF BB BF.
  if (first === BOM_FIRST || first === 0xfeff) return undefined;
  return { text: later.slice(from), lineAfter };
}

/** Whether `a`'s bytes begin `b`. */
function prefixOf(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(b.subarray(0, a.length), a) === 0;
}

/** Parses of `bodies` for the agent keys `keys` (each with its own rules array), made on first need. */
export class VersionParses {
  private readonly parsed: (ParsedRobots | undefined)[] = [];
  private readonly ends: (ParseEnd | undefined)[] = [];

  constructor(
    private readonly bodies: readonly (string | Uint8Array)[],
    private readonly keys: readonly string[],
  ) {}

  /** Version i's parse; versions from `from` on before it may be the parse it continues. */
  get(i: number, from: number): ParsedRobots {
    let p = this.parsed[i];
    if (p === undefined) {
      p = this.continued(i, from) ?? this.alone(i);
      this.parsed[i] = p;
    }
    return p;
  }

  /** Lets go of version i's parse (no later version builds on it any more). */
  forget(i: number): void {
    this.parsed[i] = undefined;
    this.ends[i] = undefined;
  }

  private alone(i: number): ParsedRobots {
    const end: ParseEnd = { lines: 0, open: false, orphans: false };
    const p = parseBody(this.bodies[i]!, this.keys, true, 0, end);
    this.ends[i] = end;
    return p;
  }

  /**
   * Version i as the latest earlier version its body appends text to, when the text starts no rule in
   * that version's last group (it ends with a rule line, and the text has none before a user-agent line).
   */
  private continued(i: number, from: number): ParsedRobots | undefined {
    for (let j = i - 1; j >= from; j--) {
      const rest = appendedText(this.bodies[j]!, this.bodies[i]!);
      if (rest === undefined) continue;
      const before = this.get(j, from);
      const endBefore = this.ends[j]!;
      if (endBefore.open) return undefined;
      const end: ParseEnd = { lines: 0, open: false, orphans: false };
      const after = parseBody(rest.text, this.keys, true, endBefore.lines + rest.lineAfter, end);
      if (end.orphans) return undefined;
      this.ends[i] = end;
      return { groups: [...before.groups, ...after.groups], sitemaps: [], records: [] };
    }
    return undefined;
  }
}
