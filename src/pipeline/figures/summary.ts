import { SHARD_KEY, type Shard } from '../../rows/shard.js';
import { NO_HISTORY_REASONS, VERDICTS } from '../../rows/verdict-format.js';
import { AGE_BUCKET_DAYS, type AsOfStats, type BatchStats } from '../../workers/protocol.js';
import type { BrokerStats } from '../policy/policy-broker.js';
import { type RowAgentSummary, RowAgentTally } from './row-agent-summary.js';
import { TopCounter } from './top-counter.js';

const TOP = 10;
const MAX_EXAMPLES = 20;

export interface AsOfSummary {
  /** `--at-column`'s column, or `--as-of`'s time (ISO). */
  column: string | null;
  time: string | null;
  graceSeconds: number;
  maxHistoryAgeSeconds: number | null;
  /** Rows judged under a stored version; `no_history` rows by reason. */
  rowsJudged: number;
  noHistory: Record<string, number>;
  /** Rows judged, by how long before the row's time the version in force was last seen. */
  versionAge: Record<string, number>;
  /** Per agent: disallowed rows that a version in force within the grace allowed (counted in the verdicts too). */
  grace: Record<string, number>;
}

/** A rule of one origin's robots.txt and the rows it decided. */
export interface RuleCount {
  origin: string;
  line: number;
  rule: string;
  rows: number;
}

export interface ClassifySummary {
  input: string;
  output: string;
  agents: string[];
  threads: number;
  /** `--shard K/N`: this run counts only its shard's rows; null for an unsharded run. */
  shard: { index: number; count: number; key: string } | null;
  /** Data records read (header and blank lines excluded; a shard's own). */
  recordsRead: number;
  /** Data rows written (header excluded); always equals recordsRead for a completed run. */
  rowsWritten: number;
  blankLines: number;
  invalidRows: number;
  invalidByCode: Record<string, number>;
  /** First invalid rows: 1-based data record number (header excluded) and code. */
  invalidExamples: { record: number; code: string }[];
  /** Rows whose absolute URL names another host than the host column (the URL wins). */
  hostMismatch: number;
  /** Per agent, rows by verdict (every verdict listed, zeros included). */
  verdicts: Record<string, Record<string, number>>;
  origins: {
    resolved: number;
    /** Rule sets parsed and compiled by the workers (an evicted one compiled again counts again). */
    compiled: number;
    byOutcome: Record<string, number>;
    bySource: Record<string, number>;
    failures: Record<string, number>;
    /** Unreachable origins (disallow all) by cause: an error code, or `HTTP <status>`. */
    unreachableBy: Record<string, number>;
  };
  topDisallowedHosts: Record<string, { origin: string; rows: number }[]>;
  /** Every rule that decided rows, allowing and disallowing together, most rows first. */
  topRules: Record<string, RuleCount[]>;
  /** Rules that decided disallowed rows. */
  topDisallowRules: Record<string, RuleCount[]>;
  /** Rules that decided allowed rows: Allow rules, and empty `Disallow:` lines (they disallow nothing). */
  topAllowRules: Record<string, RuleCount[]>;
  /** False when the top lists overflowed their bounded counters (some figures may then be low). */
  topCountsExact: boolean;
  /** As of a time only: how rows were judged against the cache's history. */
  asOf?: AsOfSummary;
  /** `--agent-column` only: rows by the crawler each was judged for (at most 1000; the rest `(other)`). */
  rowAgents?: Record<string, RowAgentSummary>;
  /** `--agent-column` only: rows whose agent is a browser's, empty or `-` (not judged). */
  notACrawler?: number;
  /** `--agent-column` only: invalid rows whose agent cell could not be read (malformed, extra fields). */
  rowAgentUnread?: number;
  /** `--agent-column` only: false when some agents were added up under `(other)`. */
  rowAgentsExact?: boolean;
  timing: {
    wallMs: number;
    /** Main thread: reading, decompressing and cutting the input into batches. */
    readingMs: number;
    /** Wall time during which at least one policy was being fetched / read. */
    fetchingMs: number;
    /** Worker CPU time splitting, matching and formatting (summed over threads). */
    matchingMs: number;
    /** Main thread: writing output and waiting for it to drain. */
    writingMs: number;
  };
  rowsPerSecond: number;
}

/** Merges per-batch figures, in batch order, into the run's summary. */
export class SummaryBuilder {
  private records = 0;
  /** Records read in all, other shards' included: invalidExamples number records in the whole input. */
  private inputRecords = 0;
  private blank = 0;
  private mismatch = 0;
  private readonly invalid = new Map<string, number>();
  private readonly examples: { record: number; code: string }[] = [];
  private readonly verdicts: number[][];
  /** Per agent: disallowed rows by origin. */
  private readonly hosts: TopCounter[];
  /** Per agent: rows by rule, keyed `origin\nline\nrule` (see ruleKey), tagged 1 when the rule allows. */
  private readonly rules: TopCounter[];
  private workMs = 0;
  private compiles = 0;
  private readonly asOf = {
    judged: 0,
    noHistory: new Map<string, number>(),
    ages: [] as number[],
    grace: [] as number[],
  };
  rowsWritten = 0;

  private readonly rowAgents: RowAgentTally | null;

  constructor(
    private readonly agents: string[],
    rowAgent = false,
  ) {
    this.rowAgents = rowAgent ? new RowAgentTally() : null;
    this.verdicts = agents.map(() => VERDICTS.map(() => 0));
    this.hosts = agents.map(() => new TopCounter());
    this.rules = agents.map(() => new TopCounter());
  }

  get recordsRead(): number {
    return this.records;
  }

  addBlankLines(n: number): void {
    this.blank += n;
  }

  add(s: BatchStats): void {
    const base = this.inputRecords;
    this.inputRecords += s.inputRecords;
    this.records += s.records;
    this.blank += s.blankLines;
    this.mismatch += s.hostMismatch;
    this.workMs += s.workMs;
    this.compiles += s.compiles;
    for (const [code, n] of s.invalid) this.invalid.set(code, (this.invalid.get(code) ?? 0) + n);
    for (const [i, code] of s.invalidExamples) {
      if (this.examples.length < MAX_EXAMPLES) this.examples.push({ record: base + i + 1, code });
    }
    s.verdicts.forEach((counts, a) => {
      counts.forEach((n, v) => {
        this.verdicts[a]![v]! += n;
      });
    });
    if (s.asOf !== undefined) this.addAsOf(s.asOf);
    if (s.rowAgents !== undefined) this.rowAgents?.add(s.rowAgents);
    for (const [a, origin, n] of s.disallowedHosts) {
      if (typeof a === 'number') this.hosts[a]!.add(origin, n);
      else for (const x of a) this.hosts[x]!.add(origin, n);
    }
    for (const [a, origin, line, rule, n, allowed] of s.rules) {
      const key = ruleKey(origin, line, rule);
      const tag = allowed ? 1 : 0;
      // Agents that decided alike come as one entry: one key for all their counters.
      if (typeof a === 'number') this.rules[a]!.add(key, n, tag);
      else for (const x of a) this.rules[x]!.add(key, n, tag);
    }
  }

  private addAsOf(x: AsOfStats): void {
    const t = this.asOf;
    t.judged += x.judged;
    for (const [k, n] of Object.entries(x.noHistory)) t.noHistory.set(k, (t.noHistory.get(k) ?? 0) + n);
    x.ages.forEach((n, b) => {
      t.ages[b] = (t.ages[b] ?? 0) + n;
    });
    x.grace.forEach((n, a) => {
      t.grace[a] = (t.grace[a] ?? 0) + n;
    });
  }

  private buildAsOf(cfg: AsOfContext): AsOfSummary {
    const t = this.asOf;
    const labels = [...AGE_BUCKET_DAYS.map((d) => `≤ ${d}d`), `> ${AGE_BUCKET_DAYS.at(-1)}d`];
    return {
      column: cfg.column ?? null,
      time: cfg.time === undefined ? null : new Date(cfg.time).toISOString(),
      graceSeconds: cfg.graceSeconds,
      maxHistoryAgeSeconds: cfg.maxHistoryAgeSeconds ?? null,
      rowsJudged: t.judged,
      noHistory: Object.fromEntries(Object.keys(NO_HISTORY_REASONS).map((r) => [r, t.noHistory.get(r) ?? 0])),
      versionAge: Object.fromEntries(labels.map((l, b) => [l, t.ages[b] ?? 0])),
      grace: Object.fromEntries(this.agents.map((agent, a) => [agent, t.grace[a] ?? 0])),
    };
  }

  /** Agent `a`'s top rules: all, or only those that allow (`true`) or disallow (`false`). */
  private topRules(a: number, allowed?: boolean): RuleCount[] {
    const tag = allowed === undefined ? undefined : allowed ? 1 : 0;
    return this.rules[a]!.top(TOP, tag).map(({ key, count }) => ({ ...ruleOfKey(key), rows: count }));
  }

  build(ctx: {
    input: string;
    output: string;
    threads: number;
    shard?: Shard | null;
    asOf?: AsOfContext | null;
    broker: BrokerStats;
    wallMs: number;
    readingMs: number;
    writingMs: number;
  }): ClassifySummary {
    const byAgent = <T>(f: (a: number) => T): Record<string, T> =>
      Object.fromEntries(this.agents.map((agent, a) => [agent, f(a)]));
    const invalidRows = [...this.invalid.values()].reduce((x, y) => x + y, 0);
    return {
      input: ctx.input,
      output: ctx.output,
      agents: this.agents,
      threads: ctx.threads,
      shard: ctx.shard ? { index: ctx.shard.index, count: ctx.shard.count, key: SHARD_KEY } : null,
      recordsRead: this.records,
      rowsWritten: this.rowsWritten,
      blankLines: this.blank,
      invalidRows,
      invalidByCode: Object.fromEntries([...this.invalid].sort()),
      invalidExamples: this.examples,
      hostMismatch: this.mismatch,
      verdicts: byAgent((a) => Object.fromEntries(VERDICTS.map((v, i) => [v, this.verdicts[a]![i]!]))),
      origins: {
        resolved: ctx.broker.resolved,
        compiled: this.compiles,
        byOutcome: { ...ctx.broker.outcomes },
        bySource: { ...ctx.broker.sources },
        failures: { ...ctx.broker.failures },
        unreachableBy: Object.fromEntries(
          Object.entries(ctx.broker.unreachableBy).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
        ),
      },
      topDisallowedHosts: byAgent((a) =>
        this.hosts[a]!.top(TOP).map((t) => ({ origin: t.key, rows: t.count })),
      ),
      topRules: byAgent((a) => this.topRules(a)),
      topDisallowRules: byAgent((a) => this.topRules(a, false)),
      topAllowRules: byAgent((a) => this.topRules(a, true)),
      topCountsExact:
        this.hosts.every((h) => h.dropBound === 0) && this.rules.every((r) => r.dropBound === 0),
      ...(ctx.asOf ? { asOf: this.buildAsOf(ctx.asOf) } : {}),
      ...(this.rowAgents === null ? {} : this.rowAgents.build()),
      timing: {
        wallMs: Math.round(ctx.wallMs),
        readingMs: Math.round(ctx.readingMs),
        fetchingMs: Math.round(ctx.broker.fetchMs),
        matchingMs: Math.round(this.workMs),
        writingMs: Math.round(ctx.writingMs),
      },
      rowsPerSecond: ctx.wallMs > 0 ? Math.round((this.rowsWritten * 1000) / ctx.wallMs) : 0,
    };
  }
}

/**
 * A rule's counter key. With the rule text: versions of one robots.txt (as of a time) hold other rules at
 * the same line. Joined, so the key is one flat string, not a chain of pieces that keeps the message's
 * origin and rule strings alive too. Neither an origin nor a robots.txt line holds a line feed.
 */
export function ruleKey(origin: string, line: number, rule: string): string {
  return [origin, line, rule].join('\n');
}

/** The origin, line and rule a `ruleKey` was made of. */
export function ruleOfKey(key: string): { origin: string; line: number; rule: string } {
  const i = key.indexOf('\n');
  const j = key.indexOf('\n', i + 1);
  return { origin: key.slice(0, i), line: Number(key.slice(i + 1, j)), rule: key.slice(j + 1) };
}

/** What the summary says of an as-of run's settings. */
export interface AsOfContext {
  column?: string;
  time?: number;
  graceSeconds: number;
  maxHistoryAgeSeconds?: number;
}
