import { V_ALLOWED_UNAVAILABLE, V_DISALLOWED_UNREACHABLE, V_NOT_CACHED } from '../rows/verdict-format.js';
import { CompiledRuleSets, type CompiledSlot } from './compiled-rules.js';
import { allowedWithinGrace, buildHistory, rankViews, versionEntryAt } from './history.js';
import { HistorySpans, replacedWithinGrace, spanAllowedWithinGrace, spanEntryAt } from './history-spans.js';
import { inChain, OriginChains } from './origin-chains.js';
import {
  type EntryParts,
  entryNames,
  lostRules,
  newOriginEntry,
  newRuleHits,
  type OriginEntry,
  type Pick,
  stampRules,
  zeros,
} from './origin-entry.js';
import type { WirePolicy, WireVersion, WorkerConfig } from './protocol.js';
import { type MissingProbe, SharedOrigins } from './shared-origins.js';
import { stampCut } from './stamp-cut.js';
import { VerdictTexts } from './verdict-texts.js';

export type { OriginEntry, Pick };

/**
 * A worker's memory of origins (bounded by count) and of compiled rule sets (bounded by estimated
 * bytes). Recency is a batch stamp, not a reordering per use: evictions drop the least recently used
 * down to three quarters of the budget, and never anything a batch still in flight may use (stamp ≥
 * `protectFrom`: batches interleave while they wait for policies). An origin with counters to report
 * may be dropped: the list of origins to report keeps it until the next report.
 */
export class OriginStore {
  private readonly chains = new OriginChains();
  /** As of a time: the versions' times of the origins whose entry judges every version itself. */
  private readonly spans = new HistorySpans();
  private readonly compiled: CompiledRuleSets;
  /** The texts appended to rows: per origin, and shared between origins. */
  readonly texts: VerdictTexts;
  private readonly dirtyList: OriginEntry[] = [];
  /** Entries standing for many origins (no robots.txt, not cached) or rows (`no_history`). */
  private readonly shared: SharedOrigins;
  /** Scans of the origins for ones to forget so far. */
  evictionPasses = 0;
  /** Entries removed so far (evicted, or forgotten with their rules). */
  private removed = 0;
  /** `compiled.dropped` when origins that lost their rules were last forgotten. */
  private sweptAt = 0;
  private protectedFrom = 0;
  /** The stamp of the unit of work begun last. */
  latestStamp = 0;
  /**
   * Sizes past which the next eviction pass runs: the budget, or, after a pass that could not get
   * within it (batches in flight held too much), a quarter of the budget more, so that a pass costs
   * O(1) per install and not a scan of the whole table each time.
   */
  private originsEvictAt: number;

  /** Agents judged by fixed rules and no evidence: versions may share an entry (see RankViews). */
  private readonly sharesRanks: boolean;

  constructor(private readonly config: WorkerConfig) {
    this.sharesRanks = (config.agentIndex ?? -1) < 0 && !config.evidence;
    this.texts = new VerdictTexts(config);
    this.originsEvictAt = config.originBudget;
    this.compiled = new CompiledRuleSets(
      config.compiledBudget,
      config.agents,
      (config.agentIndex ?? -1) >= 0,
    );
    this.shared = new SharedOrigins(config, this.texts);
  }

  /**
   * True when rules of this body are compiled; they are then kept until the units of work in flight
   * end (a `--robots-dir` policy may then come with its sha256 only).
   */
  holdCompiled(sha256: string): boolean {
    return this.compiled.hold(sha256, this.latestStamp);
  }

  /** Set by the worker under `--robots-dir`: origins the directory surely lacks a file for. */
  set missingProbe(probe: MissingProbe | null) {
    this.shared.missingProbe = probe;
  }

  /** Entries and rule sets used at or after this stamp are never evicted. */
  get protectFrom(): number {
    return this.protectedFrom;
  }

  set protectFrom(stamp: number) {
    // Batches ended: what they held may go now, so a pass may get within budget again.
    if (stamp > this.protectedFrom) {
      this.originsEvictAt = this.config.originBudget;
      this.compiled.released();
    }
    this.protectedFrom = stamp;
    this.compiled.protectFrom = stamp;
  }

  get originCount(): number {
    return this.chains.size;
  }

  get compiledCount(): number {
    return this.compiled.count;
  }

  get compiledBytes(): number {
    return this.compiled.bytes;
  }

  /**
   * Origins and rule sets evicted so far. A counted origin's counters, and the rules they index into, stay
   * held until reported: evictions are what reporting frees.
   */
  get evictions(): number {
    return this.removed + this.compiled.dropped;
  }

  /** Parse+compile runs so far. */
  get compiles(): number {
    return this.compiled.compiles;
  }

  /** Origins with counters to report (including ones evicted since the last report). */
  get dirtyCount(): number {
    return this.dirtyList.length;
  }

  /**
   * The entry of an origin ready for batch `stamp`, or undefined when the worker must ask for its
   * policy (never seen, forgotten, or its compiled rules were evicted).
   */
  find(scheme: 'http' | 'https', host: string, port: number, stamp: number): OriginEntry | undefined {
    const e = inChain(this.chains.head(host), scheme, port);
    if (e === undefined) return this.shared.find(scheme, host, port);
    if (e.used >= stamp) return e;
    const slot = e.slot;
    if (slot !== null) {
      if (slot.rules === null) {
        this.remove(e);
        return undefined;
      }
      if (slot.used < stamp) slot.used = stamp;
    }
    e.used = stamp;
    return e;
  }

  /**
   * The shared entry of an origin the probe knows has no robots.txt (remembered from now on), or
   * undefined: ask for its policy as usual. Call after `find` missed.
   */
  probeMissing(scheme: 'http' | 'https', host: string, port: number): OriginEntry | undefined {
    return this.shared.probeMissing(scheme, host, port);
  }

  /** Marks an origin as having counters to report. */
  touch(e: OriginEntry): void {
    if (e.dirty) return;
    e.dirty = true;
    this.dirtyList.push(e);
  }

  /** Counts a row of `e` decided by rule `idx` for agent `a`; the origin's rule counters are made on its first. */
  hit(e: OriginEntry, a: number, idx: number): void {
    this.touch(e);
    if (e.hitRules === null) {
      e.hitRules = e.slot!.rules;
      if (e.ruleHits === this.shared.noHits) e.ruleHits = newRuleHits(e.slot!);
    }
    e.ruleHits[a]!.add(idx);
  }

  /** Counts a disallowed row of `e` for agent `a`; the origin's counters are made on its first. */
  countDisallowed(e: OriginEntry, a: number): void {
    if (e.disallowed === this.shared.noCounts) e.disallowed = zeros(this.config.agents.length);
    e.disallowed[a]!++;
  }

  /** Hands over (and forgets) the origins with counters to report, at most `max` of them. */
  drainDirty(max = Number.POSITIVE_INFINITY): OriginEntry[] {
    const list = this.dirtyList.length <= max ? this.dirtyList.splice(0) : this.dirtyList.splice(0, max);
    for (const e of list) e.dirty = false;
    return list;
  }

  private remove(e: OriginEntry): void {
    this.spans.release(e);
    this.chains.remove(e);
    this.removed++;
  }

  /** Drops the least recently used origins (never those batches in flight may use). */
  private evictOrigins(): void {
    this.evictionPasses++;
    const budget = this.config.originBudget;
    const from = this.protectedFrom;
    const chains = this.chains;
    const stamps = new Int32Array(chains.size);
    let n = 0;
    chains.forEach((e) => {
      if (e.used < from) stamps[n++] = e.used;
    });
    const cut = stampCut(stamps, n, chains.size - Math.floor(budget * 0.75));
    const victims: OriginEntry[] = [];
    let atCut = cut.atBelow;
    chains.forEach((e) => {
      if (e.used < cut.below || (e.used === cut.below && atCut-- > 0)) victims.push(e);
    });
    for (const e of victims) this.remove(e);
    this.originsEvictAt = chains.size <= budget ? budget : chains.size + Math.max(1, budget >> 2);
  }

  /**
   * The origin's entry if another unit installed it meanwhile (as `find`), else `p` installed: one
   * lookup of the host's chain, where `find` then `install` made three on every new origin. An as-of
   * origin found so has every version's rules stamped for `stamp`: its rows pick their versions only
   * once the unit's other origins are installed, which may evict what no unit in flight holds.
   */
  findOrInstall(
    p: WirePolicy,
    origin: { scheme: 'http' | 'https'; host: string; port: number },
    stamp: number,
  ): OriginEntry {
    const head = this.chains.head(origin.host);
    const e = inChain(head, origin.scheme, origin.port);
    if (e !== undefined && !lostRules(e)) {
      if (e.used < stamp) e.used = stamp;
      stampRules(e, stamp);
      return e;
    }
    return this.install(p, origin, stamp, head);
  }

  /** Installs a policy received from the coordinator; returns its entry (stamped for this batch). */
  install(
    p: WirePolicy,
    origin: { scheme: 'http' | 'https'; host: string; port: number },
    stamp: number,
    head: OriginEntry | undefined = this.chains.head(origin.host),
  ): OriginEntry {
    const entry =
      p.history !== undefined
        ? this.register(this.historyEntry(p, origin, stamp), origin, head)
        : this.entryOf(p, origin, stamp, head);
    if (this.compiled.dropped !== this.sweptAt) this.forgetEvicted();
    return entry;
  }

  /**
   * Forgets the origins whose compiled rules were evicted (`find` would at their next row): an entry holds
   * its first agent's rules directly, which would otherwise outlive their eviction uncounted. Entries of
   * batches in flight are never among them (their rules are protected). A scan per eviction pass.
   */
  private forgetEvicted(): void {
    this.sweptAt = this.compiled.dropped;
    const gone: OriginEntry[] = [];
    this.chains.forEach((e) => {
      if (lostRules(e)) gone.push(e);
    });
    for (const e of gone) this.remove(e);
  }

  /** The entry of a policy: shared (compact table) for a fixed uncounted verdict, else one of its own (registered when `head` is not null). */
  private entryOf(
    p: WirePolicy,
    origin: { scheme: 'http' | 'https'; host: string; port: number },
    stamp: number,
    head: OriginEntry | undefined | null,
    versionOf?: EntryParts['versionOf'],
  ): OriginEntry {
    let slot: CompiledSlot | null = null;
    let fixedVerdict = -1;
    if (p.outcome === 'parsed') slot = this.compiled.get(p, stamp);
    else if (p.outcome === 'unavailable') fixedVerdict = V_ALLOWED_UNAVAILABLE;
    else if (p.outcome === 'unreachable') fixedVerdict = V_DISALLOWED_UNREACHABLE;
    else fixedVerdict = V_NOT_CACHED;
    const texts = this.texts;
    const fixed =
      fixedVerdict >= 0 && !this.config.evidence ? texts.fixedTexts(p.status, fixedVerdict) : null;
    if (fixed !== null && fixedVerdict !== V_DISALLOWED_UNREACHABLE && head !== null) {
      const e = this.shared.remember(origin, fixedVerdict, fixed);
      if (e !== undefined) {
        // Held by the compact table instead: an entry of its own would shadow it.
        this.chains.drop(origin.host, head, origin);
        return e;
      }
    }
    const entry = newOriginEntry(p, origin, stamp, slot, fixedVerdict, fixed, this.config.agents.length, {
      texts,
      shared: this.shared,
      versionOf,
    });
    return head === null ? entry : this.register(entry, origin, head);
  }

  private register(
    entry: OriginEntry,
    origin: { scheme: string; port: number },
    head: OriginEntry | undefined,
  ): OriginEntry {
    this.chains.link(entry, head, origin);
    if (this.chains.size > this.originsEvictAt) this.evictOrigins();
    return entry;
  }

  /** As of a time: an origin's entry holding an entry per stored version (each body compiled once). */
  private historyEntry(
    p: WirePolicy,
    origin: { scheme: 'http' | 'https'; host: string; port: number },
    stamp: number,
  ): OriginEntry {
    // The origin's versions share its names and one set of disallowed-row counters (reported once).
    const names = entryNames(p.key, origin);
    const own = { key: names.key, host: names.host, disallowed: zeros(this.config.agents.length) };
    // Versions that only appended groups to an earlier one share its compiled tables.
    const list = p.history as WireVersion[];
    this.compiled.versions(list, stamp);
    const history = buildHistory(
      list,
      (w) => this.entryOf(w, origin, stamp, null, own),
      this.sharesRanks
        ? rankViews(list, (w) => (w.outcome === 'parsed' ? this.compiled.get(w, stamp).rules! : null))
        : null,
    );
    // Every version judged through one entry: it stands for the origin too (a row's pick finds it loaded).
    const first = history.versions[0];
    if (first !== undefined && first.slot !== null && history.versions.every((e) => e === first)) {
      this.spans.attach(first, history, this.config.agents.length === 1, () => this.spannedEntries());
      // Its span and view bits say all a row needs, grace included: the history's arrays would only be
      // ≈ 400 bytes more an origin to keep and to collect. Rows' own agents (`--agent-column`) still read it.
      if (first.spanAt >= 0 && (this.config.agentIndex ?? -1) < 0) first.history = null;
      return first;
    }
    // Else an entry of the origin's own: nothing to match, only the versions to pick from.
    const entry = this.entryOf({ ...p, outcome: 'not_cached', history: undefined }, origin, stamp, null, own);
    entry.history = history;
    return entry;
  }

  /**
   * The entry that judges a row of `e` (an as-of origin) at time `t`: the version in force, or a shared
   * `no_history` entry (the reason and the version's age are left in `out`). Undefined when a version it
   * needs lost its compiled rules: the origin is then forgotten and asked for again.
   */
  pick(e: OriginEntry, t: number, stamp: number, out: Pick): OriginEntry | undefined {
    // An entry let go of (its span released) that kept no history is out of the store: asked for again.
    if (e.spanAt < 0 && e.history === null) return undefined;
    const v =
      e.spanAt >= 0
        ? spanEntryAt(e, t, stamp, this.config.asOf!, out)
        : versionEntryAt(e.history!, t, stamp, this.config.asOf!, out);
    if (v === null) {
      this.remove(e);
      return undefined;
    }
    return typeof v === 'string' ? this.shared.noHistory(v) : v;
  }

  /** The entries in the chains that have a span (HistorySpans). */
  private spannedEntries(): OriginEntry[] {
    const list: OriginEntry[] = [];
    this.chains.forEach((e) => {
      if (e.spanAt >= 0) list.push(e);
    });
    return list;
  }

  /** True when a version in force within the grace before `t` allowed the path for agent `a`. */
  inGrace(e: OriginEntry, a: number, path: string, t: number): boolean {
    const graceMs = this.config.asOf!.graceMs;
    // Mostly the version in force began long before: then nothing to look back at, from the span alone.
    if (e.spanAt >= 0)
      return replacedWithinGrace(e, t, graceMs) && spanAllowedWithinGrace(e, t, graceMs, a, path);
    return allowedWithinGrace(e.history!, t, graceMs, a, path);
  }

  /** One agent's verdict columns for decision `idx` (-1: no rule decided), with several agents. */
  part(e: OriginEntry, a: number, idx: number): string {
    return this.texts.part(e, a, idx);
  }

  /** With one agent: the whole suffix for decision `idx`. */
  full(e: OriginEntry, idx: number): string {
    return this.texts.full(e, idx);
  }
}
