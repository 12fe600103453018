import { RobotsAuditError } from '../../core/errors.js';
import { findColumn, shownColumn } from '../input/header.js';

/**
 * Where the columns of a classify output are: its input columns (everything before the verdict
 * columns), an optional leading `row_number`, the `agent` column of `--agent-column` runs, and one
 * group of `allowed, verdict, rule_line, rule` columns per agent.
 */

/** Name of the unsuffixed group of a run without `--agent-column` (one agent, not named in the header). */
export const UNNAMED_AGENT = '';
/** Name of the unsuffixed group of an `--agent-column` run: each row's own agent. */
export const ROW_AGENT = '@row';

export interface VerdictGroup {
  /** The agent as the header names it (suffix after `:`), UNNAMED_AGENT or ROW_AGENT. */
  name: string;
  allowed: number;
  verdict: number;
  ruleLine: number;
  rule: number;
}

export interface VerdictLayout {
  columns: string[];
  /** 0 when the file has a `row_number` first column, else -1. */
  rowNumber: number;
  /** First input column (after row_number) and the index one past the last one. */
  inputStart: number;
  inputEnd: number;
  /** Column of each row's agent (`--agent-column` runs), or -1. */
  agent: number;
  url: number;
  host: number;
  groups: VerdictGroup[];
}

const STEMS = ['allowed', 'verdict', 'rule_line', 'rule'] as const;

function suffixOf(column: string, stem: string): string | undefined {
  if (column === stem) return UNNAMED_AGENT;
  return column.startsWith(`${stem}:`) ? column.slice(stem.length + 1) : undefined;
}

/** The group starting at column `i`, when columns i..i+3 are one agent's `allowed, verdict, rule_line, rule`. */
function groupAt(columns: readonly string[], i: number): VerdictGroup | undefined {
  const name = suffixOf(columns[i] ?? '', 'allowed');
  if (name === undefined) return undefined;
  for (let k = 1; k < STEMS.length; k++) {
    if (suffixOf(columns[i + k] ?? '', STEMS[k]!) !== name) return undefined;
  }
  return { name, allowed: i, verdict: i + 1, ruleLine: i + 2, rule: i + 3 };
}

/** Reads the layout from a header's column names; `file` names the file in errors. */
export function verdictLayout(columns: string[], file: string): VerdictLayout {
  const rowNumber = columns[0] === 'row_number' ? 0 : -1;
  let first = -1;
  for (let i = rowNumber + 1; i < columns.length && first < 0; i++) {
    if (groupAt(columns, i) !== undefined) first = i;
  }
  if (first < 0) {
    throw new RobotsAuditError(
      'ERR_NO_VERDICT_COLUMN',
      `${file} has no verdict columns (allowed, verdict, rule_line, rule): is it an output of classify?`,
      { path: file },
    );
  }
  const groups: VerdictGroup[] = [];
  for (let i = first; ; ) {
    const g = groupAt(columns, i);
    if (g === undefined) break;
    groups.push(g);
    i += 4;
    // As-of runs add a grace column to each group.
    if (suffixOf(columns[i] ?? '', 'grace') === g.name) i++;
  }
  // `--agent-column` runs write `agent` just before the unsuffixed group: that group is each row's agent.
  const agent = groups[0]!.name === UNNAMED_AGENT && columns[first - 1] === 'agent' ? first - 1 : -1;
  if (agent >= 0) groups[0]!.name = ROW_AGENT;
  const inputStart = rowNumber + 1;
  const inputEnd = agent >= 0 ? agent : first;
  const names = groups.map((g) => g.name.toLowerCase());
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) {
    throw new RobotsAuditError(
      'ERR_NO_VERDICT_COLUMN',
      `${file} has the verdict columns of agent ${shownColumn(twice)} twice`,
      { path: file },
    );
  }
  const input = columns.slice(inputStart, inputEnd);
  const at = (name: string) => {
    const i = findColumn(input, name);
    return i < 0 ? -1 : i + inputStart;
  };
  return {
    columns,
    rowNumber,
    inputStart,
    inputEnd,
    agent,
    url: at('url'),
    host: at('host'),
    groups,
  };
}

/** How a group is named in messages, the summary and the output's `agent` column. */
export function shownAgent(name: string): string {
  if (name === ROW_AGENT) return "each row's agent";
  return name === UNNAMED_AGENT ? 'the unnamed agent' : name;
}
