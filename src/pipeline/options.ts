import { normalizeAgent } from '../core/agent.js';
import { resolveCrawler } from '../core/crawler-registry.js';
import { RobotsAuditError } from '../core/errors.js';
import { parseTime, TIME_FORMATS, type TimeFormat } from '../rows/row-time.js';
import type { Shard } from '../rows/shard.js';
import {
  type ClassifyOptions,
  COMMAND_OPTIONS,
  type Command,
  type CommandOptions,
  commandsTaking,
} from './command-options.js';
import { parseDuration } from './duration.js';
import { checkLineMode, columnList } from './input/line-mode.js';
import { invalidOption, optionNotFor, optionsClash, unknownOption } from './option-error.js';
import { parseShard } from './shard-option.js';

/** RFC 9309 §2.5: a crawler must parse at least 500 KiB. */
export const MIN_MAX_BODY_BYTES = 500 * 1024;
/** RFC 9309 §2.4: a cached copy may be used for at most 24 hours (unless the origin is unreachable). */
export const MAX_MAX_AGE_SECONDS = 24 * 60 * 60;

/** Every option of the CLI and the library, one spelling each, with its default. */
export interface Options {
  /** Crawler product tokens to judge (`--agent`, repeatable). */
  agents: string[];
  /** Column naming each row's crawler, a User-Agent header or a product token (`--agent-column`). */
  agentColumn: string | undefined;
  /**
   * Threads for matching (`--threads`). Not given: one per available core, but only as many as the
   * input file pays for (see `threadsFor`).
   */
  threads: number | undefined;
  /** SQLite policy cache file (`--cache`). */
  cache: string;
  /** Freshness of a cached policy in seconds (`--max-age`), at most 24 h. */
  maxAge: number;
  /** Per-request time limit in seconds covering connect, headers and body (`--timeout`). */
  timeout: number;
  /** Fetches in flight at once (`--concurrency`). */
  concurrency: number;
  /** Retries after a 429/5xx or network failure (`--retries`). */
  retries: number;
  /** Longest Retry-After honoured, in seconds (`--max-retry-after`). */
  maxRetryAfter: number;
  /** Bytes of a robots.txt body kept (`--max-body`), never less than 500 KiB. */
  maxBody: number;
  /** HTTP User-Agent header sent with every fetch (`--http-user-agent`). */
  httpUserAgent: string;
  /** HOST=ADDRESS pins (`--resolve`, repeatable; `*` as HOST matches every host). */
  resolve: string[];
  /** Allow connecting to loopback, private, link-local and metadata addresses (`--allow-private`). */
  allowPrivate: boolean;
  /** PEM file of extra trusted CAs (`--ca-file`). */
  caFile: string | undefined;
  /** HTTP(S) proxy URL (`--proxy`); defaults to the usual environment variables. */
  proxy: string | undefined;
  /** Use the cache only, never fetch (`--offline`). */
  offline: boolean;
  /** Read `DIR/<host>.txt` instead of fetching (`--robots-dir`). */
  robotsDir: string | undefined;
  /** Field delimiter of the input CSV (`--delimiter`). */
  delimiter: string;
  /** Column holding the URL (`--url-column`). */
  urlColumn: string;
  /** Column holding the host (`--host-column`); optional in the input. */
  hostColumn: string;
  /** The input starts with a header row (`--no-header` sets false: line mode, with `columns`). */
  header: boolean;
  /** Names of the input's columns when it has no header row (`--columns host,url`). */
  columns: string[] | undefined;
  /** Scheme for path-only URLs (`--scheme`). */
  scheme: 'http' | 'https';
  /** Output file, or `-` for stdout (`-o`/`--output`). */
  output: string;
  /** Add evidence columns (`--evidence`). */
  evidence: boolean;
  /** Keep only the rows whose host is in shard K of N (`--shard K/N`; the CLI also reads array-job variables). */
  shard: Shard | undefined;
  /** Start each output row with its 1-based record number in the whole input (`--row-number`). */
  rowNumber: boolean;
  /** As of a time: judge each row as of the time in this column (`--at-column`), from the cache's history. */
  atColumn: string | undefined;
  /** As of a time: judge every row as of this time, epoch ms (`--as-of`; any form `--at-column` reads). */
  asOf: number | undefined;
  /** How the time column's numbers are read (`--time-format`): by magnitude, or forced. */
  timeFormat: TimeFormat;
  /** Seconds a version stays usable after it was replaced, RFC 9309's cache allowance (`--grace`). */
  grace: number;
  /** Seconds after which a version last seen before the row's time is no evidence (`--max-history-age`). */
  maxHistoryAge: number | undefined;
  /** Write the summary as JSON to this file (`--summary`). */
  summary: string | undefined;
  /** Show the progress line even when stderr is not a terminal (`--progress`). */
  progress: boolean;
  /** No progress line and no human summary (`--quiet`). */
  quiet: boolean;
  /** `cache prune`: remove what was last confirmed more than this many days ago (`--older-than`). */
  olderThan: number | undefined;
  /** `cache stats|show`: print JSON instead of text (`--json`). */
  json: boolean;
}

export const DEFAULTS: Readonly<Options> = Object.freeze({
  agents: [],
  agentColumn: undefined,
  threads: undefined,
  cache: '.robots-audit-cache.sqlite',
  maxAge: MAX_MAX_AGE_SECONDS,
  timeout: 15,
  concurrency: 256,
  retries: 2,
  maxRetryAfter: 30,
  maxBody: MIN_MAX_BODY_BYTES,
  httpUserAgent: 'robots-audit/0.1 (robots.txt compliance audit)',
  resolve: [],
  allowPrivate: false,
  caFile: undefined,
  proxy: undefined,
  offline: false,
  robotsDir: undefined,
  delimiter: ',',
  urlColumn: 'url',
  hostColumn: 'host',
  header: true,
  columns: undefined,
  scheme: 'https',
  output: '-',
  evidence: false,
  shard: undefined,
  rowNumber: false,
  atColumn: undefined,
  asOf: undefined,
  timeFormat: 'auto',
  grace: MAX_MAX_AGE_SECONDS,
  maxHistoryAge: undefined,
  summary: undefined,
  progress: false,
  quiet: false,
  olderThan: undefined,
  json: false,
});

const invalid = invalidOption;

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

function integer(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = toNumber(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw invalid(name, `an integer ${range}`, value);
  }
  return n;
}

function positiveNumber(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  const n = toNumber(value);
  if (!Number.isFinite(n) || n <= 0 || n > max) {
    throw invalid(
      name,
      max === Number.MAX_SAFE_INTEGER ? 'a number > 0' : `a number > 0 and ≤ ${max}`,
      value,
    );
  }
  return n;
}

function boolean(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(name, 'true or false', value);
}

function text(name: string, value: unknown, allowEmpty = false): string {
  if (typeof value !== 'string' || (!allowEmpty && value === '')) {
    throw invalid(name, allowEmpty ? 'a string' : 'a non-empty string', value);
  }
  return value;
}

function optionalText(name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : text(name, value);
}

function textList(name: string, value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => text(name, v));
}

/** The longest part of a rejected User-Agent header quoted in the message. */
const QUOTED_HEADER_CHARS = 40;

/**
 * `/version` suffixes are dropped (`MyBot/2.1` is `MyBot`), as core compares tokens; the token must then be
 * non-empty. A full User-Agent header is mapped to its crawler's token; a browser's header is refused.
 */
function agentList(value: unknown): string[] {
  return textList('agents', value).map((a) => {
    if (/[\s(]/.test(a.trim())) {
      const resolved = resolveCrawler(a);
      if (resolved.token !== null) return resolved.token;
      const shown = a.length > QUOTED_HEADER_CHARS ? `${a.slice(0, QUOTED_HEADER_CHARS)}…` : a;
      throw new RobotsAuditError(
        'ERR_INVALID_OPTION',
        `Invalid option \`agents\`: ${JSON.stringify(shown)} is a browser User-Agent, not a crawler's product token`,
        { option: 'agents' },
      );
    }
    const token = normalizeAgent(a);
    if (token === '') throw invalid('agents', 'a non-empty product token', a);
    return token;
  });
}

function resolveEntries(value: unknown): string[] {
  return textList('resolve', value).map((entry) => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw invalid('resolve', 'HOST=ADDRESS', entry);
    return entry;
  });
}

function duration(name: string, value: unknown): number {
  const s = parseDuration(value);
  if (Number.isNaN(s))
    throw invalid(name, 'a duration (seconds, or a number with s, m, h, d or w: "24h")', value);
  return s;
}

type Validators = { [K in keyof Options]: (value: unknown) => Options[K] };

const VALIDATORS: Validators = {
  agents: agentList,
  agentColumn: (v) => optionalText('agentColumn', v),
  threads: (v) => integer('threads', v, 1, 256),
  cache: (v) => text('cache', v),
  maxAge: (v) => integer('maxAge', v, 0, MAX_MAX_AGE_SECONDS),
  timeout: (v) => positiveNumber('timeout', v, 3600),
  concurrency: (v) => integer('concurrency', v, 1, 100_000),
  retries: (v) => integer('retries', v, 0, 10),
  maxRetryAfter: (v) => integer('maxRetryAfter', v, 0, 3600),
  maxBody: (v) => integer('maxBody', v, MIN_MAX_BODY_BYTES, 1 << 30),
  httpUserAgent: (v) => text('httpUserAgent', v),
  resolve: resolveEntries,
  allowPrivate: (v) => boolean('allowPrivate', v),
  caFile: (v) => optionalText('caFile', v),
  proxy: (v) => optionalText('proxy', v),
  offline: (v) => boolean('offline', v),
  robotsDir: (v) => optionalText('robotsDir', v),
  delimiter: (v) => {
    const d = text('delimiter', v);
    const unescaped = d === '\\t' || d === 'tab' ? '\t' : d;
    // Records are cut and split on bytes: a delimiter must be one byte.
    if (
      unescaped.length !== 1 ||
      unescaped.charCodeAt(0) > 0x7f ||
      unescaped === '"' ||
      unescaped === '\n' ||
      unescaped === '\r'
    ) {
      throw invalid('delimiter', 'one ASCII character other than a quote or line end (or "tab")', v);
    }
    return unescaped;
  },
  urlColumn: (v) => text('urlColumn', v),
  hostColumn: (v) => text('hostColumn', v),
  header: (v) => boolean('header', v),
  columns: (v) => columnList(v),
  scheme: (v) => {
    if (v !== 'http' && v !== 'https') throw invalid('scheme', '"http" or "https"', v);
    return v;
  },
  output: (v) => text('output', v),
  evidence: (v) => boolean('evidence', v),
  shard: (v) => parseShard(v),
  rowNumber: (v) => boolean('rowNumber', v),
  atColumn: (v) => optionalText('atColumn', v),
  asOf: (v) => {
    const t = typeof v === 'number' ? v : typeof v === 'string' ? parseTime(v) : Number.NaN;
    if (!Number.isFinite(t)) throw invalid('asOf', 'a time (RFC 3339, epoch seconds, …)', v);
    return t;
  },
  timeFormat: (v) => {
    if (!TIME_FORMATS.includes(v as TimeFormat)) throw invalid('timeFormat', TIME_FORMATS.join(', '), v);
    return v as TimeFormat;
  },
  grace: (v) => duration('grace', v),
  maxHistoryAge: (v) => duration('maxHistoryAge', v),
  summary: (v) => optionalText('summary', v),
  progress: (v) => boolean('progress', v),
  quiet: (v) => boolean('quiet', v),
  olderThan: (v) => integer('olderThan', v, 0, 36_500),
  json: (v) => boolean('json', v),
};

/** Options as given, by name: values not yet checked (undefined = not given). */
export type OptionInput = Partial<Record<keyof Options, unknown>>;

/**
 * The one place options are checked, for the CLI and the library alike. Unknown names, options the named
 * command does not take, and bad values throw a RobotsAuditError with code ERR_INVALID_OPTION and a
 * one-line message. Named, a command gets its own options only (`COMMAND_OPTIONS`); unnamed, every option.
 */
export function resolveOptions(input?: OptionInput): Options;
export function resolveOptions<C extends Command>(input: OptionInput, command: C): CommandOptions<C>;
export function resolveOptions(input: OptionInput = {}, command?: Command): Partial<Options> {
  const takes: readonly string[] | undefined = command === undefined ? undefined : COMMAND_OPTIONS[command];
  const out: Record<string, unknown> = { ...DEFAULTS };
  for (const [name, value] of Object.entries(input)) {
    if (!Object.hasOwn(VALIDATORS, name)) throw unknownOption(name);
    if (takes !== undefined && !takes.includes(name))
      throw optionNotFor(name, command!, commandsTaking(name));
    if (value === undefined) continue;
    out[name] = VALIDATORS[name as keyof Options](value);
  }
  const options = out as unknown as Options;
  if (options.offline && options.robotsDir !== undefined) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      'Invalid options: `offline` and `robotsDir` cannot be used together',
      { option: 'offline' },
    );
  }
  checkLineMode(options);
  checkAsOf(options);
  // Checked with every default in place (the clashes above read them), handed over as the command's own.
  return takes === undefined ? options : Object.fromEntries(takes.map((name) => [name, out[name]]));
}

/** `classify`'s options, which also need a crawler to judge for: an agent, or an agent column. */
export function resolveClassifyOptions(input: OptionInput = {}): ClassifyOptions {
  const options = resolveOptions(input, 'classify');
  if (options.agents.length === 0 && options.agentColumn === undefined) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      'Invalid option `agents`: give at least one agent (or `agentColumn`)',
      { option: 'agents' },
    );
  }
  return options;
}

/** As of a time: one source of times, and the cache's history as the only source of policies. */
function checkAsOf(o: Options): void {
  const both = optionsClash;
  if (o.atColumn !== undefined && o.asOf !== undefined) throw both('atColumn', 'asOf');
  if (o.atColumn === undefined && o.asOf === undefined) return;
  const mode = o.atColumn !== undefined ? 'atColumn' : 'asOf';
  if (o.robotsDir !== undefined) throw both(mode, 'robotsDir');
}

/** True when rows are judged as of a time (the cache's history, never a fetch). */
export function isAsOf(o: Pick<Options, 'atColumn' | 'asOf'>): boolean {
  return o.atColumn !== undefined || o.asOf !== undefined;
}
