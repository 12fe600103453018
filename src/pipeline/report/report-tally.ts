import { ownString } from '../../core/bytes.js';
import { VERDICTS } from '../../workers/verdict-format.js';
import { OverTimeTally } from './over-time-tally.js';
import type {
  Headline,
  OutcomesSection,
  OverTimeSection,
  ReportInput,
  SiteOutcome,
  ViolationsSection,
} from './report-model.js';
import { RuleTally } from './rule-tally.js';
import { decodeLatin1, fastSite, slowSite } from './site-of.js';
import { rowOutcome, SITE_BITS, SiteOutcomes, sortedRecord } from './site-outcomes.js';
import { exampleHash, type Held, TopTally } from './top-tally.js';
import type { AgentColumns, VerdictLayout } from './verdict-columns.js';
import type { RecordSink, RowView } from './verdict-reader.js';

/** Every verdict a row can carry; any other value makes the row a bad one. */
export const KNOWN_VERDICTS: readonly string[] = [...VERDICTS, 'not_a_crawler'];
const VERDICT_INDEX = new Map(KNOWN_VERDICTS.map((v, i) => [v, i]));
const DISALLOWED_EXPLICIT = VERDICT_INDEX.get('disallowed_explicit')!;
const DISALLOWED_UNREACHABLE = VERDICT_INDEX.get('disallowed_unreachable')!;
const NOT_A_CRAWLER = VERDICT_INDEX.get('not_a_crawler')!;
const NO_HISTORY = VERDICT_INDEX.get('no_history')!;

export interface TallyOptions {
  /** Entries kept per top list (the JSON holds them all; merges stay exact while none overflows). */
  capacity: number;
  /** Entries the HTML shows. */
  show: number;
  /** Slots (log2) of the site fingerprints (see SiteOutcomes). */
  siteBits: number;
  /** Distinct agents counted one by one; rows of agents past them are `agentsOverflow`. */
  maxAgents: number;
  /** Days kept in the over-time section. */
  maxDays: number;
  /** `--at-column`, or null. */
  atColumn: string | null;
}

export const TALLY_DEFAULTS: TallyOptions = {
  capacity: 1000,
  show: 20,
  siteBits: SITE_BITS,
  maxAgents: 1000,
  maxDays: 3660,
  atColumn: null,
};

/** What the policy-based sections are given of each row (both optional). */
export interface RowHooks {
  /** Once per row that names a site. */
  site?(site: string): void;
  /** Rows of a changed site, for verdict flips: `wants` once per row, `row` per judged agent. */
  wants?(site: string): boolean;
  /** `rule` and `sha256` (the evidence's robots_sha256) are '' when the file has no such column. */
  row?(
    site: string,
    url: string,
    agent: string,
    verdict: string,
    ruleLine: number,
    rule: string,
    sha256: string,
  ): void;
}

/** Slots of the by-site memo (a power of 2). */
const SITE_MEMO = 8192;

interface AgentEntry {
  /** The agent's name, an own copy (the row's may be a slice of the read chunk). */
  name: string;
  /** The agent's entry in the by-agent list (add again once a prune dropped it). */
  held: Held<{ agent: string }> | null;
  counts: Float64Array;
  violations: number;
  grace: number;
}

type ProblemItem = { site: string; outcome: SiteOutcome; cause: string };

/** The figures of every row read, in bounded memory. One tally takes any number of files. */
export class ReportTally {
  private readonly o: TallyOptions;
  private readonly agents = new Map<string, AgentEntry>();
  private agentsOverflow = 0;
  private rows = 0;
  private badRows = 0;
  private readonly badByReason = new Map<string, number>();
  private notACrawler = 0;
  private total = 0;
  private readonly sites: SiteOutcomes;
  private readonly bySite: TopTally<{ site: string }>;
  private readonly byAgent: TopTally<{ agent: string }>;
  private readonly byRule: RuleTally;
  private readonly problems: TopTally<ProblemItem>;
  private readonly days: OverTimeTally | null;
  private readonly memoSite: string[] = new Array<string>(SITE_MEMO).fill('');
  private readonly memoHeld: (Held<{ site: string }> | undefined)[] = new Array(SITE_MEMO);
  /** robots_sha256 of the row being judged, for the changes hook. */
  private sha256 = '';
  readonly inputs: ReportInput[] = [];

  constructor(
    options: Partial<TallyOptions> = {},
    private readonly hooks: RowHooks = {},
  ) {
    this.o = { ...TALLY_DEFAULTS, ...options };
    this.sites = new SiteOutcomes(this.o.siteBits);
    this.bySite = new TopTally(this.o.capacity);
    this.byAgent = new TopTally(this.o.capacity);
    this.byRule = new RuleTally(this.o.capacity);
    this.problems = new TopTally(this.o.capacity);
    this.days = this.o.atColumn === null ? null : new OverTimeTally(this.o.atColumn, this.o.maxDays);
  }

  /** The sink for the records of one file laid out as `layout`. */
  file(path: string, layout: VerdictLayout): RecordSink {
    const input: ReportInput = {
      path,
      rows: 0,
      badRows: 0,
      mode: layout.mode,
      columnAgents: layout.columnAgents.map(decodeLatin1),
    };
    this.inputs.push(input);
    const verdicts = new Int32Array(layout.agents.length);
    return {
      row: (v) => {
        if (this.row(v, layout, verdicts)) input.rows++;
        else input.badRows++;
      },
      bad: (reason) => {
        this.bad(reason);
        input.badRows++;
      },
    };
  }

  private bad(reason: string): void {
    this.badRows++;
    this.badByReason.set(reason, (this.badByReason.get(reason) ?? 0) + 1);
  }

  /** One record; false when it is a bad row. */
  private row(v: RowView, L: VerdictLayout, verdicts: Int32Array): boolean {
    const cols = L.agents;
    for (let k = 0; k < cols.length; k++) {
      const vi = v.match(cols[k]!.verdict, KNOWN_VERDICTS);
      if (vi < 0) {
        this.bad('unknown_verdict');
        return false;
      }
      verdicts[k] = vi;
    }
    this.rows++;
    const day = L.time >= 0 && this.days !== null ? this.days.row(v.get(L.time)) : null;
    const url = v.get(L.url);
    let site = fastSite(url) ?? slowSite(url, v.get(L.host));
    const status = v.get(L.status);
    if (site !== '') {
      const v0 = verdicts[0]!;
      const errorCode = v0 === NO_HISTORY ? v.get(L.errorCode) : '';
      const o = rowOutcome(KNOWN_VERDICTS[v0]!, status, errorCode, v.get(L.robotsUrl), site);
      site = this.sites.observe(site, o);
      if (o !== null && o.outcome !== 'parsed' && o.outcome !== 'redirect') {
        const e = this.problems.add(`${site}\t${o.outcome}\t${o.cause}`, url, exampleHash(url));
        e.item ??= { site, outcome: o.outcome, cause: ownString(o.cause) };
      }
      this.hooks.site?.(site);
    }
    const flips = site !== '' && this.hooks.wants !== undefined && this.hooks.wants(site);
    if (flips) this.sha256 = v.get(L.sha256);
    if (L.mode === 'row_agent') {
      if (verdicts[0] === NOT_A_CRAWLER) this.notACrawler++;
      else this.judge(v.get(L.agent), cols[0]!, verdicts[0]!, v, site, url, status, day, flips);
    } else {
      for (let k = 0; k < cols.length; k++) {
        this.judge(cols[k]!.agent, cols[k]!, verdicts[k]!, v, site, url, status, day, flips);
      }
    }
    return true;
  }

  /**
   * One violation of `site` in the by-site list. The entries of recent sites are remembered by slot (the
   * site's fingerprint), so a site's rows are counted without a lookup in the list's large map.
   */
  private countSite(site: string, url: string, hash: number): void {
    const t = this.bySite;
    const slot = this.sites.siteHash & (SITE_MEMO - 1);
    const held = this.memoHeld[slot];
    if (held !== undefined && !held.dropped && this.memoSite[slot] === site) {
      t.count(held, url, hash);
      return;
    }
    const e = t.add(site, url, hash);
    e.item ??= { site };
    this.memoSite[slot] = site;
    this.memoHeld[slot] = e;
  }

  private entry(agent: string): AgentEntry | undefined {
    let a = this.agents.get(agent);
    if (a === undefined && this.agents.size < this.o.maxAgents) {
      const name = ownString(agent);
      a = {
        name,
        counts: new Float64Array(KNOWN_VERDICTS.length),
        violations: 0,
        grace: 0,
        held: null,
      };
      this.agents.set(name, a);
    }
    return a;
  }

  private judge(
    rowAgent: string,
    c: AgentColumns,
    vi: number,
    v: RowView,
    site: string,
    url: string,
    robotsStatus: string,
    day: string | null,
    flips: boolean,
  ): void {
    const a = this.entry(rowAgent);
    if (a === undefined) {
      this.agentsOverflow++;
      return;
    }
    const agent = a.name;
    a.counts[vi]!++;
    if (flips) {
      const line = Number(v.get(c.ruleLine)) || 0;
      this.hooks.row?.(site, url, agent, KNOWN_VERDICTS[vi]!, line, v.get(c.rule), this.sha256);
    }
    if (vi !== DISALLOWED_EXPLICIT && vi !== DISALLOWED_UNREACHABLE) return;
    if (v.get(c.grace) === 'true') {
      a.grace++;
      return;
    }
    a.violations++;
    this.total++;
    const hash = exampleHash(url);
    this.countSite(site, url, hash);
    const t = this.byAgent;
    if (a.held !== null && !a.held.dropped) t.count(a.held, url, hash);
    else {
      a.held = t.add(agent, url, hash);
      a.held.item ??= { agent };
    }
    const lineText = v.get(c.ruleLine);
    const rule = v.get(c.rule);
    const status = lineText === '' ? robotsStatus : '';
    this.byRule.add(site, this.sites.siteHash, lineText, rule, status, agent, url, hash);
    if (day !== null) this.days?.violation(day, agent);
  }

  headline(): Headline {
    const agents = [...this.agents.keys()].sort();
    const verdicts: Headline['verdicts'] = {};
    const violations: Record<string, number> = {};
    const grace: Record<string, number> = {};
    for (const name of agents) {
      const a = this.agents.get(name)!;
      const key = decodeLatin1(name);
      const counts: Record<string, number> = {};
      KNOWN_VERDICTS.forEach((verdict, i) => {
        if (a.counts[i]! > 0) counts[verdict] = a.counts[i]!;
      });
      verdicts[key] = counts;
      violations[key] = a.violations;
      grace[key] = a.grace;
    }
    return {
      rows: this.rows,
      badRows: this.badRows,
      badRowsByReason: sortedRecord(this.badByReason),
      sites: this.sites.sites,
      sitesExact: this.sites.exact,
      agents: agents.map(decodeLatin1),
      verdicts,
      notACrawler: this.notACrawler,
      violations,
      grace,
      agentsExact: this.agentsOverflow === 0,
      agentsOverflow: this.agentsOverflow,
    };
  }

  violations(): ViolationsSection {
    const show = this.o.show;
    return {
      total: this.total,
      bySite: this.bySite.toList(show, (e) => e, decodeLatin1),
      byAgent: this.byAgent.toList(show, (e) => ({ agent: decodeLatin1(e.agent) }), decodeLatin1),
      byRule: this.byRule.toList(show),
    };
  }

  outcomes(): OutcomesSection {
    return this.sites.section(
      this.problems.toList(this.o.show, (e) => ({ ...e, cause: decodeLatin1(e.cause) }), decodeLatin1),
    );
  }

  overTime(): OverTimeSection | null {
    return this.days?.section() ?? null;
  }
}
