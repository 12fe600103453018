// The pure robots.txt engine (no I/O): parse once, compile per agent, check millions of paths.

export { normalizeAgent } from './agent.js';
export {
  CRAWLER_PURPOSES,
  type CrawlerInfo,
  type CrawlerPurpose,
  crawlerInfo,
  MAJOR_CRAWLERS,
  type ResolvedCrawler,
  resolveCrawler,
} from './crawler-registry.js';
export { compileRobotsTxt, compileVersions, parseRobotsTxt, sameGroups } from './robots-txt.js';
export type { CompiledRules, Decision, RobotsRecord, RobotsTxt, RuleInfo, Verdict } from './types.js';
export { pathFromUrl } from './url-path.js';
