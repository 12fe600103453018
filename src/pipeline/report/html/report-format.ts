// Figures as the page prints them: fixed locale, so the page is the same on every machine.

const COUNT = new Intl.NumberFormat('en-US');

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** part/whole as a percentage with one decimal ("12.5 %"); "–" when whole is 0; never "0.0 %" for a non-zero part. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const pct = (part / whole) * 100;
  if (part > 0 && pct < 0.05) return '< 0.1 %';
  return `${pct.toFixed(1)} %`;
}

/** "exact" when counts are exact, "at least" when a bounded counter overflowed. */
export function exactness(exact: boolean): string {
  return exact ? 'exact' : 'at least';
}

/** "1 site", "2 sites", "1,000 rows": a count and its noun, plural unless the count is 1 (`many` for irregular plurals). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
