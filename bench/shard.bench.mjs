#!/usr/bin/env node
// Cost of host-sharded runs: N runs of `classify --shard K/N`, each reading the whole make-crawl workload,
// against one unsharded run, in CPU time (user + system, every thread: bench/measured-run.mjs). Each shard
// reads and scans every row but judges only its own, so the N shards' summed CPU over the single run's
// is what sharding costs in all (target: ≤ 1.3×). Prints a markdown table, one line per repeat, runs
// alternated. Options: --rows N (1000000) --hosts H (20000) --shards N (4) --repeat R (2) --threads T
// (default: the CLI's). Needs ../shared/bench/make-crawl.mjs (the workload is built once under bench/out/).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun } from './measured-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? def : Number(args[i + 1]);
};
const rows = opt('rows', 1_000_000);
const hosts = opt('hosts', 20_000);
const shards = opt('shards', 4);
const repeat = opt('repeat', 2);
const threads = opt('threads', undefined);
const makeCrawl = path.join(root, '..', 'shared', 'bench', 'make-crawl.mjs');
const cli = path.join(root, 'dist', 'cli', 'main.js');

if (!existsSync(makeCrawl)) {
  console.log('shard bench skipped: ../shared/bench/make-crawl.mjs is not present');
  process.exit(0);
}
if (!existsSync(cli)) {
  console.error('build first: npm run build');
  process.exit(1);
}

const dir = path.join(here, 'out', `classify-${rows}-${hosts}`);
if (!existsSync(path.join(dir, 'crawl.csv'))) {
  console.error(`building the workload (${rows} rows, ${hosts} hosts) in ${dir} …`);
  const r = spawnSync(
    process.execPath,
    [makeCrawl, '--out', dir, '--rows', String(rows), '--hosts', String(hosts)],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) process.exit(1);
}
const out = path.join(here, 'out', 'shard-out.csv');
const summary = path.join(here, 'out', 'shard-summary.json');

/** One classify run, measured; returns its figures and the rows its summary says it wrote. */
async function classify(extra) {
  const argv = [cli, 'classify', path.join(dir, 'crawl.csv'), '--robots-dir', path.join(dir, 'robots')];
  argv.push('--agent', 'Googlebot', '-o', out, '--summary', summary, '--quiet', ...extra);
  if (threads !== undefined) argv.push('--threads', String(threads));
  const m = await measuredRun(argv);
  const s = JSON.parse(readFileSync(summary, 'utf8'));
  return { ...m, rows: s.rowsWritten };
}

const f = (x, d = 2) => x.toFixed(d);
const lines = [];
for (let r = 0; r < repeat; r++) {
  const single = await classify([]);
  const parts = [];
  for (let k = 1; k <= shards; k++) parts.push(await classify(['--shard', `${k}/${shards}`]));
  const written = parts.reduce((a, p) => a + p.rows, 0);
  if (written !== single.rows)
    throw new Error(`the shards wrote ${written} rows, the single run ${single.rows}`);
  const cpu = parts.reduce((a, p) => a + p.cpuS, 0);
  const wall = parts.reduce((a, p) => a + p.wallS, 0);
  lines.push(
    `| ${r + 1} | ${f(single.cpuS)} | ${parts.map((p) => f(p.cpuS)).join(' + ')} = ${f(cpu)} | **${f(cpu / single.cpuS)}×** | ${f(single.wallS)} | ${f(wall)} (max ${f(Math.max(...parts.map((p) => p.wallS)))}) | ${f(single.rssMiB, 0)} / ${f(Math.max(...parts.map((p) => p.rssMiB)), 0)} |`,
  );
}
rmSync(out, { force: true });
rmSync(summary, { force: true });

console.log(
  `\nmake-crawl ${rows.toLocaleString('en-US')} rows over ${hosts.toLocaleString('en-US')} hosts, --robots-dir, Googlebot; ${shards} shards each reading the whole input, run one after another, against one unsharded run (target: summed CPU ≤ 1.3×).\n`,
);
console.log(
  '| repeat | single CPU (s) | shards CPU (s) | shards ÷ single | single wall (s) | shards wall, summed (s) | peak RSS single / shard (MiB) |',
);
console.log('|---:|---:|---|---:|---:|---:|---:|');
for (const l of lines) console.log(l);
