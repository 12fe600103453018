#!/usr/bin/env node
// Cost per row as distinct origins grow: `robots-audit classify` on N rows over few origins (--few, 20k)
// and on N rows where every row has a host of its own, with an empty --robots-dir (no host has a file;
// --robots-share S gives that share of the hosts a robots.txt). Prints a markdown table: wall, CPU
// (user + system, all threads), peak RSS, µs per row, and the many ÷ few ratio of per-row cost, with
// PASS/FAIL against ≤ 2× (CPU) and < 300 MiB. Options: --rows N (2000000) --few H (20000)
// --many H (= rows) --robots-share S (0) --threads T (default). The workload is built under bench/out/.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun } from './measured-run.mjs';
import { makeOriginWorkload } from './origin-workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? def : Number(args[i + 1]);
};
const rows = opt('rows', 2_000_000);
const few = opt('few', 20_000);
const many = opt('many', rows);
const share = opt('robots-share', 0);
const threads = opt('threads', 0);
const MAX_RATIO = 2;
const MAX_RSS_MIB = 300;

if (!existsSync(cli)) {
  console.error('build first: npm run build');
  process.exit(1);
}

async function workload(origins) {
  const dir = path.join(here, 'out', `origins-${rows}-${origins}-${share}`);
  if (!existsSync(path.join(dir, 'crawl.csv'))) {
    console.error(`building the workload (${rows} rows over ${origins} origins) in ${dir} …`);
    await makeOriginWorkload({ dir, rows, origins, robotsShare: share });
  }
  return dir;
}

async function measure(origins) {
  const dir = await workload(origins);
  const argv = [cli, 'classify', path.join(dir, 'crawl.csv'), '--robots-dir', path.join(dir, 'robots')];
  argv.push('--agent', 'Googlebot', '-o', path.join(dir, 'out.csv'), '--quiet');
  if (threads > 0) argv.push('--threads', String(threads));
  return { origins, ...(await measuredRun(argv)) };
}

const load = os.loadavg()[0].toFixed(2);
const results = [await measure(few), await measure(many)];
const us = (s) => (s * 1e6) / rows;
const [a, b] = results;
const cpuRatio = b.cpuS / a.cpuS;
const wallRatio = b.wallS / a.wallS;
const fmt = (n) => n.toLocaleString('en-US');

console.log(
  `Workload: ${fmt(rows)} rows of host,url (bench/origin-workload.mjs), --robots-dir with files for ` +
    `${share * 100} % of hosts, agent Googlebot, ${threads > 0 ? `--threads ${threads}` : 'default threads'}.`,
);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}, ` +
    `load average ${load} at start; ${new Date().toISOString()}\n`,
);
console.log('| origins | wall (s) | CPU (s) | µs/row wall | µs/row CPU | peak RSS (MiB) |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${fmt(r.origins)} | ${r.wallS.toFixed(2)} | ${r.cpuS.toFixed(2)} | ${us(r.wallS).toFixed(2)} | ` +
      `${us(r.cpuS).toFixed(2)} | ${r.rssMiB.toFixed(0)} |`,
  );
}
const rss = Math.max(a.rssMiB, b.rssMiB);
const pass = cpuRatio <= MAX_RATIO && rss < MAX_RSS_MIB;
console.log(
  `\nPer-row cost, ${fmt(many)} ÷ ${fmt(few)} origins: CPU ${cpuRatio.toFixed(2)}×, wall ${wallRatio.toFixed(2)}×; ` +
    `peak RSS ${rss.toFixed(0)} MiB. Targets: CPU ≤ ${MAX_RATIO}×, RSS < ${MAX_RSS_MIB} MiB: ${pass ? 'PASS' : 'FAIL'}` +
    ` (wall ${wallRatio <= MAX_RATIO ? 'within' : 'beyond'} ${MAX_RATIO}× too).`,
);
