#!/usr/bin/env node
// Benchmark of `robots-audit classify` against the plain pipeline a user would write instead (csv-parse →
// npm robots-parser, one parsed object per host → csv-stringify, one thread: bench/peer-classify.mjs), on
// the make-crawl workload, in the same run. Prints a markdown table: wall time, rows/s, ratio to the peer,
// peak RSS. Options: --rows N (2000000) --hosts H (20000) --repeat R (1: runs per configuration, median
// reported) --flat (also run 10M rows for the RSS-flatness figure) --flat-rows N (10000000).
// Needs ../shared/bench/make-crawl.mjs (the workload is built once under bench/out/, git-ignored).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? def : Number(args[i + 1]);
};
const rows = opt('rows', 2_000_000);
const hosts = opt('hosts', 20_000);
const repeat = opt('repeat', 1);
const flat = args.includes('--flat');
const flatRows = opt('flat-rows', 10_000_000);
const makeCrawl = path.join(root, '..', 'shared', 'bench', 'make-crawl.mjs');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const agent = 'Googlebot';

if (!existsSync(makeCrawl)) {
  console.log('classify bench skipped: ../shared/bench/make-crawl.mjs is not present');
  process.exit(0);
}
if (!existsSync(cli)) {
  console.error('build first: npm run build');
  process.exit(1);
}

/** Runs a command; resolves with wall seconds, peak RSS (MiB, from the kernel's high-water mark) and output. */
function run(cmd, argv) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let peakKb = 0;
    const status = `/proc/${child.pid}/status`;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {}
    }, 50);
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => {
      out += b;
    });
    child.stderr.on('data', (b) => {
      err += b;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      const wall = (performance.now() - t0) / 1000;
      if (code !== 0) reject(new Error(`${cmd} ${argv.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else resolve({ wall, rssMiB: peakKb / 1024, out, err });
    });
  });
}

async function workload(n) {
  const dir = path.join(here, 'out', `classify-${n}-${hosts}`);
  if (!existsSync(path.join(dir, 'crawl.csv'))) {
    console.error(`building the workload (${n} rows, ${hosts} hosts) in ${dir} …`);
    await run(process.execPath, [makeCrawl, '--out', dir, '--rows', String(n), '--hosts', String(hosts)]);
  }
  return dir;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Summary of one configuration's runs: median wall, max peak RSS. */
function summarise(label, runs) {
  return {
    label,
    runs,
    wall: median(runs.map((r) => r.wall)),
    rssMiB: Math.max(...runs.map((r) => r.rssMiB)),
  };
}

async function measure(label, cmd, argv) {
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await run(cmd, argv));
  return summarise(label, runs);
}

const dir = await workload(rows);
const input = path.join(dir, 'crawl.csv');
const robots = path.join(dir, 'robots');
const outDir = path.join(here, 'out');
const load = os.loadavg()[0].toFixed(2);

const ours = (threads) => [
  cli,
  'classify',
  input,
  '--robots-dir',
  robots,
  '--agent',
  agent,
  '-o',
  path.join(outDir, 'classify-out.csv'),
  '--quiet',
  ...(threads ? ['--threads', String(threads)] : []),
];
const configs = [
  {
    label: 'peer: csv-parse → robots-parser → csv-stringify (1 thread)',
    argv: [path.join(here, 'peer-classify.mjs'), input, robots, agent, path.join(outDir, 'peer-out.csv')],
  },
  { label: `robots-audit classify (default threads: ${os.availableParallelism()})`, argv: ours() },
  { label: 'robots-audit classify --threads 1', argv: ours(1) },
];
// Rounds interleave the configurations, so that a noisy spell on the shared machine hits all of them alike;
// each round's ratio compares runs made minutes apart at most.
const runsOf = configs.map(() => []);
for (let i = 0; i < repeat; i++) {
  for (let c = 0; c < configs.length; c++) runsOf[c].push(await run(process.execPath, configs[c].argv));
}
const results = configs.map((c, k) => summarise(c.label, runsOf[k]));

const written = readFileSync(path.join(outDir, 'classify-out.csv'), 'utf8').split('\n').length - 2;
if (written !== rows) throw new Error(`classify wrote ${written} rows for ${rows}`);

const peer = results[0].wall;
console.log(
  `Workload: make-crawl ${rows.toLocaleString('en-US')} rows, ${hosts.toLocaleString('en-US')} hosts ` +
    `(${(statSync(input).size / 2 ** 20).toFixed(0)} MiB), --robots-dir, agent ${agent}; ${repeat} run(s) each, median wall time.`,
);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load} at start; ${new Date().toISOString()}\n`,
);
console.log('| run | wall (s) | rows/s | peer time ÷ this | peak RSS (MiB) |');
console.log('|---|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${r.label} | ${r.wall.toFixed(2)} | ${Math.round(rows / r.wall).toLocaleString('en-US')} | ` +
      `${(peer / r.wall).toFixed(2)}× | ${r.rssMiB.toFixed(0)} |`,
  );
}
const roundRatios = (k) =>
  results[0].runs.map((p, i) => (p.wall / results[k].runs[i].wall).toFixed(2)).join(', ');
console.log(
  `\nPer-round ratios (peer ÷ this): default threads ${roundRatios(1)}; --threads 1 ${roundRatios(2)}.`,
);
console.log('\nTargets: default threads ≥ 4× the peer (wall ≤ 1/4), peak RSS < 300 MiB.');

if (flat) {
  const bigDir = await workload(flatRows);
  const big = await measure(
    `robots-audit classify, ${flatRows.toLocaleString('en-US')} rows`,
    process.execPath,
    [
      cli,
      'classify',
      path.join(bigDir, 'crawl.csv'),
      '--robots-dir',
      path.join(bigDir, 'robots'),
      '--agent',
      agent,
      '-o',
      path.join(outDir, 'classify-flat-out.csv'),
      '--quiet',
    ],
  );
  const small = results[1].rssMiB;
  console.log(`\n| RSS flatness | rows | wall (s) | peak RSS (MiB) |\n|---|---:|---:|---:|`);
  console.log(
    `| default threads | ${rows.toLocaleString('en-US')} | ${results[1].wall.toFixed(2)} | ${small.toFixed(0)} |`,
  );
  console.log(
    `| default threads | ${flatRows.toLocaleString('en-US')} | ${big.wall.toFixed(2)} | ${big.rssMiB.toFixed(0)} |`,
  );
  console.log(
    `\nRSS at ${flatRows.toLocaleString('en-US')} rows is ${((100 * (big.rssMiB - small)) / small).toFixed(1)} % ` +
      `above RSS at ${rows.toLocaleString('en-US')} rows (target: within 15 %).`,
  );
}
