#!/usr/bin/env node
// `robots-audit classify` on a crawl frontier's shape, few rows per origin, against the plain pipeline a user
// would write (bench/peer-classify.mjs), in alternating rounds. The workload (bench/many-hosts-workload.mjs)
// renames each row's host of a make-crawl workload to one of --aliases names, so ≈ 150k origins share the
// corpus's robots.txt files through hard links. Prints a markdown table: CPU (user + system, all threads),
// wall, µs of CPU per row, peak RSS, against peer CPU ÷ classify CPU ≥ 1.5× and RSS < 300 MiB. Options:
// --rows N (1000000) --hosts H (20000) --aliases K (13) --repeat R (1: rounds) --threads T (default).
// Needs ../shared/bench/make-crawl.mjs (the workloads are built under bench/out/).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, crawlWorkload, numericArg } from './crawl-workload.mjs';
import { makeManyHostsWorkload } from './many-hosts-workload.mjs';
import { alternate, countLines, fmt, machine, perRound, status, summary } from './rounds.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = numericArg('rows', 1_000_000);
const hosts = numericArg('hosts', 20_000);
const aliases = numericArg('aliases', 13);
const repeat = numericArg('repeat', 1);
const threads = numericArg('threads', 0);
const agent = 'Googlebot';
const MIN_CPU_RATIO = 1.5;
const MAX_RSS_MIB = 300;

const source = crawlWorkload('many-hosts', rows, hosts);
const dir = path.join(here, 'out', `many-hosts-${rows}-${hosts}-${aliases}`);
const meta = path.join(dir, 'workload.json');
if (!existsSync(meta)) {
  console.error(`building the many-hosts workload (${aliases} names per host) in ${dir} …`);
  const built = await makeManyHostsWorkload({ source, dir, aliases });
  writeFileSync(meta, JSON.stringify({ rows: built.rows, origins: built.origins, files: built.files }));
}
const { origins, files } = JSON.parse(readFileSync(meta, 'utf8'));
const input = path.join(dir, 'crawl.csv');
const robots = path.join(dir, 'robots');
const out = path.join(here, 'out', 'many-hosts-out.csv');
const configs = [
  {
    label: 'peer: csv-parse → robots-parser → csv-stringify (1 thread)',
    argv: [
      path.join(here, 'peer-classify.mjs'),
      input,
      robots,
      agent,
      path.join(here, 'out', 'many-hosts-peer-out.csv'),
    ],
  },
  {
    label: `robots-audit classify (${threads > 0 ? `--threads ${threads}` : `default threads: ${os.availableParallelism()}`})`,
    argv: [CLI, 'classify', input, '--robots-dir', robots, '--agent', agent, '-o', out, '--quiet'].concat(
      threads > 0 ? ['--threads', String(threads)] : [],
    ),
  },
];

const load = os.loadavg()[0];
const runsOf = await alternate(configs, repeat);
const written = (await countLines(out)) - 1;
if (written !== rows) throw new Error(`classify wrote ${written} rows for ${rows}`);
const [peer, ours] = runsOf.map(summary);
const us = (s) => (s * 1e6) / rows;

console.log(
  `Workload: bench/many-hosts-workload.mjs over make-crawl ${fmt(rows)} rows, ${fmt(hosts)} hosts, ${aliases} ` +
    `names per host: ${fmt(origins)} distinct origins (${(rows / origins).toFixed(1)} rows each), ${fmt(files)} ` +
    `robots.txt files (hard links), agent ${agent}; ${repeat} round(s) alternating the configurations; CPU and ` +
    'wall are medians, peak RSS the maximum over the rounds.',
);
console.log(`${machine(load)}\n`);
console.log(
  '| run | CPU (s) | wall (s) | µs CPU/row | peer CPU ÷ this | peer wall ÷ this | peak RSS (MiB) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
[peer, ours].forEach((r, k) => {
  console.log(
    `| ${configs[k].label} | ${r.cpuS.toFixed(2)} | ${r.wallS.toFixed(2)} | ${us(r.cpuS).toFixed(2)} | ` +
      `${(peer.cpuS / r.cpuS).toFixed(2)}× | ${(peer.wallS / r.wallS).toFixed(2)}× | ${r.rssMiB.toFixed(0)} |`,
  );
});
const cpuRatio = peer.cpuS / ours.cpuS;
console.log('\n| target | figure | per round | status |');
console.log('|---|---:|---|---|');
console.log(
  `| peer CPU ÷ classify CPU ≥ ${MIN_CPU_RATIO}× | ${cpuRatio.toFixed(2)}× | ` +
    `${perRound(repeat, (i) => runsOf[0][i].cpuS / runsOf[1][i].cpuS)} | ${status(cpuRatio >= MIN_CPU_RATIO)} |`,
);
console.log(
  `| peak RSS < ${MAX_RSS_MIB} MiB | ${ours.rssMiB.toFixed(0)} MiB | ` +
    `${perRound(repeat, (i) => runsOf[1][i].rssMiB, 0)} | ${status(ours.rssMiB < MAX_RSS_MIB)} |`,
);
console.log(
  `\nPer-round wall ratios (peer ÷ classify, no target): ${perRound(repeat, (i) => runsOf[0][i].wallS / runsOf[1][i].wallS)}.`,
);
