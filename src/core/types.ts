/** How a check was decided. */
export type Verdict = 'allowed_explicit' | 'allowed_implicit' | 'disallowed_explicit';

/** The answer for one URL and one agent. */
export interface Decision {
  allowed: boolean;
  verdict: Verdict;
  /** 1-based line of the deciding rule, 0 if none decided. */
  line: number;
  /** That line's rule (e.g. `Disallow: /private`), '' if none. */
  rule: string;
}

/** A rule that can decide a check: what `CompiledRules.decide` indexes into. */
export interface RuleInfo {
  allowed: boolean;
  line: number;
  rule: string;
}

/** A record other than User-agent/Allow/Disallow/Sitemap (Crawl-delay, Host, Clean-param, unknown keys …). */
export interface RobotsRecord {
  line: number;
  /** The key as written, trimmed. */
  key: string;
  value: string;
}

/** Rules compiled once for one agent: the fast path the pipeline uses for millions of checks. */
export interface CompiledRules {
  /** The product token the rules were compiled for (after dropping any `/version`). */
  readonly agent: string;
  /** How many rules can decide: `decide` returns a rank in [0, count) or -1. */
  readonly count: number;
  /**
   * Every rule that can decide, indexed by rank. Made on first access (the compiled form keeps rules
   * packed): hot paths use `allowedAt`, `lineAt` and `ruleAt` instead.
   */
  readonly rules: readonly RuleInfo[];
  /** Estimated bytes this compiled form retains (for caches that hold many). */
  readonly byteSize: number;
  /**
   * Decides a path+query (as `pathFromUrl` returns it). Returns the rank of the deciding rule, or -1
   * when no rule decides (allowed_implicit). Never allocates.
   */
  decide(pathAndQuery: string): number;
  /** `decide` on an absolute URL or a path; never allocates when the URL's path needs no rewriting. */
  decideUrl(url: string): number;
  /**
   * Whether the rule of `rank` (from `decide`) allows: an Allow rule, or the empty rule (`Disallow:`,
   * always the last rank) that decides when no pattern matches.
   */
  allowedAt(rank: number): boolean;
  /** 1-based line of the rule of `rank`. */
  lineAt(rank: number): number;
  /** Text of the rule of `rank` (e.g. `Disallow: /private`); a new string per call. */
  ruleAt(rank: number): string;
  /** `decide` wrapped in a Decision. */
  checkPath(pathAndQuery: string): Decision;
  /** Accepts an absolute URL or a path. */
  check(url: string): Decision;
}

/** A parsed robots.txt. Parsing is total: it never throws on any input. */
export interface RobotsTxt {
  /**
   * Accepts an absolute URL (http/https, any port) or a path (`/a?b`). An agent's first checks scan its
   * parsed rules; once that scanning has cost about what compiling costs, the agent is compiled. The
   * Decision is the same either way.
   */
  check(url: string, agent: string): Decision;
  /** Crawl-delay in seconds for the agent's group(s), or undefined. */
  crawlDelay(agent: string): number | undefined;
  /** Sitemap URLs in file order (global, whatever group they appear in). */
  readonly sitemaps: string[];
  /** Other records with their line numbers. */
  readonly records: readonly RobotsRecord[];
  /** Compiles the rules that apply to `agent`. Cache the result; compiling is not free. */
  compile(agent: string): CompiledRules;
}
