import { RobotsAuditError } from '../../core/errors.js';
import { findColumn, shownColumn } from '../input/header.js';
import type { AgentMode } from './report-model.js';

/** Where one agent's verdict columns are (-1 for a column the file does not have). */
export interface AgentColumns {
  /** Product token; `''` for the row's own agent (row-agent mode). */
  agent: string;
  verdict: number;
  ruleLine: number;
  rule: number;
  grace: number;
}

/** Where the columns the report reads are in one verdicts file. */
export interface VerdictLayout {
  mode: AgentMode;
  url: number;
  host: number;
  time: number;
  /** Row-agent mode: the `agent` column. */
  agent: number;
  /** Row-agent mode: one entry (the row's agent); otherwise one per agent column. */
  agents: AgentColumns[];
  status: number;
  errorCode: number;
  robotsUrl: number;
  /** `robots_sha256` (evidence), or -1. */
  sha256: number;
  /** Largest index read: fields past it are never split. */
  last: number;
  /** Agents the header names, as `ReportInput.columnAgents` lists them. */
  columnAgents: string[];
}

export interface LayoutOptions {
  urlColumn: string;
  hostColumn: string;
  /** `--at-column`, or undefined. */
  atColumn: string | undefined;
  /** The agent of a file with one unsuffixed `verdict` column and no `agent` column. */
  unnamedAgent: string;
}

/** The last column named exactly `name` (classify appends its columns after the input's), or -1. */
function lastNamed(columns: readonly string[], name: string): number {
  return columns.lastIndexOf(name);
}

function agentColumns(columns: readonly string[], agent: string, suffix: string): AgentColumns {
  return {
    agent,
    verdict: lastNamed(columns, `verdict${suffix}`),
    ruleLine: lastNamed(columns, `rule_line${suffix}`),
    rule: lastNamed(columns, `rule${suffix}`),
    grace: lastNamed(columns, `grace${suffix}`),
  };
}

/**
 * Reads the layout of a classify output from its header. One unsuffixed `verdict` column with `agent`
 * before its `allowed` is row-agent mode (`--agent-column`); `verdict:<A>` columns name their agents; one
 * unsuffixed `verdict` alone was judged for `unnamedAgent`. No verdict column at all is fatal.
 */
export function verdictLayout(file: string, columns: readonly string[], opts: LayoutOptions): VerdictLayout {
  const url = findColumn(columns, opts.urlColumn);
  if (url < 0) {
    throw new RobotsAuditError(
      'ERR_NO_URL_COLUMN',
      `${file}: the header has no \`${opts.urlColumn}\` column; use --url-column`,
      { path: file },
    );
  }
  const hostAt = findColumn(columns, opts.hostColumn);
  let time = -1;
  if (opts.atColumn !== undefined) {
    time = findColumn(columns, opts.atColumn);
    if (time < 0) {
      throw new RobotsAuditError(
        'ERR_NO_TIME_COLUMN',
        `${file}: the header has no ${shownColumn(opts.atColumn)} column (--at-column)`,
        { path: file },
      );
    }
  }
  const plain = lastNamed(columns, 'verdict');
  const suffixed: string[] = [];
  for (const c of columns) {
    if (c.startsWith('verdict:') && c.length > 8 && !suffixed.includes(c.slice(8))) suffixed.push(c.slice(8));
  }
  if (plain < 0 && suffixed.length === 0) {
    throw new RobotsAuditError(
      'ERR_NO_VERDICT_COLUMN',
      `${file}: the header has no \`verdict\` or \`verdict:<agent>\` column; is it an output of robots-audit classify?`,
      { path: file },
    );
  }
  const agentCol =
    plain >= 2 && columns[plain - 1] === 'allowed' ? columns.lastIndexOf('agent', plain - 2) : -1;
  let mode: AgentMode;
  let agents: AgentColumns[];
  let columnAgents: string[];
  if (plain >= 0 && agentCol >= 0) {
    mode = 'row_agent';
    agents = [agentColumns(columns, '', '')];
    columnAgents = ['', ...suffixed];
  } else if (plain >= 0) {
    mode = 'agent_columns';
    agents = [agentColumns(columns, opts.unnamedAgent, '')];
    columnAgents = [opts.unnamedAgent];
  } else {
    mode = 'agent_columns';
    agents = suffixed.map((a) => agentColumns(columns, a, `:${a}`));
    columnAgents = suffixed;
  }
  const status = lastNamed(columns, 'robots_status');
  const errorCode = lastNamed(columns, 'error_code');
  const robotsUrl = lastNamed(columns, 'robots_url');
  const sha256 = lastNamed(columns, 'robots_sha256');
  const host = hostAt === url ? -1 : hostAt;
  const indexes = [url, host, time, agentCol, status, errorCode, robotsUrl, sha256];
  for (const a of agents) indexes.push(a.verdict, a.ruleLine, a.rule, a.grace);
  return {
    mode,
    url,
    host,
    time,
    agent: mode === 'row_agent' ? agentCol : -1,
    agents,
    status,
    errorCode,
    robotsUrl,
    sha256,
    last: Math.max(...indexes),
    columnAgents,
  };
}
