import { type CompiledRules, resolveCrawler } from '../core/index.js';
import { quoteField } from '../rows/csv-quote.js';
import {
  agentPart,
  GRACE_CLASS,
  graceCell,
  ROW_AGENT_VERDICTS,
  V_ALLOWED_EXPLICIT,
  V_ALLOWED_IMPLICIT,
  V_ALLOWED_UNAVAILABLE,
  V_DISALLOWED_EXPLICIT,
  V_DISALLOWED_UNREACHABLE,
  V_INVALID_INPUT,
  V_NOT_A_CRAWLER,
} from '../rows/verdict-format.js';
import type { CompiledSlot } from './compiled-rules.js';
import { earlierWithinGrace, type History, versionAt } from './history.js';
import type { OriginEntry } from './origin-entry.js';
import { OTHER_TOKEN, type RowAgentStats, type WorkerConfig } from './protocol.js';
import { bytesText } from './verdict-texts.js';

/**
 * Verdict texts of ranks below this are cached per compiled rule set; higher ones are formatted per row.
 * Not verdict-texts.ts' 64: a set per crawler and body here, and on 1M rows with four crawlers in the
 * agent column 64 saved no measurable CPU (30.1–32.7 s against 29.1–36.5) for 3–6 MiB more peak RSS.
 */
const NEAR_RANKS = 16;
/** Distinct agent cells remembered (an access log repeats a few hundred User-Agent headers). */
const MAX_CELLS = 4096;
/** Distinct tokens with their own counters per batch; the rest are counted under OTHER_TOKEN. */
const MAX_TOKENS = 1000;

/** The crawler a row was judged for. */
export interface RowAgent {
  readonly token: string;
  readonly known: boolean;
  /** `,token` as written to the `agent` column. */
  readonly cell: string;
  /** The rule set last used for it, and the slot it came from: rows of one origin come in runs. */
  lastSlot: CompiledSlot | null;
  lastRules: CompiledRules | null;
}

/**
 * `classify --agent-column`: each row judged for the crawler its agent cell names, under rules compiled
 * on demand from the body's parsed form (kept by the compiled slot), with that row's verdict columns.
 */
export class RowAgents {
  private readonly cells = new Map<string, RowAgent | null>();
  private readonly byToken = new Map<string, RowAgent>();
  private readonly texts = new WeakMap<CompiledRules, string[]>();
  private readonly plain: string[] = [];
  private readonly d: string;
  private readonly asOf: boolean;
  private counts = new Map<RowAgent | null, number[]>();
  private unread = 0;
  /** `,` (empty agent) then the `not_a_crawler` columns. */
  readonly notACrawlerText: string;

  constructor(private readonly config: WorkerConfig) {
    this.d = config.delimiter;
    this.asOf = config.asOf != null;
    const d = this.d;
    this.notACrawlerText = `${d}${d}${d}${ROW_AGENT_VERDICTS[V_NOT_A_CRAWLER]}${d}${d}${this.asOf ? d : ''}`;
  }

  /** The crawler an agent cell (latin1 text of its bytes) names, or null when it is not a crawler's. */
  resolve(cell: string): RowAgent | null {
    const known = this.cells.get(cell);
    if (known !== undefined) return known;
    const value = /[^\x00-\x7f]/.test(cell) ? Buffer.from(cell, 'latin1').toString('utf8') : cell;
    const r = resolveCrawler(value);
    let agent: RowAgent | null = null;
    if (r.token !== null) {
      agent = this.byToken.get(r.token) ?? null;
      if (agent === null) {
        agent = {
          token: r.token,
          known: r.known,
          cell: this.d + bytesText(quoteField(r.token, this.d)),
          lastSlot: null,
          lastRules: null,
        };
        if (this.byToken.size < MAX_CELLS) this.byToken.set(r.token, agent);
      }
    }
    if (this.cells.size >= MAX_CELLS) this.cells.clear();
    this.cells.set(cell, agent);
    return agent;
  }

  /** The row agent's rules in a parsed body. */
  private rules(slot: CompiledSlot, agent: RowAgent): CompiledRules {
    if (agent.lastSlot === slot && agent.lastRules !== null) return agent.lastRules;
    const rules = slot.parsed!.compile(agent.token);
    agent.lastSlot = slot;
    agent.lastRules = rules;
    return rules;
  }

  /** Whether the row agent may fetch `path` under a version's entry (a fixed verdict or its rules). */
  private allows(e: OriginEntry, agent: RowAgent, path: string): boolean {
    if (e.fixedVerdict >= 0) return e.fixedVerdict === V_ALLOWED_UNAVAILABLE;
    const r = this.rules(e.slot!, agent);
    const idx = r.decide(path);
    return idx < 0 || r.allowedAt(idx);
  }

  /** As of a time: a version in force within the grace before `t` allowed the row agent (see history.ts). */
  private inGrace(h: History, t: number, agent: RowAgent, path: string): boolean {
    const v = versionAt(h, t);
    // A version whose parsed body was evicted cannot compile the row agent's rules: it allows nothing here.
    const graceMs = this.config.asOf!.graceMs;
    for (let u = earlierWithinGrace(h, v, t, graceMs); u >= 0; u = earlierWithinGrace(h, u, t, graceMs)) {
      const e = h.versions[u]!;
      if ((e.slot === null || e.slot.parsed !== null) && this.allows(e, agent, path)) return true;
    }
    return false;
  }

  private plainText(verdict: number): string {
    let s = this.plain[verdict];
    if (s === undefined) {
      const d = this.d;
      s = bytesText(d + agentPart(verdict, 0, '', d) + (this.asOf ? graceCell(verdict, d) : ''));
      this.plain[verdict] = s;
    }
    return s;
  }

  private ruleText(r: CompiledRules, idx: number, verdict: number): string {
    const d = this.d;
    const format = () =>
      bytesText(
        d + agentPart(verdict, r.lineAt(idx), r.ruleAt(idx), d) + (this.asOf ? graceCell(verdict, d) : ''),
      );
    if (idx >= NEAR_RANKS) return format();
    let cached = this.texts.get(r);
    if (cached === undefined) {
      cached = [];
      this.texts.set(r, cached);
    }
    let text = cached[idx];
    if (text === undefined) {
      text = format();
      cached[idx] = text;
    }
    return text;
  }

  private count(agent: RowAgent | null, verdict: number): void {
    let c = this.counts.get(agent);
    if (c === undefined) {
      c = new Array<number>(ROW_AGENT_VERDICTS.length).fill(0);
      this.counts.set(agent, c);
    }
    c[verdict]!++;
  }

  /** The `agent` column and the row agent's columns of an invalid row (undefined: its cell was not read). */
  invalidText(agent: RowAgent | null | undefined): string {
    if (agent === undefined) {
      this.unread++;
      return this.d + this.plainText(V_INVALID_INPUT);
    }
    if (agent === null) {
      this.count(null, V_NOT_A_CRAWLER);
      return this.notACrawlerText;
    }
    this.count(agent, V_INVALID_INPUT);
    return agent.cell + this.plainText(V_INVALID_INPUT);
  }

  /** The `agent` column and the row agent's columns of a row of a known origin. */
  judgedText(e: OriginEntry, path: string, agent: RowAgent | null | undefined, time: number): string {
    if (agent === undefined || agent === null) return this.invalidText(agent);
    let verdict: number;
    let text: string;
    if (e.fixedVerdict >= 0) {
      verdict = e.fixedVerdict;
      text = this.plainText(verdict);
    } else {
      const r = this.rules(e.slot!, agent);
      const idx = r.decide(path);
      verdict = idx < 0 ? V_ALLOWED_IMPLICIT : r.allowedAt(idx) ? V_ALLOWED_EXPLICIT : V_DISALLOWED_EXPLICIT;
      text = idx < 0 ? this.plainText(verdict) : this.ruleText(r, idx, verdict);
    }
    const disallowed = verdict === V_DISALLOWED_EXPLICIT || verdict === V_DISALLOWED_UNREACHABLE;
    if (disallowed && e.version >= 0 && this.inGrace(e.history!, time, agent, path)) {
      // A disallowed row's columns end with its `grace` cell, `false`.
      text = `${text.slice(0, text.length - 5)}true`;
      verdict |= GRACE_CLASS;
    }
    this.count(agent, verdict & ~GRACE_CLASS);
    return agent.cell + text;
  }

  /** The counts since the last call (a batch's), bounded in tokens. */
  collect(): RowAgentStats {
    const tokens: [string, boolean, number[]][] = [];
    let other: number[] | null = null;
    for (const [agent, c] of this.counts) {
      if (agent !== null && tokens.length < MAX_TOKENS) tokens.push([agent.token, agent.known, c]);
      else if (agent === null) tokens.push(['', false, c]);
      else {
        other ??= new Array<number>(c.length).fill(0);
        for (let v = 0; v < c.length; v++) other[v]! += c[v]!;
      }
    }
    if (other !== null) tokens.push([OTHER_TOKEN, false, other]);
    const out = { tokens, unread: this.unread };
    this.counts = new Map();
    this.unread = 0;
    return out;
  }
}
