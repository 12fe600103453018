import { normalizeAgent } from '../../core/agent.js';
import { RobotsAuditError } from '../../core/errors.js';
import { parseTime } from '../../rows/row-time.js';
import { parseDuration } from '../duration.js';
import { invalidOption, optionsClash } from '../option-error.js';
import { previousReportTime } from './previous-report.js';

/** `robots-audit report`'s options, checked. */
export interface ReportCommandOptions {
  files: string[];
  /** HTML output (`-o`), or undefined. */
  output: string | undefined;
  /** JSON output (`--json`), or undefined. */
  json: string | undefined;
  merge: boolean;
  cache: string | undefined;
  robotsDir: string | undefined;
  /** Start of the changes window (epoch ms). */
  since: number;
  /** `--since` was given. */
  sinceGiven: boolean;
  /** `--agent`, as product tokens. */
  agents: string[];
  atColumn: string | undefined;
  urlColumn: string;
  hostColumn: string;
  delimiter: string;
  top: number;
  /** `--top` was given (a merge keeps its parts' otherwise). */
  topGiven: boolean;
  quiet: boolean;
}

/** The changes window without `--since`: last night's. */
export const DEFAULT_SINCE_SECONDS = 24 * 3600;
export const DEFAULT_TOP = 20;

const invalid = invalidOption;

function text(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(name, 'a non-empty string', value);
  return value;
}

const together = optionsClash;

/**
 * `--since`: a time in any form `--at-column` reads, a duration back from `now` (`24h`, `7d`), or a report
 * JSON file (`….json`: the time that report was made).
 */
export function parseSince(value: unknown, now: number): number {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(
      'since',
      'a time (RFC 3339, epoch seconds, …) or a duration back from now ("24h", "7d")',
      value,
    );
  }
  if (/\.json$/i.test(value.trim())) {
    const made = previousReportTime(value.trim());
    if (made === undefined) throw invalid('since', 'a report JSON file (robots-audit report --json)', value);
    return made;
  }
  // A bare number is a time (epoch seconds), as --as-of reads it; a duration needs its unit.
  const d = /^\s*\d+(?:\.\d+)?\s*[smhdw]\s*$/i.test(value) ? parseDuration(value) : Number.NaN;
  if (!Number.isNaN(d)) return now - d * 1000;
  const t = parseTime(value);
  if (Number.isNaN(t)) {
    throw invalid(
      'since',
      'a time (RFC 3339, epoch seconds, …) or a duration back from now ("24h", "7d")',
      value,
    );
  }
  return t;
}

/**
 * The changes window without `--since`: since the report `--json` is about to replace was made (a nightly
 * run writing over last night's report), else the last 24 hours.
 */
function defaultSince(json: unknown, now: number): number {
  const made = typeof json === 'string' && json !== '-' ? previousReportTime(json) : undefined;
  return made !== undefined && made <= now ? made : now - DEFAULT_SINCE_SECONDS * 1000;
}

/** Checks the command's raw options (as yargs gives them, or a library caller's). */
export function resolveReportOptions(raw: Record<string, unknown>, now = Date.now()): ReportCommandOptions {
  const files = (Array.isArray(raw.files) ? raw.files : raw.files === undefined ? [] : [raw.files]).map(
    String,
  );
  if (files.length === 0) throw new RobotsAuditError('ERR_USAGE', 'report: give at least one FILE');
  const top =
    raw.top === undefined
      ? DEFAULT_TOP
      : Number(typeof raw.top === 'string' && raw.top.trim() === '' ? Number.NaN : raw.top);
  if (!Number.isInteger(top) || top < 1 || top > 1_000)
    throw invalid('top', 'an integer from 1 to 1000', raw.top);
  const agentsRaw = raw.agent === undefined ? [] : Array.isArray(raw.agent) ? raw.agent : [raw.agent];
  const agents = agentsRaw.map((a) => {
    const token = typeof a === 'string' ? normalizeAgent(a) : '';
    if (token === '') throw invalid('agent', 'a non-empty product token', a);
    return token;
  });
  const delimiterText = text('delimiter', raw.delimiter) ?? ',';
  const delimiter = delimiterText === 'tab' || delimiterText === '\\t' ? '\t' : delimiterText;
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw invalid('delimiter', 'one character other than a quote or line end (or "tab")', raw.delimiter);
  }
  const opts: ReportCommandOptions = {
    files,
    output: text('output', raw.output),
    json: text('json', raw.json),
    merge: raw.merge === true,
    cache: text('cache', raw.cache),
    robotsDir: text('robots-dir', raw.robotsDir),
    since: raw.since === undefined ? defaultSince(raw.json, now) : parseSince(raw.since, now),
    sinceGiven: raw.since !== undefined,
    agents: [...new Set(agents)],
    atColumn: text('at-column', raw.atColumn),
    urlColumn: text('url-column', raw.urlColumn) ?? 'url',
    hostColumn: text('host-column', raw.hostColumn) ?? 'host',
    delimiter,
    top,
    topGiven: raw.top !== undefined,
    quiet: raw.quiet === true,
  };
  if (opts.cache !== undefined && opts.robotsDir !== undefined) throw together('cache', 'robots-dir');
  if (opts.merge) {
    for (const name of ['cache', 'robotsDir', 'atColumn'] as const) {
      if (opts[name] !== undefined)
        throw together(
          'merge',
          name === 'robotsDir' ? 'robots-dir' : name === 'atColumn' ? 'at-column' : name,
        );
    }
    if (opts.sinceGiven) throw together('merge', 'since');
  }
  if (opts.output === undefined && opts.json === undefined) {
    throw new RobotsAuditError('ERR_USAGE', 'report: give -o FILE.html, --json FILE.json, or both');
  }
  return opts;
}
