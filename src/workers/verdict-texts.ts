import type { CompiledRules } from '../core/index.js';
import {
  agentPart,
  type EvidenceText,
  GRACE_CLASS,
  graceCell,
  tailPart,
  V_ALLOWED_EXPLICIT,
  V_ALLOWED_IMPLICIT,
  V_DISALLOWED_EXPLICIT,
  V_NO_HISTORY,
} from '../rows/verdict-format.js';
import type { OriginEntry } from './origin-store.js';
import type { WirePolicy, WireVersion, WorkerConfig } from './protocol.js';

/**
 * Verdict texts of decision indexes below this are cached per origin; higher ones are formatted per row.
 * An array indexed by a high rank would be sized by the rank, and a Map per origin grows all run long.
 * On the classify benchmark 11 % of rows are decided by a rank of 16 or more, 1.5 % by one of 64 or
 * more; caching up to 64 instead of 16 allocates 7 % less (formatting a text makes ≈ 500 bytes of
 * garbage) for ≈ 1–2 MiB more live heap.
 */
const NEAR_RANKS = 64;

/** Distinct origin-independent verdict texts kept for sharing (see VerdictTexts.sharedTexts). */
const MAX_SHARED_TEXTS = 256;

/**
 * Where the verdict text of decision `idx` is cached in an entry's `full`/`parts`, or -1 (formatted per
 * row): the near ranks, and the last rank, where an empty `Disallow:` sits when it decides every path no
 * pattern matches (most rows of such an origin).
 */
function cacheSlot(e: OriginEntry, a: number, idx: number): number {
  const k = idx + 1;
  if (k < NEAR_RANKS) return k;
  return idx === e.slot!.rules![a]!.count - 1 ? NEAR_RANKS : -1;
}

/**
 * A JS string as UTF-8 bytes, held in a one-byte latin1 string (one char per byte). ASCII text is
 * copied too: a slice of a text with a char above U+00FF (a rule set's joined rule texts) is stored at
 * two bytes per char even when its own chars are ASCII, and one such piece made a batch's whole joined
 * output two-byte (twice the memory, and a slow latin1 write): 1,537 of 1,558 batches on the benchmark.
 */
export function bytesText(s: string): string {
  return Buffer.from(s, /^[\x00-\x7f]*$/.test(s) ? 'latin1' : 'utf8').toString('latin1');
}

/**
 * A latin1 text (one char per byte) as one flat string. A concatenation is a rope whose pieces the
 * batch's join walks again on every row that appends it; texts cached per origin are flattened once.
 */
function flatText(s: string): string {
  return Buffer.from(s, 'latin1').toString('latin1');
}

/**
 * The text a worker appends to each row: per origin (its tail, and the verdict columns of its deciding
 * rules, cached in the entry for the near ranks) and shared between origins where it does not depend on
 * their rules. Kept apart from the origin store, which decides what is remembered and for how long.
 */
export class VerdictTexts {
  /**
   * Verdict texts that do not depend on the origin's rules (no rule decided, or a fixed verdict), one
   * instance each: most rows end with one of a handful of them, which then stay in cache, where a copy
   * per origin is a cache miss per row when the batch's output is joined.
   */
  private readonly sharedTexts = new Map<string, string>();
  /**
   * Without evidence columns, what an origin with no rules to match holds depends only on its policy's
   * status: one tail and one verdict text per status, not a copy per origin (garbage on frontiers
   * where nearly every origin is new).
   */
  private readonly fixedByStatus: Map<string, { tail: string; full: string[] }>[] = [];
  /** Tails without evidence columns, by status. */
  private readonly tails = new Map<string, string>();
  private readonly d: string;
  /** As of a time: each agent's columns end with its `grace` cell. */
  private readonly asOf: boolean;

  constructor(private readonly config: WorkerConfig) {
    this.d = config.delimiter;
    this.asOf = config.asOf != null;
  }

  /** One agent's columns for a verdict without a deciding rule (leading delimiter included). */
  private plainPart(verdict: number): string {
    const d = this.d;
    return d + agentPart(verdict, 0, '', d) + (this.asOf ? graceCell(verdict, d) : '');
  }

  private shared(text: string): string {
    const known = this.sharedTexts.get(text);
    if (known !== undefined) return known;
    // With --evidence every origin's text differs: stop collecting once it is clearly not shared.
    if (this.sharedTexts.size < MAX_SHARED_TEXTS) this.sharedTexts.set(text, text);
    return text;
  }

  evidenceOf(p: WirePolicy): EvidenceText | null {
    if (!this.config.evidence) return null;
    const v = p as Partial<WireVersion>;
    return {
      robotsUrl: p.robotsUrl,
      fetchedAt: p.fetchedAt,
      sha256: p.sha256 ?? '',
      truncated: p.outcome === 'parsed' ? String(p.truncated) : '',
      version: this.asOf
        ? {
            from: v.validFrom === undefined ? '' : new Date(v.validFrom).toISOString(),
            source: v.source ?? '',
          }
        : undefined,
    };
  }

  /** The whole suffix of a `no_history` row, with its reason in the error_code column. */
  noHistoryText(reason: string): string {
    let cols = '';
    for (let a = 0; a < this.config.agents.length; a++) cols += this.plainPart(V_NO_HISTORY);
    const ev = this.config.evidence
      ? { robotsUrl: '', fetchedAt: '', sha256: '', truncated: '', version: { from: '', source: '' } }
      : null;
    return bytesText(`${cols}${this.d}${tailPart('', reason, ev, this.d)}${this.config.eol}`);
  }

  /** `,robots_status,error_code[,evidence]` and the line end. */
  tailText(status: string, evidence: EvidenceText | null): string {
    if (evidence !== null) return this.tailOf(status, evidence);
    // Without evidence a tail depends on the status only: one instance per status, not one per origin.
    let t = this.tails.get(status);
    if (t === undefined) {
      t = this.tailOf(status, null);
      if (this.tails.size < MAX_SHARED_TEXTS) this.tails.set(status, t);
    }
    return t;
  }

  private tailOf(status: string, evidence: EvidenceText | null): string {
    return bytesText(`${this.d}${tailPart(status, '', evidence, this.d)}${this.config.eol}`);
  }

  /** The whole suffix of every row of an origin with a fixed verdict. */
  fixedText(verdict: number, tail: string): string {
    let cols = '';
    for (let a = 0; a < this.config.agents.length; a++) cols += this.plainPart(verdict);
    return this.shared(flatText(bytesText(cols) + tail));
  }

  /** Tail and suffix shared by the origins with this fixed verdict and status (no evidence columns). */
  fixedTexts(status: string, verdict: number): { tail: string; full: string[] } {
    let byStatus = this.fixedByStatus[verdict];
    if (byStatus === undefined) {
      byStatus = new Map();
      this.fixedByStatus[verdict] = byStatus;
    }
    let t = byStatus.get(status);
    if (t === undefined) {
      const tail = this.tailText(status, null);
      t = { tail, full: [this.fixedText(verdict, tail)] };
      // Statuses are few (a code, a source, an HTTP status): bounded like the shared texts.
      if (byStatus.size < MAX_SHARED_TEXTS) byStatus.set(status, t);
    }
    return t;
  }

  /**
   * The suffix of a row of which some agent's disallow is within the grace (classes[at + a] carries
   * GRACE_CLASS): formatted per row, its `grace` cell `true`. Rare: only rows a recent change disallowed.
   */
  graced(
    e: OriginEntry,
    classes: Uint8Array,
    at: number,
    path: string,
    view: CompiledRules[] | null = null,
  ): string {
    let s = '';
    for (let a = 0; a < this.config.agents.length; a++) {
      const c = classes[at + a]!;
      const verdict = c & ~GRACE_CLASS;
      let part: string;
      if (e.fixedVerdict >= 0) part = this.plainPart(verdict);
      else part = this.partText(e, a, (view === null ? e.slot!.rules![a]! : view[a]!).decide(path));
      // A disallowed agent's part ends with its `grace` cell, `false`.
      s += c & GRACE_CLASS ? `${part.slice(0, part.length - 5)}true` : part;
    }
    return s + e.tail;
  }

  /** One agent's verdict columns for decision `idx` (-1: no rule decided), with several agents. */
  part(e: OriginEntry, a: number, idx: number): string {
    const k = cacheSlot(e, a, idx);
    if (k < 0) return this.partText(e, a, idx);
    const cached = e.parts[a]![k];
    if (cached !== undefined) return cached;
    const s = this.partText(e, a, idx);
    e.parts[a]![k] = s;
    return s;
  }

  private partText(e: OriginEntry, a: number, idx: number): string {
    if (idx < 0) return bytesText(this.plainPart(V_ALLOWED_IMPLICIT));
    const r = e.slot!.rules![a]!;
    const verdict = r.allowedAt(idx) ? V_ALLOWED_EXPLICIT : V_DISALLOWED_EXPLICIT;
    const grace = this.asOf ? graceCell(verdict, this.d) : '';
    return bytesText(this.d + agentPart(verdict, r.lineAt(idx), r.ruleAt(idx), this.d) + grace);
  }

  /**
   * With several agents that all decide by one rule set: the whole suffix for decision `idx`, every
   * agent's columns the same (cached in the entry's `full`, which only one agent uses otherwise).
   */
  fullOfAll(e: OriginEntry, idx: number): string {
    const k = cacheSlot(e, 0, idx);
    if (k < 0) return this.partText(e, 0, idx).repeat(this.config.agents.length) + e.tail;
    const cached = e.full[k];
    if (cached !== undefined) return cached;
    const text = flatText(this.partText(e, 0, idx).repeat(this.config.agents.length) + e.tail);
    const s = idx < 0 || k === NEAR_RANKS ? this.shared(text) : text;
    e.full[k] = s;
    return s;
  }

  /** With one agent: the whole suffix for decision `idx`. */
  full(e: OriginEntry, idx: number): string {
    const k = cacheSlot(e, 0, idx);
    if (k < 0) return this.partText(e, 0, idx) + e.tail;
    const cached = e.full[k];
    if (cached !== undefined) return cached;
    const text = flatText(this.partText(e, 0, idx) + e.tail);
    // No rule decided, or the empty `Disallow:` (the last rank) did: the same text for many origins.
    const s = idx < 0 || k === NEAR_RANKS ? this.shared(text) : text;
    e.full[k] = s;
    return s;
  }
}
