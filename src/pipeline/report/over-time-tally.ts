import { parseTime } from '../../rows/row-time.js';
import type { OverTimeSection } from './report-model.js';
import { decodeLatin1 } from './site-of.js';

const DAY_MS = 86_400_000;

/** Rows and violations per UTC day, from the rows' time column; at most `maxDays` days. */
export class OverTimeTally {
  private readonly rows = new Map<string, number>();
  private readonly violations = new Map<string, Map<string, number>>();
  private exact = true;
  private badTimes = 0;
  private lastStart = Number.NaN;
  private lastDay = '';

  constructor(
    private readonly column: string,
    private readonly maxDays: number,
  ) {}

  /** Counts a row by its time cell; returns its day, or null (not a time, or past the day table). */
  row(cell: string): string | null {
    const t = parseTime(cell);
    if (Number.isNaN(t)) {
      this.badTimes++;
      return null;
    }
    const day = this.dayOf(t);
    if (day !== null) this.rows.set(day, (this.rows.get(day) ?? 0) + 1);
    return day;
  }

  /** A violation of `agent` (an own string) on `day`. */
  violation(day: string, agent: string): void {
    let perAgent = this.violations.get(day);
    if (perAgent === undefined) {
      perAgent = new Map();
      this.violations.set(day, perAgent);
    }
    perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
  }

  /** `YYYY-MM-DD` (UTC) of a time, or null when the day table is full without it. */
  private dayOf(t: number): string | null {
    if (t >= this.lastStart && t < this.lastStart + DAY_MS) return this.lastDay;
    const start = Math.floor(t / DAY_MS) * DAY_MS;
    const day = new Date(start).toISOString().slice(0, 10);
    if (!this.rows.has(day) && this.rows.size >= this.maxDays) {
      this.exact = false;
      return null;
    }
    this.lastStart = start;
    this.lastDay = day;
    return day;
  }

  section(): OverTimeSection {
    const days = [...this.rows.keys()].sort();
    const violations: Record<string, Record<string, number>> = {};
    for (const day of days) {
      const perAgent = this.violations.get(day);
      if (perAgent === undefined) continue;
      violations[day] = Object.fromEntries(
        [...perAgent.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([a, n]) => [decodeLatin1(a), n]),
      );
    }
    return {
      column: this.column,
      rows: Object.fromEntries(days.map((d) => [d, this.rows.get(d)!])),
      violations,
      badTimes: this.badTimes,
      daysExact: this.exact,
    };
  }
}
