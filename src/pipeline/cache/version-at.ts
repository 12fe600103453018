import { RobotsAuditError } from '../../core/errors.js';
import type { CachedVersion } from './cache-types.js';

/** Which stored version was in force at a given time (`cache show --at`). */

const RFC3339 = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/;
const DATE_ONLY = /^\d{4}-\d\d-\d\d$/;

/** An RFC 3339 time (`2024-01-31T23:59:59Z`, offsets and fractions allowed) or a UTC date, as epoch ms. */
export function parseInstant(text: string): number {
  const t = text.trim();
  const ms = RFC3339.test(t)
    ? Date.parse(t.replace(' ', 'T'))
    : DATE_ONLY.test(t)
      ? Date.parse(`${t}T00:00:00Z`)
      : NaN;
  if (!Number.isFinite(ms)) {
    throw new RobotsAuditError(
      'ERR_USAGE',
      `Not an RFC 3339 time: ${JSON.stringify(text)} (give e.g. 2024-01-31T23:59:59Z)`,
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
