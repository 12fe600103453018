import { RobotsAuditError } from '../core/errors.js';
import type { AsOfConfig } from '../workers/protocol.js';
import { findColumn, shownColumn } from './input/header.js';
import { isAsOf, type Options } from './options.js';

/** The workers' as-of settings for the input's columns, or null when rows are judged as of now. */
export function asOfConfig(
  options: Pick<Options, 'atColumn' | 'asOf' | 'timeFormat' | 'grace' | 'maxHistoryAge'>,
  columns: readonly string[],
): AsOfConfig | null {
  if (!isAsOf(options)) return null;
  let timeIndex = -1;
  if (options.atColumn !== undefined) {
    timeIndex = findColumn(columns, options.atColumn);
    if (timeIndex < 0) {
      const shown = columns.slice(0, 10).map(shownColumn).join(', ');
      throw new RobotsAuditError(
        'ERR_NO_TIME_COLUMN',
        `the input has no \`${options.atColumn}\` column (header: ${shown}${columns.length > 10 ? ', …' : ''}); use --at-column`,
      );
    }
  }
  return {
    timeIndex,
    fixedTime: options.asOf ?? Number.NaN,
    timeFormat: options.timeFormat,
    graceMs: options.grace * 1000,
    maxAgeMs: options.maxHistoryAge === undefined ? Number.POSITIVE_INFINITY : options.maxHistoryAge * 1000,
  };
}
