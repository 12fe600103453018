import { escapeHtml, Html, html } from './html-escape.js';
import { formatCount, formatShare } from './report-format.js';

/** One colour of a chart: `tone` names a CSS class `tone-<tone>` (see report-style.ts). */
export interface ChartSeries {
  key: string;
  label: string;
  tone: string;
}

export interface ChartBar {
  label: string;
  /** Value per series key; missing keys are 0. */
  values: Readonly<Record<string, number>>;
}

export interface BarChartSpec {
  /** Unique on the page: the id of the chart's title element. */
  id: string;
  title: string;
  series: readonly ChartSeries[];
  bars: readonly ChartBar[];
  /** `share`: every bar is 100 % wide (verdict shares); `count`: bars scale to the largest total. */
  scale: 'share' | 'count';
}

const WIDTH = 960;
const LABEL_W = 200;
const TOTAL_W = 110;
const BAR_H = 22;
const GAP = 10;
const TOP = 8;

function total(bar: ChartBar, series: readonly ChartSeries[]): number {
  let t = 0;
  for (const s of series) t += Math.max(0, bar.values[s.key] ?? 0);
  return t;
}

/** Long labels are cut for the drawing only; the full text stays in the bar's title. */
function clip(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

function legend(series: readonly ChartSeries[]): Html {
  return html`<ul class="legend">${series.map(
    (s) => html`<li><span class="swatch tone-${s.tone}"></span>${s.label}</li>`,
  )}</ul>`;
}

/**
 * A horizontal stacked bar chart as inline SVG: one `<g class="bar">` per bar, one `<rect>` per non-zero
 * segment, each with a `<title>` (label, series, count, share), plus text labels and a legend in HTML.
 */
export function stackedBarChart(spec: BarChartSpec): Html {
  const { series, bars } = spec;
  const height = TOP * 2 + bars.length * (BAR_H + GAP) - (bars.length > 0 ? GAP : 0);
  const plotW = WIDTH - LABEL_W - TOTAL_W;
  let max = 0;
  for (const b of bars) max = Math.max(max, total(b, series));
  const parts: string[] = [];
  bars.forEach((bar, i) => {
    const y = TOP + i * (BAR_H + GAP);
    const t = total(bar, series);
    const full = spec.scale === 'share' ? plotW : max > 0 ? (plotW * t) / max : 0;
    let x = LABEL_W;
    let rects = '';
    for (const s of series) {
      const v = Math.max(0, bar.values[s.key] ?? 0);
      if (v === 0 || t === 0) continue;
      const w = (full * v) / t;
      const tip = `${bar.label}: ${s.label} ${formatCount(v)} (${formatShare(v, t)})`;
      rects +=
        `<rect class="tone-${s.tone}" x="${x.toFixed(2)}" y="${y}" width="${Math.max(w, 0.5).toFixed(2)}" ` +
        `height="${BAR_H}"><title>${escapeHtml(tip)}</title></rect>`;
      x += w;
    }
    parts.push(
      `<g class="bar"><text class="bar-label" x="${LABEL_W - 8}" y="${y + BAR_H / 2}" text-anchor="end" ` +
        `dominant-baseline="central">${escapeHtml(clip(bar.label, 28))}</text>${rects}` +
        `<text class="bar-total" x="${LABEL_W + full + 6}" y="${y + BAR_H / 2}" dominant-baseline="central">` +
        `${escapeHtml(formatCount(t))}</text></g>`,
    );
  });
  const svg =
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${Math.max(height, 1)}" role="img" ` +
    `aria-labelledby="${spec.id}"><title id="${spec.id}">${escapeHtml(spec.title)}</title>${parts.join('')}</svg>`;
  return html`<figure class="chart-figure">${new Html(svg)}<figcaption>${spec.title}${legend(series)}</figcaption></figure>`;
}

export interface ColumnChartSpec {
  id: string;
  title: string;
  series: readonly ChartSeries[];
  /** One column per entry, left to right (e.g. one per day). */
  columns: readonly ChartBar[];
}

const COL_H = 220;
const AXIS_H = 40;
const LEFT = 70;

/**
 * A vertical stacked column chart (e.g. violations per day, stacked by agent): one `<g class="bar">` per column,
 * a count scale on the left and the column labels below (thinned when there are many).
 */
export function stackedColumnChart(spec: ColumnChartSpec): Html {
  const { series, columns } = spec;
  const plotW = WIDTH - LEFT - 10;
  const n = Math.max(columns.length, 1);
  const step = plotW / n;
  const colW = Math.max(1, Math.min(48, step * 0.8));
  let max = 0;
  for (const c of columns) max = Math.max(max, total(c, series));
  const labelEvery = Math.max(1, Math.ceil(n / 12));
  const parts: string[] = [];
  parts.push(
    `<line class="axis" x1="${LEFT}" y1="${TOP + COL_H}" x2="${WIDTH - 10}" y2="${TOP + COL_H}"></line>`,
    `<text class="axis-label" x="${LEFT - 6}" y="${TOP + 6}" text-anchor="end">${formatCount(max)}</text>`,
    `<text class="axis-label" x="${LEFT - 6}" y="${TOP + COL_H}" text-anchor="end">0</text>`,
  );
  columns.forEach((col, i) => {
    const x = LEFT + i * step + (step - colW) / 2;
    const t = total(col, series);
    let y = TOP + COL_H;
    let rects = '';
    for (const s of series) {
      const v = Math.max(0, col.values[s.key] ?? 0);
      if (v === 0) continue;
      const h = max > 0 ? (COL_H * v) / max : 0;
      y -= h;
      const tip = `${col.label}: ${s.label} ${formatCount(v)} of ${formatCount(t)}`;
      rects +=
        `<rect class="tone-${s.tone}" x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${colW.toFixed(2)}" ` +
        `height="${Math.max(h, 0.5).toFixed(2)}"><title>${escapeHtml(tip)}</title></rect>`;
    }
    const label =
      i % labelEvery === 0
        ? `<text class="axis-label" x="${(x + colW / 2).toFixed(2)}" y="${TOP + COL_H + 18}" ` +
          `text-anchor="middle">${escapeHtml(clip(col.label, 12))}</text>`
        : '';
    parts.push(`<g class="bar">${rects}${label}</g>`);
  });
  const height = TOP + COL_H + AXIS_H;
  const svg =
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${spec.id}">` +
    `<title id="${spec.id}">${escapeHtml(spec.title)}</title>${parts.join('')}</svg>`;
  return html`<figure class="chart-figure">${new Html(svg)}<figcaption>${spec.title}${legend(series)}</figcaption></figure>`;
}
