#!/usr/bin/env node
// Core engine benchmark: parse and check speed of robots-audit's compiled path against npm robots-parser
// (the JavaScript ecosystem's default) in the same run, on the make-crawl workload built from the shared
// corpus. Usage: node bench/core.bench.mjs [--rows 200000] [--hosts 2000] [--agent Googlebot] [--seconds 2]
// Prints a markdown table; exits non-zero if the benchmark cannot run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numericArg, stringArg } from './crawl-workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const rows = numericArg('rows', 200000);
const hosts = numericArg('hosts', 2000);
const agent = stringArg('agent', 'Googlebot');
const seconds = numericArg('seconds', 2);

function fail(message) {
  console.error(`core.bench: ${message}`);
  process.exit(1);
}

let lib;
try {
  lib = await import(path.join(root, 'dist', 'index.js'));
} catch (err) {
  fail(`cannot load dist/index.js (run \`npm run build\` first): ${err.message}`);
}
const robotsParser = createRequire(import.meta.url)('robots-parser');

// Workload: build it once with the shared generator; bench/out is git-ignored.
const out = path.join(
  root,
  'bench',
  'out',
  rows === 200000 && hosts === 2000 ? 'crawl-core' : `crawl-core-${rows}-${hosts}`,
);
const makeCrawl = path.join(root, '..', 'shared', 'bench', 'make-crawl.mjs');
if (!fs.existsSync(path.join(out, 'crawl.csv'))) {
  if (!fs.existsSync(makeCrawl)) fail(`no workload in ${out} and no generator at ${makeCrawl}`);
  execFileSync(
    process.execPath,
    [makeCrawl, '--out', out, '--rows', String(rows), '--hosts', String(hosts)],
    {
      stdio: 'inherit',
    },
  );
}

const robotsDir = path.join(out, 'robots');
const files = fs.readdirSync(robotsDir).filter((f) => f.endsWith('.txt'));
const bodies = files.map((f) => ({ host: f.slice(0, -4), bytes: fs.readFileSync(path.join(robotsDir, f)) }));
for (const b of bodies) b.text = b.bytes.toString('utf8');
const totalBytes = bodies.reduce((n, b) => n + b.bytes.length, 0);

const csv = fs.readFileSync(path.join(out, 'crawl.csv'), 'utf8').split('\n');
const work = [];
const bodyByHost = new Map(bodies.map((b) => [b.host, b]));
for (let i = 1; i < csv.length; i++) {
  const line = csv[i];
  if (line === '') continue;
  const comma = line.indexOf(',');
  const host = line.slice(0, comma);
  let url = line.slice(comma + 1);
  if (url.startsWith('"')) url = url.slice(1, -1).replaceAll('""', '"');
  if (bodyByHost.has(host)) work.push({ host, url });
}
if (work.length === 0) fail('workload has no rows with a robots.txt');

/**
 * Runs each measure in rounds, alternating between them so that machine noise hits all alike, until
 * `seconds` per measure have passed (at least 3 rounds); keeps each measure's best round.
 */
function measure(fns) {
  const best = Object.fromEntries(Object.keys(fns).map((k) => [k, Number.POSITIVE_INFINITY]));
  for (const fn of Object.values(fns)) fn(); // warm-up
  const until = performance.now() + seconds * 1000 * Object.keys(fns).length;
  for (let round = 0; round < 3 || performance.now() < until; round++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t = performance.now();
      fn();
      best[name] = Math.min(best[name], performance.now() - t);
    }
  }
  return best;
}

let sink = 0;
const parse = measure({
  oursText: () => {
    for (const b of bodies) sink += lib.parseRobotsTxt(b.text).sitemaps.length;
  },
  oursBytes: () => {
    for (const b of bodies) sink += lib.parseRobotsTxt(b.bytes).sitemaps.length;
  },
  oursCompile: () => {
    for (const b of bodies) sink += lib.parseRobotsTxt(b.bytes).compile(agent).count;
  },
  oursCompileOnly: () => {
    for (const b of bodies) sink += lib.compileRobotsTxt(b.bytes, [agent])[0].count;
  },
  peer: () => {
    for (const b of bodies) sink += robotsParser(`https://${b.host}/robots.txt`, b.text).getSitemaps().length;
  },
});

// Checks: one parsed + compiled policy per host (what the pipeline's workers hold), then every row, in
// the CSV's order (hosts interleaved) and grouped by host (as a batch per host would see them).
const compiled = new Map(bodies.map((b) => [b.host, lib.parseRobotsTxt(b.bytes).compile(agent)]));
const peers = new Map(bodies.map((b) => [b.host, robotsParser(`https://${b.host}/robots.txt`, b.text)]));
const order = work.map((_, i) => i);
const grouped = [...order].sort((a, b) =>
  work[a].host < work[b].host ? -1 : work[a].host > work[b].host ? 1 : a - b,
);
/** Rows in the given order; URL strings are fresh copies laid out in that order, as a reader would make them. */
function rowsIn(ord) {
  return {
    urls: ord.map((i) => ` ${work[i].url}`.slice(1)),
    ours: ord.map((i) => compiled.get(work[i].host)),
    peer: ord.map((i) => peers.get(work[i].host)),
  };
}
const csvOrder = rowsIn(order);
const byHost = rowsIn(grouped);
const n = work.length;
const check = measure({
  oursCsv: () => {
    const { urls, ours } = csvOrder;
    for (let i = 0; i < n; i++) sink += ours[i].check(urls[i]).line;
  },
  peerCsv: () => {
    const { urls, peer } = csvOrder;
    for (let i = 0; i < n; i++) sink += peer[i].isAllowed(urls[i], agent) ? 1 : 0;
  },
  oursHost: () => {
    const { urls, ours } = byHost;
    for (let i = 0; i < n; i++) sink += ours[i].check(urls[i]).line;
  },
  peerHost: () => {
    const { urls, peer } = byHost;
    for (let i = 0; i < n; i++) sink += peer[i].isAllowed(urls[i], agent) ? 1 : 0;
  },
  oursDecideCsv: () => {
    const { urls, ours } = csvOrder;
    for (let i = 0; i < n; i++) sink += ours[i].decide(lib.pathFromUrl(urls[i]));
  },
});

let agree = 0;
for (let i = 0; i < n; i++) {
  if (
    csvOrder.ours[i].check(csvOrder.urls[i]).allowed ===
    (csvOrder.peer[i].isAllowed(csvOrder.urls[i], agent) !== false)
  )
    agree++;
}

const rate = (ms) => (n / ms) * 1000;
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const mbps = (ms) => (totalBytes / 1048576 / (ms / 1000)).toFixed(1);
const ratio = (a, b) => `${(a / b).toFixed(1)}×`;
const version = createRequire(import.meta.url)('robots-parser/package.json').version;

console.log(`### core engine vs robots-parser ${version}`);
console.log('');
console.log(
  `workload: ${path.relative(root, out)} — ${n.toLocaleString('en-US')} checks over ${bodies.length} robots.txt files (${(totalBytes / 1048576).toFixed(1)} MiB), agent ${agent}; best round of each, rounds alternated`,
);
console.log(
  `machine: ${os.availableParallelism()} cpus (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log('');
console.log('| measure | robots-audit | robots-parser | ratio |');
console.log('|---|---:|---:|---:|');
console.log(
  `| checks/s, CSV order: \`compiled.check(url)\` vs \`isAllowed(url, agent)\` | ${fmt(rate(check.oursCsv))} | ${fmt(rate(check.peerCsv))} | ${ratio(check.peerCsv, check.oursCsv)} |`,
);
console.log(
  `| checks/s, grouped by host | ${fmt(rate(check.oursHost))} | ${fmt(rate(check.peerHost))} | ${ratio(check.peerHost, check.oursHost)} |`,
);
console.log(
  `| checks/s, CSV order: \`decide(pathFromUrl(url))\` | ${fmt(rate(check.oursDecideCsv))} | ${fmt(rate(check.peerCsv))} | ${ratio(check.peerCsv, check.oursDecideCsv)} |`,
);
console.log(
  `| parse MB/s, string input | ${mbps(parse.oursText)} | ${mbps(parse.peer)} | ${ratio(parse.peer, parse.oursText)} |`,
);
console.log(
  `| parse MB/s, bytes input | ${mbps(parse.oursBytes)} | ${mbps(parse.peer)} | ${ratio(parse.peer, parse.oursBytes)} |`,
);
console.log(
  `| parse + compile for the agent, MB/s (bytes) | ${mbps(parse.oursCompile)} | ${mbps(parse.peer)} (parse only) | ${ratio(parse.peer, parse.oursCompile)} |`,
);
console.log(
  `| \`compileRobotsTxt(bytes, [agent])\` (the pipeline's path), MB/s | ${mbps(parse.oursCompileOnly)} | ${mbps(parse.peer)} (parse only) | ${ratio(parse.peer, parse.oursCompileOnly)} |`,
);
console.log('');
console.log(
  `allowed/disallowed agreement with robots-parser: ${((agree / n) * 100).toFixed(2)}% of rows (robots-parser is not reference-exact)`,
);
if (sink === -1) console.log(''); // keeps the measured work observable
