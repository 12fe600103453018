#!/usr/bin/env node
// What each further agent costs: `robots-audit classify` of the make-crawl workload with 1, 2 and 4 agents
// (Googlebot, Bingbot, GPTBot, CCBot), default threads, in alternating rounds. Prints a markdown table:
// CPU (user + system, all threads), wall, µs of CPU per row, peak RSS, and the cost of each agent after the
// first as a share of the first's CPU, (cpu(k) − cpu(1)) / ((k − 1) · cpu(1)), against ≤ 0.30, with peak
// RSS < 300 MiB at four agents. Options: --rows N (1000000) --hosts H (20000) --repeat R (2: rounds).
// Needs ../shared/bench/make-crawl.mjs (the workload is built under bench/out/).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, crawlWorkload, numericArg } from './crawl-workload.mjs';
import { alternate, fmt, machine, perRound, status, summary } from './rounds.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = numericArg('rows', 1_000_000);
const hosts = numericArg('hosts', 20_000);
const repeat = numericArg('repeat', 2);
const AGENTS = ['Googlebot', 'Bingbot', 'GPTBot', 'CCBot'];
const COUNTS = [1, 2, 4];
const MAX_SHARE = 0.3;
const MAX_RSS_MIB = 300;

const dir = crawlWorkload('agents', rows, hosts);
const configs = COUNTS.map((k) => ({
  label: AGENTS.slice(0, k).join(', '),
  argv: [
    CLI,
    'classify',
    path.join(dir, 'crawl.csv'),
    '--robots-dir',
    path.join(dir, 'robots'),
    ...AGENTS.slice(0, k).flatMap((a) => ['--agent', a]),
    '-o',
    path.join(here, 'out', `agents-${k}-out.csv`),
    '--quiet',
  ],
}));

const load = os.loadavg()[0];
const runsOf = await alternate(configs, repeat);
const results = runsOf.map(summary);
const us = (s) => (s * 1e6) / rows;
/** The cost of each agent after the first, as a share of the first's: (cpu(k) − cpu(1)) / ((k − 1) cpu(1)). */
const share = (cpuK, cpu1, k) => (cpuK - cpu1) / ((k - 1) * cpu1);

console.log(
  `Workload: make-crawl ${fmt(rows)} rows, ${fmt(hosts)} hosts, --robots-dir, default threads ` +
    `(${os.availableParallelism()}); ${repeat} round(s) alternating the configurations; CPU and wall are ` +
    'medians, peak RSS the maximum over the rounds.',
);
console.log(`${machine(load)}\n`);
console.log(
  '| agents | CPU (s) | wall (s) | µs CPU/row | each further agent ÷ the first (CPU) | peak RSS (MiB) |',
);
console.log('|---|---:|---:|---:|---:|---:|');
results.forEach((r, c) => {
  const k = COUNTS[c];
  const extra = k === 1 ? '' : share(r.cpuS, results[0].cpuS, k).toFixed(2);
  console.log(
    `| ${k}: ${configs[c].label} | ${r.cpuS.toFixed(2)} | ${r.wallS.toFixed(2)} | ${us(r.cpuS).toFixed(2)} | ` +
      `${extra} | ${r.rssMiB.toFixed(0)} |`,
  );
});

console.log('\n| target | figure | per round | status |');
console.log('|---|---:|---|---|');
COUNTS.forEach((k, c) => {
  if (k === 1) return;
  const s = share(results[c].cpuS, results[0].cpuS, k);
  const rounds = perRound(repeat, (i) => share(runsOf[c][i].cpuS, runsOf[0][i].cpuS, k));
  console.log(
    `| ${k} agents: each after the first ≤ ${MAX_SHARE} of the first's CPU | ${s.toFixed(2)} | ${rounds} | ${status(s <= MAX_SHARE)} |`,
  );
});
const four = results[COUNTS.indexOf(4)];
console.log(
  `| peak RSS < ${MAX_RSS_MIB} MiB with 4 agents | ${four.rssMiB.toFixed(0)} MiB | ` +
    `${perRound(repeat, (i) => runsOf[COUNTS.indexOf(4)][i].rssMiB, 0)} | ${status(four.rssMiB < MAX_RSS_MIB)} |`,
);
