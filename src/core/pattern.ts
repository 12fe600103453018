// A robots.txt pattern split for fast matching: a literal prefix (indexed by the trie in compile.ts)
// and what follows it. `*` matches any run of chars; a `$` is special only as the pattern's last char.

export const PatternKind = {
  /** No `*` and no trailing `$`: the literal prefix alone decides. */
  Prefix: 0,
  /** No `*`, trailing `$`: the path must equal the prefix. */
  Exact: 1,
  /** At least one `*`. */
  Wildcard: 2,
} as const;
export type PatternKind = (typeof PatternKind)[keyof typeof PatternKind];

export interface SplitPattern {
  /** The text before the first `*` (and before a trailing `$`). */
  prefix: string;
  kind: PatternKind;
  /** For Wildcard: the literal pieces after the first `*`, split at every further `*`. */
  segments: string[];
  /** The pattern ends with `$`. */
  anchored: boolean;
}

/** Shared by every pattern without `*`. */
const NO_SEGMENTS: string[] = [];

export function splitPattern(pattern: string): SplitPattern {
  const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 36;
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const star = body.indexOf('*');
  if (star < 0) {
    return {
      prefix: body,
      kind: anchored ? PatternKind.Exact : PatternKind.Prefix,
      segments: NO_SEGMENTS,
      anchored,
    };
  }
  return {
    prefix: body.slice(0, star),
    kind: PatternKind.Wildcard,
    segments: body.slice(star + 1).split('*'),
    anchored,
  };
}

/**
 * Whether `s[pos, end)` matches `*seg0*seg1…*segN` (`$`-anchored or not). Taking each piece at its
 * leftmost occurrence is exact for patterns whose only operator is `*` (a later piece only gains room),
 * runs in O(pieces × length) with no backtracking and allocates nothing.
 */
export function matchWildcardTail(
  s: string,
  pos: number,
  end: number,
  segments: readonly string[],
  anchored: boolean,
): boolean {
  return matchPieces(s, pos, end, segments, 0, segments.length, anchored);
}

/** `matchWildcardTail` with the pieces `pieces[from, to)` (from < to) of a flat array. */
export function matchPieces(
  s: string,
  pos: number,
  end: number,
  pieces: readonly string[],
  from: number,
  to: number,
  anchored: boolean,
): boolean {
  const last = to - 1;
  for (let k = from; k < last; k++) {
    const seg = pieces[k]!;
    if (seg.length === 0) continue;
    const at = s.indexOf(seg, pos);
    // The leftmost occurrence ending past `end` means no occurrence fits.
    if (at < 0 || at + seg.length > end) return false;
    pos = at + seg.length;
  }
  const tail = pieces[last]!;
  if (anchored) return end - tail.length >= pos && s.startsWith(tail, end - tail.length);
  if (tail.length === 0) return true;
  const at = s.indexOf(tail, pos);
  return at >= 0 && at + tail.length <= end;
}

/** Whole-pattern match (for single checks and tests): anchored at the path's start. */
export function matchPattern(path: string, pattern: string): boolean {
  const p = splitPattern(pattern);
  if (!path.startsWith(p.prefix)) return false;
  if (p.kind === PatternKind.Prefix) return true;
  if (p.kind === PatternKind.Exact) return path.length === p.prefix.length;
  return matchWildcardTail(path, p.prefix.length, path.length, p.segments, p.anchored);
}
