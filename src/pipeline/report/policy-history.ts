import type Database from 'better-sqlite3';
import { ruleAtLine } from '../../core/group-diff.js';
import { type CompiledRules, compileRobotsTxt } from '../../core/index.js';

/** The cache's history as the changes section reads it: versions around a window, bodies, compiled rules. */

export type StoredOutcome = 'parsed' | 'unavailable' | 'unreachable';

export interface VersionRow {
  origin: string;
  outcome: StoredOutcome;
  status: number | null;
  error_code: string | null;
  sha256: string | null;
  valid_from: number;
}

export interface ChangedSite {
  site: string;
  /** The version in force at the window's start; null when the first version is in the window. */
  before: VersionRow | null;
  /** The latest version first seen by the window's end. */
  after: VersionRow;
  versionsInWindow: number;
  /** Rows of the site in the data. */
  rows: number;
  /** The previous version's rules by agent, compiled on the first row that needs them (bounded). */
  rules?: Map<string, CompiledRules>;
}

/**
 * The sites with a version first seen in [since, until] (epoch ms), at most `max` (in origin order):
 * `exact` is false when there were more.
 */
export function loadChangedSites(
  db: Database.Database,
  since: number,
  until: number,
  max: number,
): { changed: Map<string, ChangedSite>; exact: boolean } {
  const changed = new Map<string, ChangedSite>();
  // Every version up to `until` of each origin with one first seen in the window, oldest first.
  const rows = db
    .prepare(
      `SELECT origin, outcome, status, error_code, sha256, valid_from FROM versions
       WHERE valid_from <= @until AND origin IN
         (SELECT DISTINCT origin FROM versions WHERE valid_from >= @since AND valid_from <= @until)
       ORDER BY origin, valid_from, id`,
    )
    .iterate({ since, until }) as IterableIterator<VersionRow>;
  let cur: ChangedSite | undefined;
  for (const v of rows) {
    if (cur === undefined || cur.site !== v.origin) {
      // Leaving the loop ends the statement's iteration, which releases the read.
      if (changed.size >= max) return { changed, exact: false };
      cur = { site: v.origin, before: null, after: v, versionsInWindow: 0, rows: 0 };
      changed.set(v.origin, cur);
    }
    if (v.valid_from < since) cur.before = v;
    else cur.versionsInWindow++;
    cur.after = v;
  }
  return { changed, exact: true };
}

/** Bodies by sha256, the previous versions' rules compiled within a byte budget, and rule texts by line. */
export class HistoryReader {
  private readonly bodyStmt: Database.Statement;
  /** Compiled rule sets in the order they were made, for eviction. */
  private readonly order: ({ site: ChangedSite; agent: string; bytes: number } | undefined)[] = [];
  private head = 0;
  private bytes = 0;
  private lastRules: { sha: string; body: Uint8Array; byLine: Map<number, string> } | undefined;

  constructor(
    db: Database.Database,
    private readonly maxCompiledBytes: number,
  ) {
    this.bodyStmt = db.prepare('SELECT body FROM bodies WHERE sha256 = ?');
  }

  body(sha256: string | null): Uint8Array {
    if (sha256 === null) return new Uint8Array(0);
    const row = this.bodyStmt.get(sha256) as { body: Buffer } | undefined;
    return row?.body ?? new Uint8Array(0);
  }

  /** The previous version's rules for `agent`, compiled once per site and agent within the budget. */
  previous(c: ChangedSite, agent: string): CompiledRules {
    c.rules ??= new Map();
    let rules = c.rules.get(agent);
    if (rules !== undefined) return rules;
    rules = compileRobotsTxt(this.body(c.before?.sha256 ?? null), [agent])[0]!;
    // Oldest first: rows of a site come spread over the input, so recency says little.
    while (this.bytes + rules.byteSize > this.maxCompiledBytes && this.head < this.order.length) {
      const old = this.order[this.head]!;
      this.order[this.head++] = undefined;
      old.site.rules?.delete(old.agent);
      this.bytes -= old.bytes;
    }
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
    c.rules.set(agent, rules);
    this.order.push({ site: c, agent, bytes: rules.byteSize });
    this.bytes += rules.byteSize;
    return rules;
  }

  /** A line's rule in the current version, for data without rule texts (the last body's lines kept). */
  currentRule(c: ChangedSite, line: number): string {
    const sha = c.after.sha256;
    if (sha === null) return '';
    if (this.lastRules?.sha !== sha) this.lastRules = { sha, body: this.body(sha), byLine: new Map() };
    let rule = this.lastRules.byLine.get(line);
    if (rule === undefined) {
      rule = ruleAtLine(this.lastRules.body, line);
      this.lastRules.byLine.set(line, rule);
    }
    return rule;
  }
}
