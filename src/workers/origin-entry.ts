import { ownString } from '../core/bytes.js';
import type { CompiledRules } from '../core/index.js';
import { type NoHistoryReason, V_DISALLOWED_UNREACHABLE } from '../rows/verdict-format.js';
import { byLead, type CompiledSlot, slotFull, slotParts } from './compiled-rules.js';
import type { History } from './history.js';
import type { WirePolicy } from './protocol.js';
import { RuleHits } from './rule-hits.js';
import type { SharedOrigins } from './shared-origins.js';
import type { VerdictTexts } from './verdict-texts.js';

/** What a worker knows about one origin: its policy and the text appended to its rows. */
export interface OriginEntry {
  key: string;
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** Next entry with the same host (other scheme or port). */
  next: OriginEntry | undefined;
  /** V_* verdict for every row when the origin has no rules to match (not parsed); -1 when parsed. */
  fixedVerdict: number;
  slot: CompiledSlot | null;
  /**
   * The first agent's compiled rules (`slot.rules[0]`), held here: a row loads them without going
   * through the slot and its array, two loads that mostly miss the cache. Null without a slot.
   */
  first: CompiledRules | null;
  /** Latest batch stamp that used it. */
  used: number;
  /** In the store's list of origins with counters to report. */
  dirty: boolean;
  /** Output text is kept as latin1 strings holding UTF-8 bytes (the worker works in byte space). */
  /** With several agents, per agent (one array for agents that decide alike): `,allowed,verdict,rule_line,rule` by decision index + 1 (< NEAR_RANKS; the last rank at NEAR_RANKS). */
  parts: string[][];
  /** `,robots_status,error_code[,evidence]` and the line end. */
  tail: string;
  /** With one agent, or several that all decide alike: the parts + tail by decision index + 1 (< NEAR_RANKS; the last rank at NEAR_RANKS); with a fixed verdict: [0] for every row (shared, never written). */
  full: string[];
  /**
   * Counters of the current batch: disallowed rows per agent (not a typed array: ~250 B less per origin);
   * SharedOrigins' `noCounts` until the first (see OriginStore's `countDisallowed`).
   */
  disallowed: number[];
  /** Per agent; agents that decide alike share one. SharedOrigins' `noHits` until the first hit (see OriginStore's `hit`). */
  ruleHits: RuleHits[];
  /** The rules `ruleHits` index into, held until reported (the slot may be evicted meanwhile). */
  hitRules: CompiledRules[] | null;
  /** Rows judged for peers (see ADOPT_AFTER_ROWS). */
  served: number;
  /** Stands for every origin with its fixed verdict and status (see FixedOrigins): never adopted or counted. */
  shared: boolean;
  /**
   * As of a time: the origin's versions (on the origin's entry), or the history a version belongs to; null on
   * an entry with a span (see `spanData`) when rows have no agent column: its span says all a row needs.
   */
  history: History | null;
  /**
   * A version's index in its history (the first it serves: versions with one body and tail share an entry);
   * -1 on the origin's entry and outside as-of runs.
   */
  version: number;
  /**
   * As of a time, on an origin's entry that judges every version itself (HistorySpans): the array holding
   * its versions' times, their offset there (-1: none, pick from `history`) and count; the versions whose
   * rows decide by other rules than the entry's own (History.views), a bit each, and those rules per agent,
   * or null, in at most two sets (`view`, `view2`: an earlier file a later one appended to, files with no
   * rules). With one agent, when `view` is an earlier version's rules seen in the entry's ranks (BaseRanks),
   * what they are made of, held here as `first` is: a row decides by them without loading the array or that
   * object (null: decide by `view` itself).
   */
  spanData: Float64Array | null;
  spanAt: number;
  spanN: number;
  viewMask: number;
  view: CompiledRules[] | null;
  viewMask2: number;
  view2: CompiledRules[] | null;
  viewBase: CompiledRules | null;
  viewNb: number;
  viewFallback: number;
}

/** `n` zero counters, exactly sized: a loop, where `new Array(n).fill(0)` took a slow builtin path per origin. */
export function zeros(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = 0;
  return out;
}

/** Per agent, the rule counters of an origin serving `slot`'s body (one for agents that decide alike). */
export function newRuleHits(slot: CompiledSlot): RuleHits[] {
  return byLead(slot, (a) => new RuleHits(slot.rules?.[a]?.count ?? 0));
}

/**
 * What `pick` found for a row's time: the reason when there is no version to judge by, the age, and the
 * rules the row decides by in the version's entry when they are not its own (History.views), else null.
 */
export interface Pick {
  reason: NoHistoryReason | null;
  ageMs: number;
  rules: CompiledRules[] | null;
}

/** What an entry's texts and shared stand-ins come from. */
export interface EntryParts {
  texts: VerdictTexts;
  shared: SharedOrigins;
  /** A version of an as-of origin: the origin entry's key and host strings, and its disallowed-row counters. */
  versionOf?: { key: string; host: string; disallowed: number[] };
}

/**
 * An entry's key and host strings. The host is a slice of the batch text, and so may the key be
 * (`--robots-dir` policies): copies keep the batch from living as long as the origin. The host is then
 * a slice of the key's copy.
 */
export function entryNames(
  policyKey: string,
  origin: { scheme: string; host: string },
): { key: string; host: string } {
  const key = ownString(policyKey);
  const at = origin.scheme.length + 3;
  const host = key.startsWith(origin.host, at)
    ? key.slice(at, at + origin.host.length)
    : ownString(origin.host);
  return { key, host };
}

/**
 * The entry of one origin's policy, stamped for `stamp`: its compiled slot (parsed) or fixed verdict, the
 * texts appended to its rows (`fixed`: the shared texts of a fixed verdict without evidence), and counters.
 */
export function newOriginEntry(
  p: WirePolicy,
  origin: { scheme: 'http' | 'https'; host: string; port: number },
  stamp: number,
  slot: CompiledSlot | null,
  fixedVerdict: number,
  fixed: { tail: string; full: string[] } | null,
  agents: number,
  { texts, shared, versionOf: own }: EntryParts,
): OriginEntry {
  const tail = fixed?.tail ?? texts.tailText(p.status, texts.evidenceOf(p));
  const { key, host } = own ?? entryNames(p.key, origin);
  const entry = makeEntry({
    key,
    scheme: origin.scheme,
    host,
    port: origin.port,
    fixedVerdict,
    slot,
    first: slot?.rules?.[0] ?? null,
    used: stamp,
    parts: agents > 1 && slot !== null ? slotParts(slot) : shared.noParts,
    tail,
    full: fixed?.full ?? (slot === null ? [] : slotFull(slot, tail)),
    // Counters are made on an origin's first count (most origins of a frontier never count one), except
    // a version's: its origin's disallowed counters, and rule counters its history shares between versions.
    disallowed:
      fixedVerdict >= 0 && fixedVerdict !== V_DISALLOWED_UNREACHABLE
        ? shared.noCounts
        : (own?.disallowed ?? shared.noCounts),
    ruleHits: slot === null || own === undefined ? shared.noHits : newRuleHits(slot),
    shared: false,
  });
  if (fixedVerdict >= 0 && fixed === null) entry.full[0] = texts.fixedText(fixedVerdict, tail);
  return entry;
}

/** What tells entries apart when they are made; the other fields start alike. */
export type EntryFields = {
  [K in
    | 'key'
    | 'scheme'
    | 'host'
    | 'port'
    | 'fixedVerdict'
    | 'slot'
    | 'first'
    | 'used'
    | 'parts'
    | 'tail'
    | 'full'
    | 'disallowed'
    | 'ruleHits'
    | 'shared']: OriginEntry[K];
};

/** An entry made of `f`: every entry is made here, so all share one object shape (one hidden class). */
export function makeEntry(f: EntryFields): OriginEntry {
  return {
    key: f.key,
    scheme: f.scheme,
    host: f.host,
    port: f.port,
    next: undefined,
    fixedVerdict: f.fixedVerdict,
    slot: f.slot,
    first: f.first,
    used: f.used,
    dirty: false,
    parts: f.parts,
    tail: f.tail,
    full: f.full,
    disallowed: f.disallowed,
    ruleHits: f.ruleHits,
    hitRules: null,
    served: 0,
    shared: f.shared,
    history: null,
    version: -1,
    spanData: null,
    spanAt: -1,
    spanN: 0,
    viewMask: 0,
    view: null,
    viewMask2: 0,
    view2: null,
    viewBase: null,
    viewNb: 0,
    viewFallback: -1,
  };
}

/** Whether the compiled rules of the entry, or of one of its versions, were evicted. */
export function lostRules(e: OriginEntry): boolean {
  if (e.slot !== null && e.slot.rules === null) return true;
  if (e.history === null) return false;
  for (const v of e.history.versions) if (v.slot !== null && v.slot.rules === null) return true;
  return false;
}

/** Stamps the compiled rules of the entry, and of each of its versions, as used by unit `stamp`. */
export function stampRules(e: OriginEntry, stamp: number): void {
  if (e.slot !== null && e.slot.used < stamp) e.slot.used = stamp;
  if (e.history === null) return;
  for (const v of e.history.versions) if (v.slot !== null && v.slot.used < stamp) v.slot.used = stamp;
}
