/** When to try again after a 429/5xx or a transient network failure. */

/**
 * Parses a Retry-After header (delta-seconds or an HTTP-date, RFC 9110 §10.2.3) into milliseconds from
 * `now`; undefined when absent or unparsable. A date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | string[] | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter: attempt 1 waits base..2·base·½…, doubling each time, never more
 * than `capMs`. Jitter spreads retries of many hosts that failed together.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const exp = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(capMs, Math.round(exp * (0.5 + random() * 0.5)));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) resolve();
    else setTimeout(resolve, ms);
  });
}
