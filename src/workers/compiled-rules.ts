import { layeredOn } from '../core/appended-rules.js';
import { arrayOf } from '../core/array-of.js';
import { sameRuleSet } from '../core/compile.js';
import {
  type CompiledRules,
  compileRobotsTxt,
  compileVersions,
  parseRobotsTxt,
  type RobotsTxt,
  sameGroups,
} from '../core/index.js';
import type { WirePolicy } from './protocol.js';

/** Per compiled body beyond core's `byteSize`: the slot, the Map entry and the agents' array. */
const COST_BASE = 256;
/** A parsed body kept for rules compiled per row agent: bytes of heap per body byte (measured: ~8.5). */
const PARSED_COST_PER_BYTE = 9;
/** Distinct patterns of agents that decide alike kept for sharing between slots (real files fall into few). */
const MAX_SHARED_PATTERNS = 256;

/** Compiled rules of one body (by sha256), shared by every origin serving that body. */
export interface CompiledSlot {
  sha: string;
  /** null once evicted: origins still pointing here must ask again. */
  rules: CompiledRules[] | null;
  /**
   * Per agent, the first agent whose rules decide alike (the same groups selected: most files have only
   * `*` for all of them); `lead[a] === a` for the first of each. One decision per row serves them all.
   * Shared between slots with the same pattern: never written once made.
   */
  lead: Int32Array;
  /** There are agents, and every one follows agent 0: a row's verdict text depends on one decision only. */
  allSame: boolean;
  /** With a row agent (`--agent-column`): the whole parsed body, to compile any agent's rules from. */
  parsed: RobotsTxt | null;
  cost: number;
  /**
   * As of a time: the slots whose compiled rules this one's stand on (see layeredOn), which its cost does
   * not count; it goes when one of them goes. Null for rules compiled on their own.
   */
  bases: CompiledSlot[] | null;
  /** Latest batch stamp that used it. */
  used: number;
  /** Other bodies (sha256) whose rules are these, every agent's the same objects (see `versions`); or null. */
  aliases: string[] | null;
  /**
   * Verdict texts cached for the origins serving this body (OriginEntry's `full` and `parts`): they
   * depend only on the rules and the tail, so origins with the same tail share one cache, not a copy each.
   */
  full: string[] | null;
  /** The tail `full` was made with. */
  fullTail: string | null;
  parts: string[][] | null;
}

/**
 * A worker's compiled rule sets by body sha256, bounded by estimated bytes: evictions drop the least
 * recently used down to three quarters of the budget, never a set used at or after `protectFrom`.
 */
export class CompiledRuleSets {
  private readonly compiled = new Map<string, CompiledSlot>();
  /**
   * One per-agent array (CompiledSlot's) per pattern: a small typed array costs ≈ 200 bytes of heap (its
   * object, its buffer's), a copy per slot was ≈ 3.5 MiB for the 18k bodies of the classify benchmark.
   */
  private readonly patterns = new Map<string, Int32Array>();
  private cost = 0;
  /** Where the next eviction pass runs (see OriginStore's `originsEvictAt`). */
  private evictAt: number;
  /** Parse+compile runs so far. */
  compiles = 0;
  /** Rule sets evicted so far. */
  dropped = 0;
  /** Entries of `compiled` that are another body's slot (see `versions`). */
  private aliased = 0;
  protectFrom = 0;
  /** The lead pattern of a slot of one agent's rules. */
  private readonly oneLead: Int32Array;

  constructor(
    private readonly budget: number,
    private readonly agents: readonly string[],
    private readonly keepParsed = false,
  ) {
    this.evictAt = budget;
    this.oneLead = this.sharedPattern(new Int32Array(1));
  }

  get count(): number {
    return this.compiled.size - this.aliased;
  }

  get bytes(): number {
    return this.cost;
  }

  /** Batches ended: what they held may go now, so a pass may get within budget again. */
  released(): void {
    this.evictAt = this.budget;
  }

  /** True when rules of this body are compiled; they are then kept for batch `stamp`. */
  hold(sha: string, stamp: number): boolean {
    const hit = this.compiled.get(sha);
    if (hit === undefined || hit.rules === null) return false;
    if (hit.used < stamp) hit.used = stamp;
    return true;
  }

  /** The compiled rules of a parsed policy's body, compiled once per body while kept. */
  get(p: WirePolicy, stamp: number): CompiledSlot {
    const sha = p.sha256 ?? `nosha:${p.key}`;
    const hit = this.compiled.get(sha);
    if (hit !== undefined && hit.rules !== null) {
      if (hit.used < stamp) hit.used = stamp;
      return hit;
    }
    // A body left out because it was held compiled cannot have been evicted since: its unit is in flight.
    if (p.body === null && p.sha256 !== null) throw new Error(`rules of body ${p.sha256} were not kept`);
    const body = bodyView(p.body);
    const parsed = this.keepParsed ? parseRobotsTxt(body) : null;
    const rules =
      parsed === null
        ? compileRobotsTxt(body, this.agents)
        : arrayOf(this.agents.length, (a) => parsed.compile(this.agents[a]!));
    return this.add(sha, rules, parsed, body.byteLength, stamp);
  }

  /**
   * As of a time: compiles the bodies of one origin's versions (oldest first) together, so that a version
   * whose rules only moved down or had groups appended shares an earlier one's tables (see
   * compileVersions); a body compiled before is the base of later ones as it is. `get` then finds each by
   * its sha256. A slot layered that way records the slots it stands on (`bases`).
   */
  versions(list: readonly WirePolicy[], stamp: number): void {
    // Rules compiled per row agent need each parsed body: those versions are compared as parsed.
    if (this.keepParsed) {
      this.parsedVersions(list, stamp);
      return;
    }
    const shas: string[] = [];
    const bodies: Uint8Array[] = [];
    const slots: (CompiledSlot | undefined)[] = [];
    let missing = 0;
    for (const w of list) {
      if (w.outcome !== 'parsed' || w.sha256 === null || w.body === null || shas.includes(w.sha256)) continue;
      let hit = this.compiled.get(w.sha256);
      if (hit !== undefined && hit.rules === null) hit = undefined;
      if (hit === undefined) missing++;
      else if (hit.used < stamp) hit.used = stamp;
      shas.push(w.sha256);
      bodies.push(w.body);
      slots.push(hit);
    }
    // The other scheme's origin of a host mostly finds every body compiled: nothing to parse.
    if (missing === 0 || shas.length < 2) return;
    const out = compileVersions(
      arrayOf(bodies.length, (i) => bodyView(bodies[i]!)),
      this.agents,
      arrayOf(slots.length, (i) => slots[i]?.rules ?? undefined),
    );
    // Each version's rules as compiled, before `add` points agents that decide alike at one object (only
    // with several agents: one agent's rules are never replaced).
    const asCompiled = this.agents.length > 1 ? arrayOf(out.length, (i) => out[i]!.slice()) : out;
    // Which slot keeps each compiled object alive: this history's, and those its slots stand on.
    const owner: Owners = { rules: [], slots: [] };
    const fresh = arrayOf(slots.length, (i) => slots[i] === undefined);
    for (let i = 0; i < shas.length; i++) {
      if (slots[i] === undefined) {
        // A change no agent's rules see (a comment, a sitemap, another crawler's group): the same slot,
        // so a long history of such changes holds one rule set, one entry and one budget share.
        const j = sameRules(asCompiled, i);
        if (j >= 0) {
          slots[i] = this.alias(shas[i]!, slots[j]!, stamp);
          fresh[i] = false;
        } else slots[i] = this.add(shas[i]!, out[i]!, null, bodies[i]!.byteLength, stamp);
      }
      // A slot's bases are listed transitively: one level covers them all.
      const slot = slots[i]!;
      noteOwner(owner, slot);
      if (slot.bases !== null) for (const b of slot.bases) noteOwner(owner, b);
    }
    for (let i = 0; i < shas.length; i++) {
      const slot = slots[i]!;
      if (!fresh[i]) continue;
      let bases: CompiledSlot[] | null = null;
      for (const r of slot.rules!) {
        const base = ownerOf(owner, layeredOn(r) ?? r);
        if (base === undefined || base === slot) continue;
        bases ??= [];
        if (!bases.includes(base)) bases.push(base);
        if (base.bases !== null) for (const b of base.bases) if (!bases.includes(b)) bases.push(b);
      }
      // An exactly sized copy: a pushed-to array keeps room for 17 elements (≈ 130 bytes more), per slot.
      if (bases !== null) slot.bases = bases.slice();
    }
  }

  /**
   * `versions` with a row agent: each body not compiled yet is parsed, and filed under an earlier version's
   * slot when every agent's groups and their lines are the same there (see sameGroups), else kept as its own.
   */
  private parsedVersions(list: readonly WirePolicy[], stamp: number): void {
    const seen: CompiledSlot[] = [];
    for (const w of list) {
      if (w.outcome !== 'parsed' || w.sha256 === null || w.body === null) continue;
      const hit = this.compiled.get(w.sha256);
      if (hit !== undefined && hit.rules !== null) {
        if (hit.used < stamp) hit.used = stamp;
        if (!seen.includes(hit)) seen.push(hit);
        continue;
      }
      const body = bodyView(w.body);
      const parsed = parseRobotsTxt(body);
      const same = seen.find((s) => s.parsed !== null && sameGroups(s.parsed, parsed));
      if (same !== undefined) this.alias(w.sha256, same, stamp);
      else {
        const rules = arrayOf(this.agents.length, (a) => parsed.compile(this.agents[a]!));
        seen.push(this.add(w.sha256, rules, parsed, body.byteLength, stamp));
      }
    }
  }

  /** Files `sha` under `slot`, whose rules it compiled to. */
  private alias(sha: string, slot: CompiledSlot, stamp: number): CompiledSlot {
    if (slot.aliases === null) slot.aliases = [sha];
    else slot.aliases.push(sha);
    this.compiled.set(sha, slot);
    this.aliased++;
    if (slot.used < stamp) slot.used = stamp;
    return slot;
  }

  /** Keeps the compiled rules of a body as its slot. */
  private add(
    sha: string,
    rules: CompiledRules[],
    parsed: RobotsTxt | null,
    bodyBytes: number,
    stamp: number,
  ): CompiledSlot {
    this.compiles++;
    // Agents that select the same groups share one compiled set: count it once.
    let cost = COST_BASE + (parsed === null ? 0 : bodyBytes * PARSED_COST_PER_BYTE);
    let allSame = rules.length > 0;
    let lead: Int32Array;
    if (rules.length === 1) {
      // One agent, the common run: its own lead, the one array every such slot shares.
      cost += rules[0]!.byteSize;
      lead = this.oneLead;
    } else {
      lead = new Int32Array(rules.length);
      for (let a = 0; a < rules.length; a++) {
        let l = 0;
        while (l < a && !sameRuleSet(rules[l]!, rules[a]!)) l++;
        lead[a] = l;
        // A follower uses its lead's object: it decides alike, and one object per set is kept.
        if (l === a) cost += rules[a]!.byteSize;
        else rules[a] = rules[l]!;
        if (l !== 0) allSame = false;
      }
      lead = this.sharedPattern(lead);
    }
    const slot: CompiledSlot = {
      sha,
      rules,
      lead,
      allSame,
      parsed,
      cost,
      bases: null,
      used: stamp,
      aliases: null,
      full: null,
      fullTail: null,
      parts: null,
    };
    this.compiled.set(sha, slot);
    this.cost += slot.cost;
    if (this.cost > this.evictAt) this.evict();
    return slot;
  }

  /** The kept array equal to `pattern`, or `pattern` (then kept, while few are). */
  private sharedPattern(pattern: Int32Array): Int32Array {
    const key = pattern.join(',');
    const known = this.patterns.get(key);
    if (known !== undefined) return known;
    if (this.patterns.size < MAX_SHARED_PATTERNS) this.patterns.set(key, pattern);
    return pattern;
  }

  private evict(): void {
    const budget = this.budget;
    const slots = [...this.compiled.values()]
      .filter((s) => s.used < this.protectFrom)
      .sort((a, b) => a.used - b.used);
    for (const s of slots) {
      if (this.cost <= budget * 0.75) break;
      this.drop(s);
    }
    // Rules standing on evicted ones would keep those alive uncounted: they go too (once no batch holds them).
    for (const s of slots) {
      if (s.rules !== null && s.bases?.some((b) => b.rules === null)) this.drop(s);
    }
    this.evictAt = this.cost <= budget ? budget : this.cost + budget / 4;
  }

  private drop(s: CompiledSlot): void {
    // A slot with aliases is listed once per body.
    if (s.rules === null) return;
    s.rules = null;
    s.parsed = null;
    this.compiled.delete(s.sha);
    if (s.aliases !== null) {
      for (const a of s.aliases) this.compiled.delete(a);
      this.aliased -= s.aliases.length;
    }
    this.cost -= s.cost;
    this.dropped++;
  }
}

/** Compiled objects and the slots that keep them alive, side by side (a few per history: no map). */
interface Owners {
  rules: CompiledRules[];
  slots: CompiledSlot[];
}

/** Files `slot` as the keeper of each compiled object of its rules not layered on others' (see versions). */
function noteOwner(owner: Owners, slot: CompiledSlot): void {
  if (slot.rules === null) return;
  for (const r of slot.rules) {
    if (layeredOn(r) !== null || owner.rules.includes(r)) continue;
    owner.rules.push(r);
    owner.slots.push(slot);
  }
}

/** The slot that keeps compiled object `r` alive, or undefined. */
function ownerOf(owner: Owners, r: CompiledRules): CompiledSlot | undefined {
  const k = owner.rules.indexOf(r);
  return k < 0 ? undefined : owner.slots[k];
}

/** The earlier version whose rules are version `i`'s (every agent's one rule set); or -1. */
function sameRules(rules: readonly (readonly CompiledRules[])[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (rules[j]!.every((r, a) => sameRuleSet(r, rules[i]![a]!))) return j;
  return -1;
}

/** A wire body as a Buffer view (no copy): the core decodes it with Node's native latin1 slice, not a JS loop. */
function bodyView(body: Uint8Array | null): Buffer {
  return body === null ? Buffer.alloc(0) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** One `make(a)` per lead agent of the slot, shared by the agents that decide alike (see CompiledSlot.lead). */
export function byLead<T>(slot: CompiledSlot, make: (a: number) => T): T[] {
  const out: T[] = [];
  for (let a = 0; a < slot.lead.length; a++) out.push(slot.lead[a] === a ? make(a) : out[slot.lead[a]!]!);
  // An exactly sized copy: a pushed-to array keeps room for 17 elements (≈ 130 bytes more), per origin.
  return out.slice();
}

/** The per-agent verdict-part caches of the origins serving `slot`'s body (parts hold no tail), one per lead agent. */
export function slotParts(slot: CompiledSlot): string[][] {
  if (slot.parts === null) slot.parts = byLead(slot, () => []);
  return slot.parts;
}

/** The verdict-text cache of an origin serving `slot`'s body: the slot's own when the tails agree. */
export function slotFull(slot: CompiledSlot, tail: string): string[] {
  if (slot.full === null) {
    slot.full = [];
    slot.fullTail = tail;
  }
  return slot.fullTail === tail ? slot.full : [];
}
