import { PALETTE_SIZE } from './report-style.js';
import type { ChartSeries } from './svg-bar-chart.js';

/** Verdicts in the order a reader expects them, allowed first; any other verdict follows, sorted. */
const KNOWN: readonly (readonly [string, string])[] = [
  ['allowed_explicit', 'allow-explicit'],
  ['allowed_implicit', 'allow-implicit'],
  ['allowed_unavailable', 'allow-unavailable'],
  ['disallowed_explicit', 'disallow-explicit'],
  ['disallowed_unreachable', 'disallow-unreachable'],
  ['not_cached', 'not-judged'],
  ['no_history', 'not-judged'],
  ['not_a_crawler', 'not-judged'],
  ['invalid_input', 'invalid'],
];

/** Chart series for the verdicts present in `verdicts`, in reading order, each with its colour. */
export function verdictSeries(verdicts: Iterable<string>): ChartSeries[] {
  const present = new Set(verdicts);
  const out: ChartSeries[] = [];
  for (const [key, tone] of KNOWN) {
    if (present.delete(key)) out.push({ key, label: key, tone });
  }
  [...present].sort().forEach((key, i) => {
    out.push({ key, label: key, tone: `p${i % PALETTE_SIZE}` });
  });
  return out;
}

/** One palette colour per agent, in the given order. */
export function agentSeries(agents: readonly string[]): ChartSeries[] {
  return agents.map((a, i) => ({ key: a, label: a, tone: `p${i % PALETTE_SIZE}` }));
}
