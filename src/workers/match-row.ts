import { inLayeredRanks } from '../core/base-ranks.js';
import type { CompiledRules } from '../core/index.js';
import {
  GRACE_CLASS,
  V_ALLOWED_EXPLICIT,
  V_ALLOWED_IMPLICIT,
  V_DISALLOWED_EXPLICIT,
  V_DISALLOWED_UNREACHABLE,
} from '../rows/verdict-format.js';
import { matchAgents } from './match-agents.js';
import type { OriginEntry, OriginStore } from './origin-store.js';

/**
 * Judges one row of a known origin for every agent: returns the text appended to the row and writes
 * each agent's verdict class to `classes[at + a]`. Per-origin counters (disallowed rows, rule hits)
 * are kept on the entry, which is marked for the next report only when one of them counted. `time`:
 * the row's time, for an as-of version entry (a disallow may then be within the grace); `view`: the
 * rules the row's version decides by in that entry, per agent, when they are not its own (Pick's `rules`).
 */
export function matchRow(
  store: OriginStore,
  e: OriginEntry,
  path: string,
  agents: number,
  classes: Uint8Array,
  at: number,
  time = Number.NaN,
  view: CompiledRules[] | null = null,
): string {
  if (e.fixedVerdict >= 0) {
    const unreachable = e.fixedVerdict === V_DISALLOWED_UNREACHABLE;
    if (unreachable) store.touch(e);
    let graced = false;
    for (let a = 0; a < agents; a++) {
      classes[at + a] = e.fixedVerdict;
      if (unreachable) {
        store.countDisallowed(e, a);
        if (e.version >= 0 && store.inGrace(e, a, path, time)) {
          classes[at + a] = e.fixedVerdict | GRACE_CLASS;
          graced = true;
        }
      }
    }
    return graced ? store.texts.graced(e, classes, at, path) : e.full[0]!;
  }
  if (agents === 1) {
    let r: CompiledRules;
    let idx: number;
    if (view === null) {
      r = e.first!;
      idx = r.decide(path);
    } else if (view === e.view && e.viewBase !== null) {
      // An earlier version's rules in the entry's ranks (see BaseRanks), decided by without that object:
      // its patterns' ranks are theirs, their empty-pattern rule is the entry's fallback.
      const base = e.viewBase;
      idx = inLayeredRanks(base.decide(path), e.viewNb, e.viewFallback);
      // As BaseRanks' allowedAt: the base's pattern ranks are its own, the fallback the entry's rules'.
      r = idx < e.viewNb ? base : e.first!;
    } else {
      r = view[0]!;
      idx = r.decide(path);
    }
    const c = count(store, e, r, idx);
    if (c === V_DISALLOWED_EXPLICIT && e.version >= 0 && store.inGrace(e, 0, path, time)) {
      classes[at] = c | GRACE_CLASS;
      return store.texts.graced(e, classes, at, path, view);
    }
    classes[at] = c;
    return store.full(e, idx);
  }
  return matchAgents(store, e, path, agents, classes, at, time, view);
}

/** The first agent's class of decision `idx` by its rules `r`, counted. */
function count(store: OriginStore, e: OriginEntry, r: CompiledRules, idx: number): number {
  if (idx < 0) return V_ALLOWED_IMPLICIT;
  if (r.allowedAt(idx)) {
    store.hit(e, 0, idx);
    return V_ALLOWED_EXPLICIT;
  }
  store.countDisallowed(e, 0);
  store.hit(e, 0, idx);
  return V_DISALLOWED_EXPLICIT;
}
