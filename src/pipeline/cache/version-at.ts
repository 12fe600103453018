import { RobotsAuditError } from '../../core/errors.js';
import { parseTime } from '../../rows/row-time.js';
import type { CachedVersion } from './cache-types.js';

/** Which stored version was in force at a given time (`cache show --at`). */

/**
 * A time in any form a row's time or `--as-of` takes (RFC 3339, epoch seconds or milliseconds, access-log
 * time, 14 digits, HTTP-date; see parseTime), as epoch ms: what an audit shows, `--at` looks up.
 */
export function parseInstant(text: string): number {
  const ms = parseTime(text);
  if (!Number.isFinite(ms)) {
    throw new RobotsAuditError(
      'ERR_USAGE',
      `Not a time: ${JSON.stringify(text)} (give e.g. 2024-01-31T23:59:59Z, or a time as a row's time is written)`,
    );
  }
  return ms;
}

/** The latest version that started at or before `at` (versions oldest first), or undefined before the first. */
export function versionAt(versions: readonly CachedVersion[], at: number): CachedVersion | undefined {
  let found: CachedVersion | undefined;
  for (const v of versions) if (v.validFrom <= at) found = v;
  return found;
}
