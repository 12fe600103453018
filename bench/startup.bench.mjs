#!/usr/bin/env node
// Start-up cost: short runs of the CLI, each in a process of its own, measured as wall time and CPU time
// (user + system, every thread: bench/measured-run.mjs). Target: a one-row classify in < 0.3 s.
// Cases: a one-row classify with --robots-dir (default threads, and --threads 1), a one-row classify
// with --offline --cache (SQLite), `--help`, `check`, and, for reference, a classify of two batches
// (≈ 80 KiB: coordinator and worker threads start). Rounds alternate the cases (and the builds), so a
// noisy spell on a shared machine hits all of them; medians and min–max are printed.
// Options: --repeat R (15) --cli PATH (dist/cli/main.js; give it twice to compare two builds, alternated).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI, numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repeat = numericArg('repeat', 15);
const TARGET_S = 0.3;

const args = process.argv.slice(2);
const clis = args.flatMap((a, i) => (a === '--cli' ? [path.resolve(args[i + 1])] : []));
if (clis.length === 0) clis.push(CLI);

// The inputs, built once under bench/out/startup/.
const dir = path.join(here, 'out', 'startup');
const robots = path.join(dir, 'robots');
mkdirSync(robots, { recursive: true });
const oneRow = path.join(dir, 'one.csv');
writeFileSync(oneRow, 'host,url\na.example,http://a.example/x\n');
const twoBatches = path.join(dir, 'two-batches.csv');
let rows = 'host,url\n';
for (let i = 0; rows.length < 80 * 1024; i++) rows += `h${i % 50}.example,http://h${i % 50}.example/p/${i}\n`;
writeFileSync(twoBatches, rows);
const robotsTxt = path.join(dir, 'robots.txt');
writeFileSync(robotsTxt, 'User-agent: *\nDisallow: /private\n');
writeFileSync(path.join(robots, 'h1.example.txt'), 'User-agent: *\nDisallow: /p/1\n');
const cache = path.join(dir, 'cache.sqlite');
const out = path.join(os.tmpdir(), `startup-bench-${process.pid}.csv`);

// An empty cache of the current schema, made by the build under test.
const { PolicyCache } = await import(
  pathToFileURL(path.join(path.dirname(clis[0]), '..', 'pipeline', 'cache', 'policy-cache.js')).href
);
new PolicyCache(cache).close();

const classify = (input, ...extra) => [
  'classify',
  input,
  '--agent',
  'Googlebot',
  '-o',
  out,
  '--quiet',
  ...extra,
];
const CASES = [
  { name: 'classify, one row, --robots-dir', argv: classify(oneRow, '--robots-dir', robots), target: true },
  {
    name: 'classify, one row, --robots-dir, --threads 1',
    argv: classify(oneRow, '--robots-dir', robots, '--threads', '1'),
    target: true,
  },
  {
    name: 'classify, one row, --offline --cache',
    argv: classify(oneRow, '--offline', '--cache', cache),
    target: true,
  },
  { name: '--help', argv: ['--help'] },
  { name: 'check, one URL', argv: ['check', '--robots', robotsTxt, '--agent', 'Googlebot', '/x'] },
  {
    name: 'classify, two batches (80 KiB), --robots-dir',
    argv: classify(twoBatches, '--robots-dir', robots),
  },
];

const results = new Map();
for (let r = 0; r < repeat; r++) {
  for (const c of CASES) {
    for (const cli of clis) {
      const m = await measuredRun([cli, ...c.argv]);
      const key = `${c.name}\u0000${cli}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(m);
    }
  }
}

rmSync(out, { force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f = (x) => x.toFixed(3);
const spread = (xs) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;

console.log(
  `\nStart-up: ${repeat} alternated rounds, ${os.availableParallelism()} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end. Median (min–max) per case; target: a one-row classify in < ${TARGET_S} s.\n`,
);
const withBuild = clis.length > 1;
console.log(
  `| case${withBuild ? ' | build' : ''} | wall (s) | CPU, user + sys (s) | peak RSS (MiB) | < ${TARGET_S} s |`,
);
console.log(`|---${withBuild ? '|---' : ''}|---:|---:|---:|---|`);
for (const c of CASES) {
  for (const cli of clis) {
    const ms = results.get(`${c.name}\u0000${cli}`);
    const wall = ms.map((m) => m.wallS);
    const cpu = ms.map((m) => m.cpuS);
    const rss = median(ms.map((m) => m.rssMiB)).toFixed(0);
    // Met when the median run is under the target in wall time and in CPU time alike.
    const met = c.target ? (Math.max(median(wall), median(cpu)) < TARGET_S ? 'met' : '**not met**') : '–';
    const build = withBuild ? ` | ${path.relative(process.cwd(), cli) || cli}` : '';
    console.log(`| ${c.name}${build} | ${spread(wall)} | ${spread(cpu)} | ${rss} | ${met} |`);
  }
}
