import { type NoHistoryReason, V_ALLOWED_UNAVAILABLE, V_NO_HISTORY } from '../rows/verdict-format.js';
import { FixedOrigins } from './fixed-origins.js';
import { makeEntry } from './origin-entry.js';
import type { OriginEntry } from './origin-store.js';
import type { WorkerConfig } from './protocol.js';
import { RuleHits } from './rule-hits.js';
import type { VerdictTexts } from './verdict-texts.js';

/** Shared entries at most (ids of FixedOrigins); statuses beyond get entries of their own. */
const MAX_SHARED_ENTRIES = 255;

/** Tells, without a request, that an origin has no robots.txt (a `--robots-dir` listing lacks its file). */
export interface MissingProbe {
  /** True (and counted by the probe as a policy read) when the origin surely has no robots.txt. */
  missing(scheme: 'http' | 'https', host: string, port: number): boolean;
  /** The status such an origin's policy has when read the usual way. */
  readonly missingStatus: string;
}

type FixedTexts = { tail: string; full: string[] };

/**
 * Entries that stand for many origins or rows: one per fixed, uncounted verdict and status (no
 * robots.txt, not cached), its origins held in a compact table instead of an entry each; and one per
 * `no_history` reason. Without evidence columns only: with them every origin's text names its URL.
 */
export class SharedOrigins {
  /** The counters of an origin with a fixed verdict: no rule is ever hit, and if it allows, no row counts. */
  readonly noHits: RuleHits[];
  readonly noCounts: number[];
  readonly noParts: string[][] = [];
  private readonly table: FixedOrigins | null;
  private readonly entries: OriginEntry[] = [];
  /** By the texts VerdictTexts shares per fixed verdict and status (one object each). */
  private readonly ids = new Map<object, number>();
  private readonly noHistoryEntries = new Map<string, OriginEntry>();
  /** Set by the worker under `--robots-dir`. */
  missingProbe: MissingProbe | null = null;
  private missingId = -2;

  constructor(
    config: WorkerConfig,
    private readonly texts: VerdictTexts,
  ) {
    this.noHits = config.agents.map(() => new RuleHits(0));
    this.noCounts = config.agents.map(() => 0);
    this.table = config.evidence ? null : new FixedOrigins();
  }

  /** The shared entry remembered for the origin, or undefined. */
  find(scheme: 'http' | 'https', host: string, port: number): OriginEntry | undefined {
    const id = this.table?.get(scheme, host, port) ?? -1;
    return id < 0 ? undefined : this.entries[id];
  }

  /** Remembers the origin under the shared entry of this verdict and texts; undefined when it cannot. */
  remember(
    origin: { scheme: 'http' | 'https'; host: string; port: number },
    verdict: number,
    fixed: FixedTexts,
  ): OriginEntry | undefined {
    if (this.table === null) return undefined;
    const id = this.idOf(verdict, fixed);
    if (id < 0) return undefined;
    this.table.set(origin.scheme, origin.host, origin.port, id);
    return this.entries[id];
  }

  /** The shared entry of an origin the probe knows has no robots.txt (remembered from now on), or undefined. */
  probeMissing(scheme: 'http' | 'https', host: string, port: number): OriginEntry | undefined {
    const probe = this.missingProbe;
    if (probe === null || this.table === null) return undefined;
    if (this.missingId === -2) {
      this.missingId = this.idOf(
        V_ALLOWED_UNAVAILABLE,
        this.texts.fixedTexts(probe.missingStatus, V_ALLOWED_UNAVAILABLE),
      );
    }
    if (this.missingId < 0 || !probe.missing(scheme, host, port)) return undefined;
    this.table.set(scheme, host, port, this.missingId);
    return this.entries[this.missingId];
  }

  /** The entry of `no_history` rows for one reason. */
  noHistory(reason: NoHistoryReason): OriginEntry {
    let e = this.noHistoryEntries.get(reason);
    if (e === undefined) {
      e = this.entryFor(V_NO_HISTORY, { tail: '', full: [this.texts.noHistoryText(reason)] });
      this.noHistoryEntries.set(reason, e);
    }
    return e;
  }

  private idOf(verdict: number, fixed: FixedTexts): number {
    const known = this.ids.get(fixed);
    if (known !== undefined) return known;
    if (this.entries.length === MAX_SHARED_ENTRIES) return -1;
    const id = this.entries.length;
    this.entries.push(this.entryFor(verdict, fixed));
    this.ids.set(fixed, id);
    return id;
  }

  private entryFor(verdict: number, fixed: FixedTexts): OriginEntry {
    return makeEntry({
      key: '',
      scheme: 'http',
      host: '',
      port: 0,
      fixedVerdict: verdict,
      slot: null,
      first: null,
      used: 0,
      parts: this.noParts,
      tail: fixed.tail,
      full: fixed.full,
      disallowed: this.noCounts,
      ruleHits: this.noHits,
      shared: true,
    });
  }
}
