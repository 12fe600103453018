/** Seconds in each unit a duration may carry (`90s`, `30m`, `24h`, `7d`, `2w`). */
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A duration in seconds: a number of seconds, or a number with a unit (`24h`, `1.5d`); NaN otherwise. */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(value);
  if (m === null) return Number.NaN;
  return Number(m[1]) * (UNITS[(m[2] || 's').toLowerCase()] ?? Number.NaN);
}
