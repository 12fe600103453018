// The page's only stylesheet (inline: the page loads nothing). Chart colours are classes, so print keeps them.

const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

/** Number of agent colours (`tone-p0` … `tone-p9`); agents beyond it reuse them in order. */
export const PALETTE_SIZE = PALETTE.length;

const TONES: Record<string, string> = {
  'allow-explicit': '#2e7d32',
  'allow-implicit': '#81c784',
  'allow-unavailable': '#c5e1a5',
  'disallow-explicit': '#c62828',
  'disallow-unreachable': '#795548',
  grace: '#fbc02d',
  partial: '#fbc02d',
  'not-judged': '#9e9e9e',
  invalid: '#6a1b9a',
  ...Object.fromEntries(PALETTE.map((c, i) => [`p${i}`, c])),
};

const toneRules = Object.entries(TONES)
  .map(([name, colour]) => `.tone-${name}{fill:${colour};background-color:${colour}}`)
  .join('\n');

export const REPORT_STYLE = `
:root{color-scheme:light;--ink:#1f2328;--muted:#59636e;--line:#d0d7de;--soft:#f6f8fa}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1160px;padding:24px 20px 48px;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
h1{font-size:1.7rem;margin:0 0 4px}
h2{font-size:1.3rem;margin:36px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:22px 0 6px}
p{margin:6px 0}
.meta,.note,figcaption{color:var(--muted);font-size:.9rem}
.empty{color:var(--muted);font-style:italic}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
nav ul{list-style:none;padding:0;margin:12px 0;display:flex;flex-wrap:wrap;gap:6px 16px}
a{color:#0969da}
code,.url,.rule{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
.url,.rule{overflow-wrap:anywhere}
.figures{display:flex;flex-wrap:wrap;gap:12px;padding:0;margin:12px 0;list-style:none}
.figures li{border:1px solid var(--line);border-radius:6px;padding:10px 16px;min-width:150px;background:var(--soft)}
.figures .figure{display:block;font-size:1.6rem;font-weight:600}
.figures .label{color:var(--muted);font-size:.85rem}
.table-wrap{overflow-x:auto;margin:8px 0 16px}
table{border-collapse:collapse;width:100%;font-size:.88rem}
caption{text-align:left;font-weight:600;padding:4px 0;caption-side:top}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:var(--soft);position:sticky;top:0;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
button.sort{all:inherit;cursor:pointer;padding:0;border:0;background:none}
button.sort::after{content:" \\2195";color:var(--muted)}
th[aria-sort="ascending"] button.sort::after{content:" \\2191";color:var(--ink)}
th[aria-sort="descending"] button.sort::after{content:" \\2193";color:var(--ink)}
button.sort:focus-visible{outline:2px solid #0969da}
ul.examples{margin:0;padding-left:1.1em}
.chart-figure{margin:8px 0 16px}
svg.chart{width:100%;height:auto;display:block}
svg.chart text{font-size:13px;fill:var(--ink)}
svg.chart .axis-label{font-size:11px;fill:var(--muted)}
svg.chart .axis{stroke:var(--line)}
ul.legend{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.85rem}
.swatch{display:inline-block;width:.9em;height:.9em;margin-right:5px;vertical-align:-1px;border-radius:2px}
table.access{font-size:.8rem}
table.access td{white-space:nowrap}
table.access td:first-child,table.access th:first-child{position:sticky;left:0;background:#fff;z-index:1}
table.access thead th:first-child{background:var(--soft)}
.access-full{background:#ffebe9;color:#82071e;font-weight:600}
.access-partial{background:#fff8c5;color:#7d4e00}
.access-none{background:#dafbe1;color:#116329}
.access-unknown{color:var(--muted)}
li.diff-add,li.diff-del{list-style:none}
.diff-add{color:#116329}
.diff-del{color:#82071e}
${toneRules}
@media print{
  body{max-width:none;padding:0;font-size:11px}
  nav,.noprint{display:none}
  h2{break-after:avoid}
  thead th,table.access td:first-child,table.access th:first-child{position:static}
  tr,figure{break-inside:avoid}
  .table-wrap{overflow:visible}
  button.sort::after{content:""}
  a{color:inherit;text-decoration:none}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`;
