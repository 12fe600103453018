#!/usr/bin/env node
// The nightly report's read speed: `robots-audit report` and `robots-audit diff` over a classify output of the
// make-crawl workload (two agents), against csv-parse reading the same file (the floor of a CSV reader) in the
// same run. Prints a markdown table: wall, CPU (user + system), peak RSS, rows per CPU-second, and PASS/FAIL
// against ≥ 300k rows per CPU-second and < 300 MiB; the `--robots-dir` run, which also reads and judges every
// host's robots.txt for each known crawler, against the memory budget only. Options: --rows N (2000000)
// --hosts H (20000).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, crawlWorkload, numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = numericArg('rows', 2_000_000);
const hosts = numericArg('hosts', 20_000);
const MIN_ROWS_PER_CPU_S = 300_000;
const MAX_RSS_MIB = 300;

const dir = crawlWorkload('report', rows, hosts);
const verdicts = path.join(dir, 'verdicts-2-agents.csv');
if (!existsSync(verdicts)) {
  console.error(`classifying the workload for two agents into ${verdicts} …`);
  const argv = [CLI, 'classify', path.join(dir, 'crawl.csv'), '--robots-dir', path.join(dir, 'robots')];
  argv.push('--agent', 'Googlebot', '--agent', 'GPTBot', '-o', verdicts, '--quiet');
  const r = await measuredRun(argv, { timeoutMs: 30 * 60_000 });
  if (!existsSync(verdicts)) {
    console.error(`classify failed: ${r.stderr}`);
    process.exit(1);
  }
}

const peer = path.join(here, 'peer-csv-count.mjs');
const runs = [
  ['csv-parse (peer: parse every record)', [peer, verdicts]],
  [
    'report --json (verdict columns only)',
    [CLI, 'report', verdicts, '--json', path.join(dir, 'r.json'), '--quiet'],
  ],
  [
    'report -o --json --robots-dir (crawler access too; memory target only)',
    [
      CLI,
      'report',
      verdicts,
      '--robots-dir',
      path.join(dir, 'robots'),
      '-o',
      path.join(dir, 'r.html'),
      '--json',
      path.join(dir, 'r2.json'),
      '--quiet',
    ],
  ],
  [
    'diff (same file twice, by position)',
    [CLI, 'diff', verdicts, verdicts, '-o', path.join(dir, 'd.csv'), '--quiet'],
  ],
];

const load = os.loadavg()[0].toFixed(2);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const results = [];
for (const [name, argv] of runs) {
  const r = await measuredRun(argv, { timeoutMs: 30 * 60_000 });
  if (!/diff|csv-parse/.test(name) && !existsSync(argv[argv.indexOf('--json') + 1])) {
    console.error(`${name} failed: ${r.stderr}`);
    process.exit(1);
  }
  results.push({ name, ...r });
}
const floor = results[0];
console.log(
  `${fmt(rows)} rows of a two-agent classify output (${hosts.toLocaleString('en-US')} hosts); load ${load}\n`,
);
console.log(
  '| run | wall s | CPU s (user + sys) | peak RSS MiB | rows per CPU-s | CPU ÷ csv-parse | target |',
);
console.log('|---|---:|---:|---:|---:|---:|---|');
let failed = false;
for (const r of results) {
  const perCpu = rows / r.cpuS;
  const isPeer = r === floor;
  // Reading speed is the target; the crawler-access run adds a robots.txt read and judged per host and crawler.
  const speedOk = r.name.includes('--robots-dir') || perCpu >= MIN_ROWS_PER_CPU_S;
  const ok = speedOk && r.rssMiB < MAX_RSS_MIB;
  if (!isPeer && !ok) failed = true;
  const target = isPeer ? '' : ok ? 'PASS' : 'FAIL';
  console.log(
    `| ${r.name} | ${r.wallS.toFixed(2)} | ${r.cpuS.toFixed(2)} (${r.userS.toFixed(2)} + ${r.sysS.toFixed(2)}) | ${r.rssMiB.toFixed(0)} | ${fmt(perCpu)} | ${(r.cpuS / floor.cpuS).toFixed(2)} | ${target} |`,
  );
}
console.log(
  `\nTargets: ≥ ${fmt(MIN_ROWS_PER_CPU_S)} rows per CPU-second reading a verdict file, < ${MAX_RSS_MIB} MiB for every run.`,
);
process.exitCode = failed ? 1 : 0;
