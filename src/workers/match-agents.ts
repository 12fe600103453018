import type { CompiledRules } from '../core/index.js';
import {
  GRACE_CLASS,
  V_ALLOWED_EXPLICIT,
  V_ALLOWED_IMPLICIT,
  V_DISALLOWED_EXPLICIT,
} from '../rows/verdict-format.js';
import type { OriginEntry, OriginStore } from './origin-store.js';

/** Per agent, the rank its lead decided for the row being judged (see CompiledSlot.lead). */
let ranks = new Int32Array(8);

/**
 * `matchRow` for several agents of an origin with rules: each group of agents that decide by one rule
 * set (see CompiledSlot.lead) is decided once and its rule hit counted once (the group shares one
 * counter); every agent still gets its class and its disallowed count. When all agents decide alike,
 * the row's text is the origin's cached text for the one decision. `view`: as for matchRow.
 */
export function matchAgents(
  store: OriginStore,
  e: OriginEntry,
  path: string,
  agents: number,
  classes: Uint8Array,
  at: number,
  time: number,
  view: CompiledRules[] | null = null,
): string {
  const slot = e.slot!;
  // A version judged through a later one's entry decides by its own rules, in that entry's ranks.
  const rules = view ?? slot.rules!;
  const lead = slot.lead;
  if (ranks.length < agents) ranks = new Int32Array(agents);
  let graced = false;
  for (let a = 0; a < agents; a++) {
    const l = lead[a]!;
    let c: number;
    if (l === a) {
      const idx = rules[a]!.decide(path);
      ranks[a] = idx;
      c =
        idx < 0 ? V_ALLOWED_IMPLICIT : rules[a]!.allowedAt(idx) ? V_ALLOWED_EXPLICIT : V_DISALLOWED_EXPLICIT;
      if (idx >= 0) store.hit(e, a, idx);
    } else c = classes[at + l]! & ~GRACE_CLASS;
    classes[at + a] = c;
    if (c === V_DISALLOWED_EXPLICIT) {
      store.countDisallowed(e, a);
      if (e.version >= 0 && store.inGrace(e, a, path, time)) {
        classes[at + a] = c | GRACE_CLASS;
        graced = true;
      }
    }
  }
  if (graced) return store.texts.graced(e, classes, at, path, view);
  if (slot.allSame) return store.texts.fullOfAll(e, ranks[0]!);
  let s = '';
  for (let a = 0; a < agents; a++) {
    const l = lead[a]!;
    s += store.part(e, l, ranks[l]!);
  }
  return s + e.tail;
}
