/**
 * Splitting a record without quotes by hand (csv-parse handles every record that has one). Works on a
 * latin1 view of the batch, so positions are byte offsets into it.
 */
export class FieldSplitter {
  private text = '';
  private delimChar = ',';
  /** Cached position of the next delimiter at or after `delimFrom` (a huge value when none). */
  private delimPos = -1;
  private delimFrom = 0;

  /** Set by `split`: number of fields. */
  count = 0;
  /** Set by `split`: start/end of the wanted fields (-1 when the record is too short). */
  aStart = -1;
  aEnd = -1;
  bStart = -1;
  bEnd = -1;
  /** Set by `split` when a third field is asked for (the time column of as-of runs). */
  cStart = -1;
  cEnd = -1;
  /** Set by `split` when a fourth field is asked for (the agent column of `--agent-column` runs). */
  xStart = -1;
  xEnd = -1;

  reset(text: string, delimiter: string): void {
    this.text = text;
    this.delimChar = delimiter;
    this.delimPos = -1;
    this.delimFrom = 0;
  }

  private nextDelim(from: number): number {
    if (this.delimPos < from || from < this.delimFrom) {
      const d = this.text.indexOf(this.delimChar, from);
      this.delimPos = d < 0 ? Number.MAX_SAFE_INTEGER : d;
      this.delimFrom = from;
    }
    return this.delimPos;
  }

  /** Splits [start, end) and records the bounds of fields `a`, `b`, `c` and `x` (-1 for none). */
  split(start: number, end: number, a: number, b: number, c = -1, x = -1): void {
    this.aStart = this.aEnd = this.bStart = this.bEnd = this.cStart = this.cEnd = -1;
    this.xStart = this.xEnd = -1;
    let idx = 0;
    let s = start;
    for (;;) {
      const d = this.nextDelim(s);
      const fe = Math.min(d, end);
      if (idx === a) {
        this.aStart = s;
        this.aEnd = fe;
      } else if (idx === b) {
        this.bStart = s;
        this.bEnd = fe;
      } else if (idx === c) {
        this.cStart = s;
        this.cEnd = fe;
      }
      if (idx === x) {
        this.xStart = s;
        this.xEnd = fe;
      }
      idx++;
      if (fe === end) break;
      s = fe + 1;
    }
    this.count = idx;
  }

  /** Start offsets of every field of [start, end) (for the rare rows that are rewritten). */
  fieldStarts(start: number, end: number): number[] {
    const out = [start];
    let s = start;
    for (;;) {
      const d = this.nextDelim(s);
      if (d >= end) return out;
      s = d + 1;
      out.push(s);
    }
  }
}
