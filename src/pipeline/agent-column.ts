import { RobotsAuditError } from '../core/errors.js';
import { findColumn, shownColumn } from './input/header.js';
import type { Options } from './options.js';

/** `--agent-column`: the index of the column naming each row's crawler, or -1 when rows have none. */
export function agentColumnIndex(options: Pick<Options, 'agentColumn'>, columns: readonly string[]): number {
  if (options.agentColumn === undefined) return -1;
  const index = findColumn(columns, options.agentColumn);
  if (index < 0) {
    const shown = columns.slice(0, 10).map(shownColumn).join(', ');
    throw new RobotsAuditError(
      'ERR_NO_AGENT_COLUMN',
      `the input has no \`${options.agentColumn}\` column (header: ${shown}${columns.length > 10 ? ', …' : ''}); use --agent-column`,
    );
  }
  return index;
}
