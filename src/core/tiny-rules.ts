// Tiny rule sets (a few rules, none with `*`), the commonest real shape after "no rules at all": kept
// as plain fields and tried in decision order. A check then reads the compiled object and the prefix
// strings only, instead of walking a table held in a separate typed array.

import { ownString } from './bytes.js';
import { PatternKind, splitPattern } from './pattern.js';
import type { OrderedRules } from './rule-order.js';

/** Most rules a tiny set holds (after the index.htm extra patterns are added). */
export const TINY_MAX = 4;

/** `pc` of a slot whose prefix is shorter than 2 chars: no second char to pre-filter on. */
const ANY_SECOND = 0xffff;

/**
 * One rule of a tiny set: its literal prefix, and `m` = (second char of the prefix, or ANY_SECOND) × 2
 * + 1 if the pattern ends with `$`. Paths almost all start with '/', so the second char rejects most
 * rules with one integer compare before any string call.
 */
export interface TinySlot {
  readonly p: string;
  readonly m: number;
}

/** The slots of an ordered rule list when every pattern is a prefix or an exact (`…$`) pattern. */
export function tinySlots(ordered: OrderedRules): TinySlot[] | undefined {
  const n = ordered.patterns.length;
  if (n === 0 || n > TINY_MAX) return undefined;
  const slots: TinySlot[] = [];
  for (const pattern of ordered.patterns) {
    const split = splitPattern(pattern);
    if (split.kind === PatternKind.Wildcard) return undefined;
    // Own copy: a slice of the body would keep the whole robots.txt alive.
    const p = ownString(split.prefix);
    const second = p.length >= 2 ? p.charCodeAt(1) : ANY_SECOND;
    slots.push({ p, m: second * 2 + (split.kind === PatternKind.Exact ? 1 : 0) });
  }
  // Exactly sized: a pushed-to array keeps room for 17 slots, kept as long as the set.
  return slots.slice();
}

/** Whether the slot (prefix `p`, meta `m`) matches `s[start, start + len)`; `c1` is the path's second char. */
export function tinyHit(s: string, start: number, len: number, c1: number, p: string, m: number): boolean {
  const pl = p.length;
  if ((m & 1) === 1 ? len !== pl : len < pl) return false;
  const pc = m >> 1;
  if (pc !== ANY_SECOND && pc !== c1) return false;
  return s.startsWith(p, start);
}

/** Placeholder for unused slots; never read (the slot count guards every slot). */
export const UNUSED_SLOT: TinySlot = { p: '', m: ANY_SECOND * 2 + 1 };
