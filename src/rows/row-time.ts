/**
 * The time of a row (`--at-column`, `--as-of`), as epoch milliseconds, from the forms crawl logs use:
 * RFC 3339 / ISO 8601 (`2024-01-31T23:59:59Z`, offsets, fractions, a space for the `T`, no zone = UTC),
 * epoch seconds or milliseconds (by magnitude, or as `format` says), Apache/NGINX access-log time
 * (`10/Oct/2000:13:55:36 -0700`, brackets optional), WARC/CDX 14 digits (`20240131235959`), and
 * HTTP-date (`Wed, 31 Jan 2024 23:59:59 GMT`, and the RFC 850 and asctime forms). Anything else, or an
 * impossible date, is NaN.
 */

export type TimeFormat = 'auto' | 'epoch-s' | 'epoch-ms';

export const TIME_FORMATS: readonly TimeFormat[] = ['auto', 'epoch-s', 'epoch-ms'];

/** Epoch numbers below this are seconds (until the year 5138), above it milliseconds. */
const SECONDS_BELOW = 1e11;

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

// The offset's minutes may be left out (`+00`: PostgreSQL's timestamptz text); ` UTC` is BigQuery's and
// Presto's zone.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz]|UTC|GMT)|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const CLF = /^\[?(\d{1,2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\s+([+-])(\d{2}):?(\d{2}))?\]?$/;
const HTTP_DATE =
  /^(?:[A-Za-z]{3},\s*)?(\d{1,2})[ -]([A-Za-z]{3})[ -](\d{4}) (\d{2}):(\d{2}):(\d{2}) (?:GMT|UTC|\+0000)$/;
/** HTTP-date's obsolete forms, which RFC 9110 §5.6.7 says recipients must read: RFC 850 and asctime. */
const RFC850_DATE = /^[A-Za-z]+,\s*(\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^[A-Za-z]{3} ([A-Za-z]{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;
const DIGITS14 = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;
const EPOCH = /^-?\d{1,16}(?:\.\d{1,9})?$/;

const DAY_MS = 86_400_000;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (any year, month 1–12), by arithmetic: Date.UTC
 * costs a runtime call per row and reads years 0–99 as 1900–1999.
 */
function daysFromCivil(y: number, mo: number, d: number): number {
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function leapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

/** Epoch ms of a UTC calendar time, or NaN when a field is out of range (Feb 30, hour 25, …). */
function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  if (mo < 1 || mo > 12 || d < 1 || d > DAYS_IN_MONTH[mo - 1]! || h > 23 || mi > 59 || s > 60)
    return Number.NaN;
  if (mo === 2 && d === 29 && !leapYear(y)) return Number.NaN;
  // A leap second (:60) is read as the first second of the next minute.
  return daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

function offsetMs(sign: string | undefined, hh: string | undefined, mm: string | undefined): number {
  if (sign === undefined) return 0;
  const h = Number(hh);
  const m = mm === undefined ? 0 : Number(mm);
  if (h > 23 || m > 59) return Number.NaN;
  return (sign === '-' ? -1 : 1) * (h * 60 + m) * 60_000;
}

/** Digits of `s` at [from, to) as a number, or -1 when one is not a digit. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ` and `…SS.sssZ` at `v[at, end)`, the form most logs write, without a regular
 * expression or a string of its own; else NaN.
 */
function canonicalUtc(v: string, at: number, end: number): number {
  const n = end - at;
  if (
    (n !== 20 && n !== 24) ||
    v.charCodeAt(end - 1) !== 90 /* Z */ ||
    v.charCodeAt(at + 10) !== 84 /* T */
  ) {
    return Number.NaN;
  }
  const dash = 45;
  const colon = 58;
  if (v.charCodeAt(at + 4) !== dash || v.charCodeAt(at + 7) !== dash) return Number.NaN;
  if (v.charCodeAt(at + 13) !== colon || v.charCodeAt(at + 16) !== colon) return Number.NaN;
  const y = digits(v, at, at + 4);
  const mo = digits(v, at + 5, at + 7);
  const d = digits(v, at + 8, at + 10);
  const h = digits(v, at + 11, at + 13);
  const mi = digits(v, at + 14, at + 16);
  const s = digits(v, at + 17, at + 19);
  const ms = n === 24 ? (v.charCodeAt(at + 19) === 46 /* . */ ? digits(v, at + 20, at + 23) : -1) : 0;
  if (y < 0 || d < 0 || h < 0 || mi < 0 || s < 0 || s > 59 || ms < 0) return Number.NaN;
  return utc(y, mo, d, h, mi, s, ms);
}

/** The time a cell holds, in epoch milliseconds, or NaN. */
export function parseTime(value: string, format: TimeFormat = 'auto'): number {
  return parseTimeIn(value, 0, value.length, format);
}

/** The time the cell `s[start, end)` holds, in epoch milliseconds, or NaN; the common form costs no string. */
export function parseTimeIn(s: string, start: number, end: number, format: TimeFormat = 'auto'): number {
  if (format === 'auto') {
    const fast = canonicalUtc(s, start, end);
    if (!Number.isNaN(fast)) return fast;
  }
  return parseOther(start === 0 && end === s.length ? s : s.slice(start, end), format);
}

/** Every form but the canonical one (see parseTime). */
function parseOther(value: string, format: TimeFormat): number {
  const v = value.trim();
  if (v === '') return Number.NaN;
  if (format !== 'auto') {
    if (!EPOCH.test(v)) return Number.NaN;
    const n = Number(v);
    return Math.round(format === 'epoch-s' ? n * 1000 : n);
  }
  let m = DIGITS14.exec(v);
  if (m !== null) {
    const t = utc(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!, 0);
    if (!Number.isNaN(t)) return t;
  }
  if (EPOCH.test(v)) {
    const n = Number(v);
    return Math.round(Math.abs(n) < SECONDS_BELOW ? n * 1000 : n);
  }
  m = ISO.exec(v);
  if (m !== null) {
    const frac = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
    const t = utc(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), frac);
    return t - offsetMs(m[9], m[10], m[11]);
  }
  m = CLF.exec(v);
  if (m !== null) {
    const mo = MONTHS[m[2]!.toLowerCase()];
    if (mo === undefined) return Number.NaN;
    return utc(+m[3]!, mo, +m[1]!, +m[4]!, +m[5]!, +m[6]!, 0) - offsetMs(m[7], m[8], m[9]);
  }
  m = HTTP_DATE.exec(v);
  if (m !== null) {
    const mo = MONTHS[m[2]!.toLowerCase()];
    if (mo === undefined) return Number.NaN;
    return utc(+m[3]!, mo, +m[1]!, +m[4]!, +m[5]!, +m[6]!, 0);
  }
  m = RFC850_DATE.exec(v);
  if (m !== null) {
    const mo = MONTHS[m[2]!.toLowerCase()];
    if (mo === undefined) return Number.NaN;
    // A fixed pivot, not RFC 9110's "50 years from now": an audit's answer must not depend on when it runs.
    const yy = +m[3]!;
    return utc(yy < 70 ? 2000 + yy : 1900 + yy, mo, +m[1]!, +m[4]!, +m[5]!, +m[6]!, 0);
  }
  m = ASCTIME_DATE.exec(v);
  if (m !== null) {
    const mo = MONTHS[m[1]!.toLowerCase()];
    if (mo === undefined) return Number.NaN;
    return utc(+m[6]!, mo, +m[2]!, +m[3]!, +m[4]!, +m[5]!, 0);
  }
  return Number.NaN;
}
