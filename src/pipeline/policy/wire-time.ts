/** An epoch-ms time as the wire carries it: ISO 8601, or '' when unknown. */
export function wireTime(ms: number): string {
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : '';
}
