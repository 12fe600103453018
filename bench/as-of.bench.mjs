#!/usr/bin/env node
// As-of classification against the same run without times: the make-crawl workload (2M rows over ~20k
// hosts, ../shared/bench/make-crawl.mjs) with a time column spread over 40 days, and a cache holding three
// versions of every host's robots.txt (its file; the file plus one Disallow; the file again, 10 days apart).
// Runs `classify --at-column time --cache C` and `classify --offline --cache C` (every row under the
// current version) on the same rows, and prints wall, CPU (user + system), peak RSS and rows/s, with the
// as-of ÷ plain rows/s ratio against the ≥ 80 % target and RSS against < 300 MiB. A third run, as of a
// time against a copy of the cache whose versions all serve the first one's body, tells what picking a
// version per row costs apart from holding a second body per origin. A fourth run, against a cache of 20
// versions per origin that differ only in a comment (a file stamped with its build time), tells what a long
// history costs when no agent's rules change. Options: --rows N (2000000), --repeat R (1): rounds alternating
// the first three runs (the fourth runs once), CPU and wall their medians, each round's ratio printed.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asOfWorkload, LONG_VERSIONS } from './as-of-workload.mjs';
import { numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';
import { alternate, perRound, summary } from './rounds.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli', 'main.js');
const rows = numericArg('rows', 2_000_000);
const repeat = numericArg('repeat', 1);
const hosts = 20_000;

const { work, input, cachePath, oneBodyPath, longPath } = await asOfWorkload('as-of bench', rows, hosts);
const base = [
  cli,
  'classify',
  input,
  '--agent',
  'Googlebot',
  '--cache',
  cachePath,
  '-o',
  path.join(work, 'out.csv'),
  '--quiet',
];
const load = os.loadavg()[0].toFixed(2);
const runsOf = await alternate(
  [
    { label: 'without times', argv: [...base, '--offline'] },
    { label: 'as of a time', argv: [...base, '--at-column', 'time'] },
    {
      label: 'as of a time, one body',
      argv: [...base.slice(0, 6), oneBodyPath, ...base.slice(7), '--at-column', 'time'],
    },
  ],
  repeat,
);
const [plain, asOf, oneBody] = runsOf.map(summary);
/** Round i's rows per CPU-second of configuration k ÷ the plain run's, in %. */
const roundRatio = (k) => (i) => (100 * runsOf[0][i].cpuS) / runsOf[k][i].cpuS;
const longRun = await measuredRun([...base.slice(0, 6), longPath, ...base.slice(7), '--at-column', 'time']);
const rps = (r) => rows / r.wallS;
const cpuRatio = plain.cpuS / asOf.cpuS;
const wallRatio = rps(asOf) / rps(plain);
console.log(
  `Workload: ${rows.toLocaleString('en-US')} make-crawl rows over ${hosts.toLocaleString('en-US')} hosts with a time column; a cache with 3 versions per origin; agent Googlebot, default threads; ${repeat} round(s) alternating the first three runs (CPU and wall their medians, peak RSS the maximum).`,
);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}, load average ${load} at start; ${new Date().toISOString()}\n`,
);
console.log('| run | wall (s) | CPU (s) | rows/s | peak RSS (MiB) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of [
  ['classify --offline (current version)', plain],
  ['classify --at-column time', asOf],
  ['classify --at-column time, every version one body', oneBody],
  [`classify --at-column time, ${LONG_VERSIONS} versions per origin (a comment changed)`, longRun],
]) {
  console.log(
    `| ${name} | ${r.wallS.toFixed(2)} | ${r.cpuS.toFixed(2)} | ${Math.round(rps(r)).toLocaleString('en-US')} | ${r.rssMiB.toFixed(0)} |`,
  );
}
const pass = cpuRatio >= 0.8 && asOf.rssMiB < 300;
console.log(
  `\nOne body per origin: rows/s by CPU ${((plain.cpuS / oneBody.cpuS) * 100).toFixed(0)} % of plain (rounds: ${perRound(repeat, roundRatio(2), 0)}), ${oneBody.rssMiB.toFixed(0)} MiB (the cost of picking a version per row, without a second body to hold).`,
);
console.log(
  `\nAs-of ÷ plain: rows/s by CPU ${(cpuRatio * 100).toFixed(0)} % (rounds: ${perRound(repeat, roundRatio(1), 0)}), by wall ${(wallRatio * 100).toFixed(0)} %; peak RSS ${asOf.rssMiB.toFixed(0)} MiB. Targets: ≥ 80 %, < 300 MiB: ${pass ? 'PASS' : 'FAIL'}`,
);
