#!/usr/bin/env node
// Cost of host-sharded runs: N runs of `classify --shard K/N`, each reading the whole make-crawl workload,
// against one unsharded run, in CPU time (user + system, every thread: bench/measured-run.mjs). Each shard
// reads and scans every row but judges only its own, so the N shards' summed CPU over the single run's
// is what sharding costs in all (target: ≤ 1.3×). Prints a markdown table, one line per repeat, runs
// alternated. Options: --rows N (1000000) --hosts H (20000) --shards N (4) --repeat R (2) --threads T
// (default: the CLI's), --cli PATH (another build's dist/cli/main.js, to compare builds). Also prints what
// an extra shard pays: the fixed cost of a run, and the reading and dropping of every row, and what the
// reading thread's shard filter costs per dropped row. Needs ../shared/bench/make-crawl.mjs (the workload
// is built once under bench/out/).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI, crawlWorkload, numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rows = numericArg('rows', 1_000_000);
const hosts = numericArg('hosts', 20_000);
const shards = numericArg('shards', 4);
const repeat = numericArg('repeat', 2);
const threads = numericArg('threads', undefined);
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt < 0 ? CLI : path.resolve(process.argv[cliAt + 1]);
const dir = crawlWorkload('shard', rows, hosts);
const out = path.join(here, 'out', 'shard-out.csv');
const summary = path.join(here, 'out', 'shard-summary.json');

/** One classify run, measured; returns its figures and the rows its summary says it wrote. */
async function classify(extra, input = path.join(dir, 'crawl.csv')) {
  const argv = [cli, 'classify', input, '--robots-dir', path.join(dir, 'robots')];
  argv.push('--agent', 'Googlebot', '-o', out, '--summary', summary, '--quiet', ...extra);
  if (threads !== undefined) argv.push('--threads', String(threads));
  const m = await measuredRun(argv);
  const s = JSON.parse(readFileSync(summary, 'utf8'));
  return { ...m, rows: s.rowsWritten, threads: s.threads };
}

const f = (x, d = 2) => x.toFixed(d);

/** A file under bench/out/ with the header and the first `records` lines of the workload's input. */
function headOfInput(name, records) {
  const file = path.join(here, 'out', name);
  const text = readFileSync(path.join(dir, 'crawl.csv'), 'latin1');
  writeFileSync(file, text.split('\n', records + 1).join('\n'), 'latin1');
  return file;
}
const lines = [];
const costs = [];
for (let r = 0; r < repeat; r++) {
  const single = await classify([]);
  const parts = [];
  for (let k = 1; k <= shards; k++) parts.push(await classify(['--shard', `${k}/${shards}`]));
  const written = parts.reduce((a, p) => a + p.rows, 0);
  if (written !== single.rows)
    throw new Error(`the shards wrote ${written} rows, the single run ${single.rows}`);
  const cpu = parts.reduce((a, p) => a + p.cpuS, 0);
  const wall = parts.reduce((a, p) => a + p.wallS, 0);
  // Where an extra shard's CPU goes: a run's fixed cost (a one-row input), and reading and dropping
  // every row (a shard that keeps none: no host of the workload hashes to 1,000,000 of 1,000,000).
  const oneRow = headOfInput('shard-one-row.csv', 1);
  const fixed = await classify([], oneRow);
  // A one-row input runs without threads; 3,000 rows (≈ 2,000 origins) are judged like a small shard's.
  const fewRows = headOfInput('shard-few-rows.csv', 3000);
  const threaded = await classify([], fewRows);
  const none = await classify(['--shard', '1000000/1000000']);
  rmSync(oneRow, { force: true });
  rmSync(fewRows, { force: true });
  costs.push(
    `| ${r + 1} | ${f(fixed.cpuS)} | ${f(threaded.cpuS)} | ${f(none.cpuS - fixed.cpuS)} | ${none.rows} |`,
  );
  lines.push(
    `| ${r + 1} | ${f(single.cpuS)} | ${parts.map((p) => f(p.cpuS)).join(' + ')} = ${f(cpu)} | **${f(cpu / single.cpuS)}×** | ${f(single.wallS)} | ${f(wall)} (max ${f(Math.max(...parts.map((p) => p.wallS)))}) | ${f(single.rssMiB, 0)} / ${f(Math.max(...parts.map((p) => p.rssMiB)), 0)} | ${single.threads} / ${parts.map((p) => p.threads).join(', ')} |`,
  );
}
rmSync(out, { force: true });
rmSync(summary, { force: true });

console.log(
  `\nmake-crawl ${rows.toLocaleString('en-US')} rows over ${hosts.toLocaleString('en-US')} hosts, --robots-dir, Googlebot; ${shards} shards each reading the whole input, run one after another, against one unsharded run (target: summed CPU ≤ 1.3×).\n`,
);
console.log(
  '| repeat | single CPU (s) | shards CPU (s) | shards ÷ single | single wall (s) | shards wall, summed (s) | peak RSS single / shard (MiB) | threads single / shards |',
);
console.log('|---:|---:|---|---:|---:|---:|---:|---|');
for (const l of lines) console.log(l);
console.log(
  '\nWhat each shard pays beyond its share of the rows: the fixed cost of a run (process, threads, modules, the robots directory listed), and reading and scanning the whole input with every row dropped.\n',
);
console.log(
  '| repeat | fixed CPU of a run, one row (s) | … 3,000 rows (s) | reading and dropping every row (s) | rows kept |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const l of costs) console.log(l);

// The reading thread's shard filter alone, in this thread: the workload cut into batches as a run cuts
// them, each batch sifted for one shard; what a dropped row costs is the filter's CPU over the rows dropped.
const dist = (rel) => import(pathToFileURL(path.join(path.dirname(cli), '..', rel)).href);
const { Batcher } = await dist('pipeline/input/batcher.js');
const { ShardFilter } = await dist('pipeline/input/shard-filter.js').catch(() => ({ ShardFilter: null }));
if (ShardFilter === null) process.exit(0);
const body = readFileSync(path.join(dir, 'crawl.csv'));
const config = { delimiter: ',', urlIndex: 1, columns: 2, lineMode: false };
function sift(shard) {
  const batcher = new Batcher(44);
  const filter = new ShardFilter({ ...config, shard }, batcher.pool);
  let kept = 0;
  const take = (list) => {
    for (const b of list) {
      kept += b.ordinals === null ? 0 : b.ordinals.length;
      batcher.pool.give(b.bytes.buffer);
    }
  };
  const t0 = process.cpuUsage();
  for (let p = body.indexOf(10) + 1; p < body.length; p += 1 << 16) {
    for (const b of batcher.push(body.subarray(p, Math.min(body.length, p + (1 << 16)))))
      take(filter.push(b));
  }
  for (const b of batcher.end()) take(filter.push(b));
  take(filter.flush());
  const u = process.cpuUsage(t0);
  return { ms: (u.user + u.system) / 1000, kept };
}
sift({ index: 1, count: shards }); // warm-up: compiled code
const own = [];
for (let k = 1; k <= shards; k++) own.push(sift({ index: k, count: shards }));
const dropped = sift({ index: 1_000_000, count: 1_000_000 });
console.log(
  "\nThe reading thread's shard filter in this thread (CPU ms, the input cut into batches and sifted):\n",
);
console.log('| shards | every row dropped | per dropped row |');
console.log('|---|---:|---:|');
console.log(
  `| ${own.map((o) => f(o.ms, 0)).join(' + ')} | ${f(dropped.ms, 0)} | ${f((dropped.ms * 1000) / (rows - dropped.kept), 2)} µs |`,
);
