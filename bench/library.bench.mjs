#!/usr/bin/env node
// Library end to end: what a user of the library does per host — parse the body once, then check each
// of the host's URLs in CSV order — against npm robots-parser doing the same (`robotsParser(url, body)`
// once per host, then `isAllowed(url, agent)`), in the same process, rounds alternated. Four mixes of
// checks per host: the workload's own (make-crawl rows in CSV order), and 1, 15 and 100 checks per host
// (each host's rows cycled to that count, hosts interleaved round-robin).
// Usage: node bench/library.bench.mjs [--rows 200000] [--hosts 2000] [--agent Googlebot] [--rounds 15]
//        [--baseline DIR]  (another build's dist/, e.g. a copy taken before a change: an extra column)
// Times are CPU time (user + system) of this process per round; medians, with min–max.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numericArg, stringArg } from './crawl-workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const rows = numericArg('rows', 200000);
const hosts = numericArg('hosts', 2000);
const agent = stringArg('agent', 'Googlebot');
const rounds = numericArg('rounds', 15);
const baselineDir = stringArg('baseline', undefined);

function fail(message) {
  console.error(`library.bench: ${message}`);
  process.exit(1);
}

async function load(dir) {
  try {
    return await import(pathToFileURL(path.join(dir, 'index.js')).href);
  } catch (err) {
    fail(`cannot load ${dir}/index.js (run \`npm run build\` first): ${err.message}`);
  }
}
const lib = await load(path.join(root, 'dist'));
const baseline = baselineDir === undefined ? undefined : await load(path.resolve(baselineDir));
const robotsParser = createRequire(import.meta.url)('robots-parser');

// The same workload as bench/core.bench.mjs (bench/out is git-ignored).
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
const hostNames = fs
  .readdirSync(robotsDir)
  .filter((f) => f.endsWith('.txt'))
  .map((f) => f.slice(0, -4));
const hostIndex = new Map(hostNames.map((h, i) => [h, i]));
const texts = hostNames.map((h) => fs.readFileSync(path.join(robotsDir, `${h}.txt`), 'utf8'));
const robotsUrls = hostNames.map((h) => `https://${h}/robots.txt`);
const totalBytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

/** The workload's rows with a robots.txt, as parallel arrays of host index and URL. */
const natural = { host: [], url: [] };
const csv = fs.readFileSync(path.join(out, 'crawl.csv'), 'utf8').split('\n');
for (let i = 1; i < csv.length; i++) {
  const line = csv[i];
  if (line === '') continue;
  const comma = line.indexOf(',');
  const h = hostIndex.get(line.slice(0, comma));
  if (h === undefined) continue;
  let url = line.slice(comma + 1);
  if (url.startsWith('"')) url = url.slice(1, -1).replaceAll('""', '"');
  natural.host.push(h);
  natural.url.push(url);
}
if (natural.url.length === 0) fail('workload has no rows with a robots.txt');

/** `k` checks per host: each host's rows in CSV order, cycled to `k`; hosts round-robin. */
function perHost(k) {
  const urlsOf = hostNames.map(() => []);
  for (let i = 0; i < natural.url.length; i++) urlsOf[natural.host[i]].push(natural.url[i]);
  const mix = { host: [], url: [] };
  for (let j = 0; j < k; j++) {
    for (let h = 0; h < hostNames.length; h++) {
      const urls = urlsOf[h];
      if (urls.length === 0) continue;
      mix.host.push(h);
      mix.url.push(urls[j % urls.length]);
    }
  }
  return mix;
}

let sink = 0;
/** One round with robots-audit (a build's exports): parse on a host's first row, then check. */
function ours(impl, mix) {
  const { parseRobotsTxt } = impl;
  const parsed = new Array(hostNames.length);
  const { host, url } = mix;
  for (let i = 0; i < url.length; i++) {
    const h = host[i];
    let robots = parsed[h];
    if (robots === undefined) {
      robots = parseRobotsTxt(texts[h]);
      parsed[h] = robots;
    }
    sink += robots.check(url[i], agent).line;
  }
}
function peer(mix) {
  const parsed = new Array(hostNames.length);
  const { host, url } = mix;
  for (let i = 0; i < url.length; i++) {
    const h = host[i];
    let robots = parsed[h];
    if (robots === undefined) {
      robots = robotsParser(robotsUrls[h], texts[h]);
      parsed[h] = robots;
    }
    sink += robots.isAllowed(url[i], agent) === false ? 1 : 0;
  }
}

/** CPU milliseconds (user + system) of `fn`. */
function cpuMs(fn) {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const mixes = [
  ['workload mix (CSV order)', natural],
  ['1 check per host', perHost(1)],
  ['15 checks per host', perHost(15)],
  ['100 checks per host', perHost(100)],
];
const sides = { ours: (m) => ours(lib, m), peer };
if (baseline !== undefined) sides.baseline = (m) => ours(baseline, m);

const parseTimes = { text: [], bytes: [], baselineText: [], baselineBytes: [] };
const buffers = texts.map((t) => Buffer.from(t));
/** Parses every body in one form with one build. */
function parseAll(impl, bodies) {
  for (const b of bodies) sink += impl.parseRobotsTxt(b).sitemaps.length;
}
// Parse alone first, before the mixes' garbage is on the heap; two rounds of warm-up.
for (let r = -2; r < rounds; r++) {
  const round = {
    text: cpuMs(() => parseAll(lib, texts)),
    bytes: cpuMs(() => parseAll(lib, buffers)),
  };
  if (baseline !== undefined) {
    round.baselineText = cpuMs(() => parseAll(baseline, texts));
    round.baselineBytes = cpuMs(() => parseAll(baseline, buffers));
  }
  if (r < 0) continue;
  for (const [k, ms] of Object.entries(round)) parseTimes[k].push(ms);
}

const results = [];
for (const [name, mix] of mixes) {
  const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const fn of Object.values(sides)) fn(mix); // warm-up
  for (let r = 0; r < rounds; r++)
    for (const [k, fn] of Object.entries(sides)) times[k].push(cpuMs(() => fn(mix)));
  results.push({ name, checks: mix.url.length, times });
}
const fmt = (ms) => `${median(ms).toFixed(1)} (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)})`;
const version = createRequire(import.meta.url)('robots-parser/package.json').version;
console.log(`### library end to end vs robots-parser ${version}`);
console.log('');
console.log(
  `workload: ${path.relative(root, out)} — ${natural.url.length.toLocaleString('en-US')} rows over ${hostNames.length} robots.txt files (${(totalBytes / 1048576).toFixed(1)} MiB, string input), agent ${agent}; ${rounds} rounds alternated, CPU ms per round: median (min–max)`,
);
console.log(
  `machine: ${os.availableParallelism()} cpus (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString().slice(0, 16)}Z`,
);
console.log('');
const extra = baseline === undefined ? '' : ' baseline | ours vs baseline |';
console.log(`| checks | count | robots-audit | robots-parser | ratio |${extra}`);
console.log(`|---|---:|---:|---:|---:|${baseline === undefined ? '' : '---:|---:|'}`);
for (const { name, checks, times } of results) {
  const ratio = `${(median(times.peer) / median(times.ours)).toFixed(2)}×`;
  const more =
    baseline === undefined
      ? ''
      : ` ${fmt(times.baseline)} | ${(median(times.baseline) / median(times.ours)).toFixed(2)}× |`;
  console.log(
    `| ${name} | ${checks.toLocaleString('en-US')} | ${fmt(times.ours)} | ${fmt(times.peer)} | ${ratio} |${more}`,
  );
}
const mbps = (ms) => (totalBytes / 1048576 / (median(ms) / 1000)).toFixed(1);
console.log('');
console.log(
  `parseRobotsTxt alone, MB/s of CPU time (median): string ${mbps(parseTimes.text)}, bytes ${mbps(parseTimes.bytes)}` +
    (baseline === undefined
      ? ''
      : `; baseline: string ${mbps(parseTimes.baselineText)}, bytes ${mbps(parseTimes.baselineBytes)}`),
);
if (sink === -1) console.log(''); // keeps the measured work observable
