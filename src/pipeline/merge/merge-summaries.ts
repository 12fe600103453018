import { isDeepStrictEqual } from 'node:util';
import { RobotsAuditError } from '../../core/errors.js';
import type { AsOfSummary, ClassifySummary, RuleCount } from '../figures/summary.js';

/**
 * `robots-audit merge` of `--summary` files: the summaries of the shards of one host-sharded run become
 * the summary the unsharded run would have written (timing, threads, rowsPerSecond and paths aside).
 */

/** Which shard of how many a run judged, and how rows were given to shards. */
export interface ShardInfo {
  index: number;
  count: number;
  key: string;
}

/** Summaries written before the split top lists have only `topRules`. */
type SplitTops = 'topDisallowRules' | 'topAllowRules';

export type ShardSummary = Omit<ClassifySummary, SplitTops> &
  Partial<Pick<ClassifySummary, SplitTops>> & { shard?: ShardInfo | null; mergedShards?: number };

export interface SummaryFile {
  file: string;
  summary: ShardSummary;
}

/** The length of the summary's top lists (summary.ts cuts them to the same). */
const TOP = 10;
/** The number of invalidExamples a summary keeps. */
const MAX_EXAMPLES = 20;

/** Fields merged by rule below; any other field is kept when every shard has the same value. */
const MERGED = new Set([
  'asOf',
  'input',
  'output',
  'agents',
  'threads',
  'recordsRead',
  'rowsWritten',
  'blankLines',
  'invalidRows',
  'invalidByCode',
  'invalidExamples',
  'hostMismatch',
  'verdicts',
  'origins',
  'topDisallowedHosts',
  'topRules',
  'topDisallowRules',
  'topAllowRules',
  'topCountsExact',
  'timing',
  'rowsPerSecond',
  'shard',
  'mergedShards',
]);

function usage(message: string): RobotsAuditError {
  return new RobotsAuditError('ERR_USAGE', message);
}

const shardName = (s: ShardInfo) => `${s.index}/${s.count}`;

/** A shard field is absent or null (an unsharded run), or names a shard within its count. */
function shardOf(f: SummaryFile): ShardInfo | null {
  const s = f.summary.shard;
  if (s === undefined || s === null) return null;
  const ok =
    Number.isSafeInteger(s.index) && Number.isSafeInteger(s.count) && s.index >= 1 && s.index <= s.count;
  if (!ok) {
    throw new RobotsAuditError(
      'ERR_INPUT',
      `${f.file}: "shard" is not {index, count} with 1 ≤ index ≤ count`,
      {
        path: f.file,
      },
    );
  }
  return s;
}

/** Refuses a set of summaries that are not every shard of one run, exactly once each. */
export function checkShardSet(files: readonly SummaryFile[]): void {
  const [first] = files;
  if (first === undefined) throw usage('Give at least one file to merge');
  for (const f of files) {
    if (!isDeepStrictEqual(f.summary.agents, first.summary.agents)) {
      throw usage(
        `${f.file} judges ${f.summary.agents.join(', ')} but ${first.file} judges ${first.summary.agents.join(', ')}: the shards of one run judge the same agents`,
      );
    }
  }
  const shards = files.map(shardOf);
  const unsharded = shards.indexOf(null);
  if (unsharded >= 0) {
    if (files.length === 1) return;
    throw usage(
      `${files[unsharded]!.file} is the summary of an unsharded run (shard null): it merges with nothing but itself`,
    );
  }
  const count = shards[0]!.count;
  const byIndex = new Map<number, string>();
  files.forEach((f, i) => {
    const s = shards[i]!;
    if (s.count !== count) {
      throw usage(
        `${f.file} is shard ${shardName(s)} but ${first.file} is shard ${shardName(shards[0]!)}: the shard counts differ`,
      );
    }
    if (s.key !== shards[0]!.key) {
      throw usage(`${f.file} gives rows to shards by "${s.key}" but ${first.file} by "${shards[0]!.key}"`);
    }
    const seen = byIndex.get(s.index);
    if (seen !== undefined) throw usage(`shard ${shardName(s)} is given twice: ${seen} and ${f.file}`);
    byIndex.set(s.index, f.file);
  });
  const missing: string[] = [];
  for (let k = 1; k <= count; k++) if (!byIndex.has(k)) missing.push(`${k}/${count}`);
  if (missing.length > 0) throw usage(`missing shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** Adds every count of `from` into `into`, key by key (new keys keep their first-seen order). */
function addCounts(into: Record<string, number>, from: Record<string, number> | undefined): void {
  for (const [k, n] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + n;
}

function sumCounts(maps: (Record<string, number> | undefined)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of maps) addCounts(out, m);
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted as TopCounter sorts: most rows first, ties by key; cut to TOP. */
function mergeTop<T extends { rows: number }>(lists: T[][], key: (t: T) => string): T[] {
  const merged = new Map<string, T>();
  for (const list of lists) {
    for (const t of list) {
      const k = key(t);
      const e = merged.get(k);
      merged.set(k, e === undefined ? { ...t } : { ...e, rows: e.rows + t.rows });
    }
  }
  return [...merged.entries()]
    .sort((a, b) => b[1].rows - a[1].rows || byKey(a[0], b[0]))
    .slice(0, TOP)
    .map(([, t]) => t);
}

/** Per agent, the union of the shards' rule lists. */
function mergeRules(agents: string[], lists: Record<string, RuleCount[]>[]): Record<string, RuleCount[]> {
  // With the rule text, as the summary keys them: as of a time, versions hold other rules at one line.
  return perAgent(agents, (a) =>
    mergeTop(
      lists.map((l) => l[a] ?? []),
      (t) => `${t.origin}\n${t.line}\n${t.rule}`,
    ),
  );
}

/** The allow and disallow rule lists, when every shard has them (older summaries do not). */
function splitTops(agents: string[], list: ShardSummary[]): Partial<Pick<ClassifySummary, SplitTops>> {
  const out: Partial<Pick<ClassifySummary, SplitTops>> = {};
  for (const field of ['topDisallowRules', 'topAllowRules'] as const) {
    const lists = list.map((s) => s[field]);
    if (lists.every((l) => l !== undefined)) out[field] = mergeRules(agents, lists);
  }
  return out;
}

/** One value when every shard has the same, else each shard's in shard order. */
function common(values: string[]): string {
  return values.every((v) => v === values[0]) ? values[0]! : values.join(', ');
}

function perAgent<T>(agents: string[], f: (agent: string) => T): Record<string, T> {
  return Object.fromEntries(agents.map((a) => [a, f(a)]));
}

/** As of a time: the settings (the same in every shard) and the counters, added up. */
function mergeAsOf(list: (AsOfSummary | undefined)[]): AsOfSummary {
  const first = list[0]!;
  return {
    ...first,
    rowsJudged: sum(list.map((a) => a?.rowsJudged ?? 0)),
    noHistory: sumCounts(list.map((a) => a?.noHistory)),
    versionAge: sumCounts(list.map((a) => a?.versionAge)),
    grace: sumCounts(list.map((a) => a?.grace)),
  };
}

/** Every field no rule above names, kept when all shards agree on it. */
function agreedExtras(list: ShardSummary[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(list[0]!)) {
    if (MERGED.has(k)) continue;
    if (list.every((s) => isDeepStrictEqual((s as unknown as Record<string, unknown>)[k], v))) out[k] = v;
  }
  return out;
}

/**
 * Merges the summaries of every shard of one run (checked by checkShardSet). Counters add up; since each
 * origin lives in one shard, the top lists are exact whenever every shard's are.
 */
export function mergeSummaries(files: readonly SummaryFile[]): ShardSummary {
  checkShardSet(files);
  const ordered = [...files].sort((a, b) => (a.summary.shard?.index ?? 0) - (b.summary.shard?.index ?? 0));
  const list = ordered.map((f) => f.summary);
  const first = list[0]!;
  const agents = first.agents;
  const recordsRead = sum(list.map((s) => s.recordsRead));
  const wallMs = Math.max(...list.map((s) => s.timing.wallMs));
  const unreachableBy = Object.fromEntries(
    Object.entries(sumCounts(list.map((s) => s.origins.unreachableBy))).sort(
      (a, b) => b[1] - a[1] || byKey(a[0], b[0]),
    ),
  );
  return {
    input: common(list.map((s) => s.input)),
    output: common(list.map((s) => s.output)),
    agents,
    threads: sum(list.map((s) => s.threads)),
    recordsRead,
    rowsWritten: sum(list.map((s) => s.rowsWritten)),
    blankLines: sum(list.map((s) => s.blankLines)),
    invalidRows: sum(list.map((s) => s.invalidRows)),
    invalidByCode: Object.fromEntries(
      Object.entries(sumCounts(list.map((s) => s.invalidByCode))).sort((a, b) => byKey(a[0], b[0])),
    ),
    invalidExamples: list
      .flatMap((s) => s.invalidExamples)
      .sort((a, b) => a.record - b.record)
      .slice(0, MAX_EXAMPLES),
    hostMismatch: sum(list.map((s) => s.hostMismatch)),
    verdicts: perAgent(agents, (a) => sumCounts(list.map((s) => s.verdicts[a]))),
    origins: {
      resolved: sum(list.map((s) => s.origins.resolved)),
      compiled: sum(list.map((s) => s.origins.compiled)),
      byOutcome: sumCounts(list.map((s) => s.origins.byOutcome)),
      bySource: sumCounts(list.map((s) => s.origins.bySource)),
      failures: sumCounts(list.map((s) => s.origins.failures)),
      unreachableBy,
    },
    topDisallowedHosts: perAgent(agents, (a) =>
      mergeTop(
        list.map((s) => s.topDisallowedHosts[a] ?? []),
        (t) => t.origin,
      ),
    ),
    topRules: mergeRules(
      agents,
      list.map((s) => s.topRules),
    ),
    ...splitTops(agents, list),
    topCountsExact: list.every((s) => s.topCountsExact),
    timing: {
      wallMs,
      readingMs: sum(list.map((s) => s.timing.readingMs)),
      fetchingMs: sum(list.map((s) => s.timing.fetchingMs)),
      matchingMs: sum(list.map((s) => s.timing.matchingMs)),
      writingMs: sum(list.map((s) => s.timing.writingMs)),
    },
    rowsPerSecond: wallMs > 0 ? Math.round((recordsRead * 1000) / wallMs) : 0,
    ...(first.asOf ? { asOf: mergeAsOf(list.map((s) => s.asOf)) } : {}),
    ...agreedExtras(list),
    shard: null,
    mergedShards: list.length === 1 ? (first.mergedShards ?? 1) : list.length,
  };
}

/** The fields a JSON file must have to be read as a classify summary. */
const REQUIRED: ReadonlyArray<[string, string]> = [
  ['agents', 'object'],
  ['recordsRead', 'number'],
  ['rowsWritten', 'number'],
  ['verdicts', 'object'],
  ['origins', 'object'],
  ['timing', 'object'],
  ['invalidExamples', 'object'],
];

/** Parses a summary file's text, refusing JSON that is not a classify summary. */
export function parseSummary(file: string, text: string): SummaryFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RobotsAuditError('ERR_INPUT', `${file} is not valid JSON: ${(err as Error).message}`, {
      path: file,
    });
  }
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const lacking = REQUIRED.filter(([k, t]) => typeof o[k] !== t || o[k] === null).map(([k]) => k);
  if (lacking.length > 0 || !Array.isArray(o.agents)) {
    throw new RobotsAuditError(
      'ERR_INPUT',
      `${file} is not a classify --summary file (it has no ${(lacking.length ? lacking : ['agents']).join(', ')})`,
      { path: file },
    );
  }
  return { file, summary: o as unknown as ShardSummary };
}
