import { ownString } from '../../core/bytes.js';
import { VERDICTS } from '../../rows/verdict-format.js';
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
import { decodeLatin1, fastSiteEnd, slowSite } from './site-of.js';
import { type RowOutcome, rowOutcome, SITE_BITS, SiteOutcomes, sortedRecord } from './site-outcomes.js';
import { newSiteState, type SiteState } from './site-table.js';
import { type ExampleSource, type Held, TopTally } from './top-tally.js';
import type { AgentColumns, VerdictLayout } from './verdict-columns.js';
import { NameIndex, type RecordSink, type RowView } from './verdict-reader.js';

/** Every verdict a row can carry; any other value makes the row a bad one. */
export const KNOWN_VERDICTS: readonly string[] = [...VERDICTS, 'not_a_crawler'];
const VERDICT_INDEX = new Map(KNOWN_VERDICTS.map((v, i) => [v, i]));
const VERDICT_NAMES = new NameIndex(KNOWN_VERDICTS);
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
export class ReportTally implements ExampleSource {
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
  /** The state rows without a site count under (site ''), kept out of the site table. */
  private readonly noSite = newSiteState('', 0, 0);
  /** The row being read, its URL column, and its URL and URL hash once read (-1: not yet). */
  private view: RowView | null = null;
  private urlColumn = -1;
  private url: string | null = null;
  private urlHash = -1;
  /** The robots_status of the last row that had a site. */
  private status = '';
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
      const vi = v.matchIndexed(cols[k]!.verdict, VERDICT_NAMES);
      if (vi < 0) {
        this.bad('unknown_verdict');
        return false;
      }
      verdicts[k] = vi;
    }
    this.rows++;
    this.view = v;
    this.urlColumn = L.url;
    this.url = null;
    this.urlHash = -1;
    const day = L.time >= 0 && this.days !== null ? this.days.row(v.get(L.time)) : null;
    const state = this.siteState(v, L);
    if (state !== this.noSite) {
      const v0 = verdicts[0]!;
      const errorCode = v0 === NO_HISTORY ? v.get(L.errorCode) : '';
      // Most rows repeat the last status: compared in place, not copied.
      if (!v.equals(L.status, this.status)) this.status = ownString(v.get(L.status));
      const o = rowOutcome(KNOWN_VERDICTS[v0]!, this.status, errorCode, v.get(L.robotsUrl), state.site);
      this.sites.outcome(state, o);
      if (o !== null && o.outcome !== 'parsed' && o.outcome !== 'redirect') this.problem(state, o);
      this.hooks.site?.(state.site);
    }
    const flips = state !== this.noSite && this.hooks.wants !== undefined && this.hooks.wants(state.site);
    if (flips) this.sha256 = v.get(L.sha256);
    if (L.mode === 'row_agent') {
      if (verdicts[0] === NOT_A_CRAWLER) this.notACrawler++;
      else this.judge(v.get(L.agent), cols[0]!, verdicts[0]!, v, L, state, day, flips);
    } else {
      for (let k = 0; k < cols.length; k++) {
        this.judge(cols[k]!.agent, cols[k]!, verdicts[k]!, v, L, state, day, flips);
      }
    }
    return true;
  }

  /** The row's site: the common URL shape is hashed in place, anything else goes through the URL rules. */
  private siteState(v: RowView, L: VerdictLayout): SiteState {
    if (v.fields === null && L.url >= 0) {
      const start = v.starts[L.url]!;
      const end = fastSiteEnd(v.text, start, v.ends[L.url]!);
      if (end >= 0) return this.sites.state(v.text, start, end);
    }
    const url = v.get(L.url);
    const end = fastSiteEnd(url, 0, url.length);
    if (end >= 0) return this.sites.state(url, 0, end);
    const site = slowSite(url, v.get(L.host));
    return site === '' ? this.noSite : this.sites.state(site, 0, site.length);
  }

  /** The row's URL, read once per row and only when needed (ExampleSource). */
  example(): string {
    this.url ??= this.view!.get(this.urlColumn);
    return this.url;
  }

  private hashOfUrl(): number {
    if (this.urlHash < 0) this.urlHash = this.view!.hash(this.urlColumn);
    return this.urlHash;
  }

  /** A row whose site's robots.txt was not parsed: one more in the site's problem entry. */
  private problem(state: SiteState, o: RowOutcome): void {
    const e = state.problem as Held<ProblemItem> | null;
    if (e !== null && !e.dropped && state.problemKey === o.key) {
      this.problems.countHash(e, this.hashOfUrl(), this);
      return;
    }
    const added = this.problems.addHash(`${state.site}\t${o.outcome}\t${o.cause}`, this.hashOfUrl(), this);
    added.item ??= { site: state.site, outcome: o.outcome, cause: ownString(o.cause) };
    state.problem = added;
    state.problemKey = o.key;
  }

  /** One violation at the row's site in the by-site list, through the site's remembered entry. */
  private countSite(state: SiteState, hash: number): void {
    const held = state.bySite;
    if (held !== null && !held.dropped) {
      this.bySite.countHash(held, hash, this);
      return;
    }
    const e = this.bySite.addHash(state.site, hash, this);
    e.item ??= { site: state.site };
    state.bySite = e;
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
    L: VerdictLayout,
    state: SiteState,
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
      const url = this.example();
      this.hooks.row?.(state.site, url, agent, KNOWN_VERDICTS[vi]!, line, v.get(c.rule), this.sha256);
    }
    if (vi !== DISALLOWED_EXPLICIT && vi !== DISALLOWED_UNREACHABLE) return;
    if (v.equals(c.grace, 'true')) {
      a.grace++;
      return;
    }
    a.violations++;
    this.total++;
    const hash = this.hashOfUrl();
    this.countSite(state, hash);
    const t = this.byAgent;
    if (a.held !== null && !a.held.dropped) t.countHash(a.held, hash, this);
    else {
      a.held = t.addHash(agent, hash, this);
      a.held.item ??= { agent };
    }
    this.byRule.add(state, v, c.ruleLine, c.rule, L.status, agent, hash, this);
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
