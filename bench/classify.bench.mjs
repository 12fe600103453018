#!/usr/bin/env node
// Benchmark of `robots-audit classify` against the plain pipeline a user would write instead (csv-parse →
// npm robots-parser, one parsed object per host → csv-stringify, one thread: bench/peer-classify.mjs), on
// the make-crawl workload, in the same run. Rounds alternate the peer, classify with default threads and
// classify --threads 1. Prints a markdown table: CPU (user + system, all threads), wall, µs of CPU per row,
// peak RSS, and each target met or not with the per-round ratios. Options: --rows N (2000000) --hosts H
// (20000) --repeat R (1: rounds, medians reported) --flat (also run 10M rows for the RSS-flatness figure)
// --flat-rows N (10000000). Needs ../shared/bench/make-crawl.mjs (workloads are built under bench/out/).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, crawlWorkload, numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';
import { alternate, countLines, fmt, machine, perRound, status, summary } from './rounds.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'out');
const rows = numericArg('rows', 2_000_000);
const hosts = numericArg('hosts', 20_000);
const repeat = numericArg('repeat', 1);
const flat = process.argv.includes('--flat');
const flatRows = numericArg('flat-rows', 10_000_000);
const agent = 'Googlebot';
const MIN_CPU_RATIO = 3;
const MIN_WALL_RATIO = 4;
const MAX_RSS_MIB = 300;
const MAX_RSS_ONE_THREAD_MIB = 250;
const MAX_FLAT_GROWTH = 0.15;

const dir = crawlWorkload('classify', rows, hosts);
const input = path.join(dir, 'crawl.csv');
const ours = (workload, output, threads) => [
  CLI,
  'classify',
  path.join(workload, 'crawl.csv'),
  '--robots-dir',
  path.join(workload, 'robots'),
  '--agent',
  agent,
  '-o',
  output,
  '--quiet',
  ...(threads ? ['--threads', String(threads)] : []),
];
const out = path.join(outDir, 'classify-out.csv');
const configs = [
  {
    label: 'peer: csv-parse → robots-parser → csv-stringify (1 thread)',
    argv: [
      path.join(here, 'peer-classify.mjs'),
      input,
      path.join(dir, 'robots'),
      agent,
      path.join(outDir, 'peer-out.csv'),
    ],
  },
  { label: `robots-audit classify (default threads: ${os.availableParallelism()})`, argv: ours(dir, out) },
  { label: 'robots-audit classify --threads 1', argv: ours(dir, out, 1) },
];

const load = os.loadavg()[0];
const runsOf = await alternate(configs, repeat);
const written = (await countLines(out)) - 1;
if (written !== rows) throw new Error(`classify wrote ${written} rows for ${rows}`);
const [peer, multi, single] = runsOf.map(summary);
const us = (s) => (s * 1e6) / rows;

console.log(
  `Workload: make-crawl ${fmt(rows)} rows, ${fmt(hosts)} hosts, --robots-dir, agent ${agent}; ${repeat} ` +
    'round(s) alternating the configurations; CPU and wall are medians, peak RSS the maximum over the rounds.',
);
console.log(`${machine(load)}\n`);
console.log(
  '| run | CPU (s) | wall (s) | µs CPU/row | rows/s (wall) | peer CPU ÷ this | peer wall ÷ this | peak RSS (MiB) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
[peer, multi, single].forEach((r, k) => {
  console.log(
    `| ${configs[k].label} | ${r.cpuS.toFixed(2)} | ${r.wallS.toFixed(2)} | ${us(r.cpuS).toFixed(2)} | ` +
      `${fmt(Math.round(rows / r.wallS))} | ${(peer.cpuS / r.cpuS).toFixed(2)}× | ${(peer.wallS / r.wallS).toFixed(2)}× | ` +
      `${r.rssMiB.toFixed(0)} |`,
  );
});

const ratio = (k, key) => (i) => runsOf[0][i][key] / runsOf[k][i][key];
const rss = (k) => (i) => runsOf[k][i].rssMiB;
const cpuRatio = peer.cpuS / multi.cpuS;
const wallRatio = peer.wallS / multi.wallS;
console.log('\n| target | figure | per round | status |');
console.log('|---|---:|---|---|');
console.log(
  `| peer CPU ÷ classify CPU ≥ ${MIN_CPU_RATIO}× (default threads) | ${cpuRatio.toFixed(2)}× | ` +
    `${perRound(repeat, ratio(1, 'cpuS'))} | ${status(cpuRatio >= MIN_CPU_RATIO)} |`,
);
console.log(
  `| peer wall ÷ classify wall ≥ ${MIN_WALL_RATIO}× (default threads) | ${wallRatio.toFixed(2)}× | ` +
    `${perRound(repeat, ratio(1, 'wallS'))} | ${status(wallRatio >= MIN_WALL_RATIO)} |`,
);
console.log(
  `| peak RSS < ${MAX_RSS_MIB} MiB (default threads) | ${multi.rssMiB.toFixed(0)} MiB | ` +
    `${perRound(repeat, rss(1), 0)} | ${status(multi.rssMiB < MAX_RSS_MIB)} |`,
);
console.log(
  `| peak RSS < ${MAX_RSS_ONE_THREAD_MIB} MiB (--threads 1) | ${single.rssMiB.toFixed(0)} MiB | ` +
    `${perRound(repeat, rss(2), 0)} | ${status(single.rssMiB < MAX_RSS_ONE_THREAD_MIB)} |`,
);
console.log(
  `\n--threads 1 against the peer (no target): CPU ${(peer.cpuS / single.cpuS).toFixed(2)}× ` +
    `(${perRound(repeat, ratio(2, 'cpuS'))}), wall ${(peer.wallS / single.wallS).toFixed(2)}× ` +
    `(${perRound(repeat, ratio(2, 'wallS'))}).`,
);

if (flat) {
  const bigDir = crawlWorkload('classify', flatRows, hosts);
  const big = await measuredRun(ours(bigDir, path.join(outDir, 'classify-flat-out.csv')));
  const growth = (big.rssMiB - multi.rssMiB) / multi.rssMiB;
  console.log(
    '\n| RSS flatness (default threads) | rows | CPU (s) | wall (s) | peak RSS (MiB) |\n|---|---:|---:|---:|---:|',
  );
  console.log(
    `| ${fmt(rows)} rows | ${fmt(rows)} | ${multi.cpuS.toFixed(2)} | ${multi.wallS.toFixed(2)} | ${multi.rssMiB.toFixed(0)} |`,
  );
  console.log(
    `| ${fmt(flatRows)} rows | ${fmt(flatRows)} | ${big.cpuS.toFixed(2)} | ${big.wallS.toFixed(2)} | ${big.rssMiB.toFixed(0)} |`,
  );
  console.log(
    `\nRSS at ${fmt(flatRows)} rows is ${(100 * growth).toFixed(1)} % above RSS at ${fmt(rows)} rows ` +
      `(target ≤ ${100 * MAX_FLAT_GROWTH} %): ${status(growth <= MAX_FLAT_GROWTH)}.`,
  );
}
