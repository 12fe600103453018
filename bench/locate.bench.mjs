#!/usr/bin/env node
// Microbenchmark of locatePath (src/core/url-path.ts): how fast the path+query of a URL is found, next to
// the ways it was or could be done, on real URL lists. Peer: WHATWG `new URL()` (what robots-parser uses).
// Data: bench/out/crawl-core/crawl.csv (made by core.bench.mjs) and ../shared/corpus/urls (if present).
// Usage: node bench/locate.bench.mjs [--rounds 15]. Needs `npm run build`. Prints a markdown table;
// exits non-zero if no data set or dist is missing, or if a variant disagrees with locatePath.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 15;

function fail(message) {
  console.error(`locate.bench: ${message}`);
  process.exit(1);
}

let shipped;
try {
  shipped = await import(path.join(root, 'dist', 'core', 'url-path.js'));
} catch (err) {
  fail(`cannot load dist/core/url-path.js (run \`npm run build\` first): ${err.message}`);
}

// URLs become substrings of a larger string, as a CSV reader hands them over (V8 sliced strings).
const asSliced = (u) => ` ${u}`.slice(1);
const sets = [];
const crawl = path.join(root, 'bench', 'out', 'crawl-core', 'crawl.csv');
if (fs.existsSync(crawl)) {
  const urls = [];
  for (const line of fs.readFileSync(crawl, 'utf8').split('\n').slice(1)) {
    if (!line) continue;
    let u = line.slice(line.indexOf(',') + 1);
    if (u.startsWith('"')) u = u.slice(1, -1).replaceAll('""', '"');
    urls.push(asSliced(u));
  }
  sets.push({ name: 'crawl-core (make-crawl, 200k rows)', urls });
}
const links = path.join(root, '..', 'shared', 'corpus', 'urls', 'anubhavp28-links');
if (fs.existsSync(links)) {
  const urls = [];
  for (const f of fs.readdirSync(links).sort()) {
    for (const u of fs.readFileSync(path.join(links, f), 'utf8').split('\n')) if (u) urls.push(asSliced(u));
  }
  sets.push({ name: 'shared/corpus/urls (real crawl, 112k)', urls });
}
if (sets.length === 0) fail(`no URLs: neither ${crawl} (run bench/core.bench.mjs) nor ${links}`);

const IN_PLACE = 0;
const NEEDS_SLASH = 1;
const ROOT = 2;

// The general road the shipped code falls back to, kept here so each variant stands alone.
function general(url, span, afterAuthority) {
  const n = url.length;
  const searchStart = n >= 2 && url.charCodeAt(0) === 47 && url.charCodeAt(1) === 47 ? 2 : 0;
  let i = searchStart;
  let c = 0;
  for (; i < n; i++) {
    c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 59) break;
    if (c === 35) return ROOT;
  }
  if (i === n) return ROOT;
  if (c === 47 && i > searchStart && url.charCodeAt(i - 1) === 58 && url.charCodeAt(i + 1) === 47) {
    return afterAuthority(url, i + 2, span);
  }
  const start = i;
  for (; i < n; i++) {
    c = url.charCodeAt(i);
    if (c === 35 || c === 0) break;
  }
  span.start = start;
  span.end = i;
  return url.charCodeAt(start) === 47 ? IN_PLACE : NEEDS_SLASH;
}

/** The previous implementation: startsWith for the scheme, then indexOf for / ? ; # and NUL. */
function indexOfAfter(url, a, span) {
  const n = url.length;
  let start = url.indexOf('/', a);
  if (start < 0) start = n;
  const query = url.indexOf('?', a);
  if (query >= 0 && query < start) start = query;
  const param = url.indexOf(';', a);
  if (param >= 0 && param < start) start = param;
  let end = url.indexOf('#', a);
  if (end < 0) end = n;
  else if (end < start) return ROOT;
  if (start === n) return ROOT;
  const nul = url.indexOf('\0', start);
  if (nul >= 0 && nul < end) end = nul;
  span.start = start;
  span.end = end;
  return url.charCodeAt(start) === 47 ? IN_PLACE : NEEDS_SLASH;
}
function indexOfFive(url, span) {
  const a = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  return a < 0 ? general(url, span, indexOfAfter) : indexOfAfter(url, a, span);
}

/** Every char read with charCodeAt, no native search at all. */
function charLoopAfter(url, a, span) {
  const n = url.length;
  let i = a;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 59) break;
    if (c === 35) return ROOT;
  }
  if (i === n) return ROOT;
  const start = i;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 35 || c === 0) break;
  }
  span.start = start;
  span.end = i;
  return url.charCodeAt(start) === 47 ? IN_PLACE : NEEDS_SLASH;
}
function charLoop(url, span) {
  const a = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  return a < 0 ? general(url, span, charLoopAfter) : charLoopAfter(url, a, span);
}

/** Peer: the WHATWG parser (different semantics: it normalises; timed only, not compared). */
function whatwg(url, span) {
  try {
    const u = new URL(url);
    span.start = 0;
    span.end = u.pathname.length + u.search.length;
    return IN_PLACE;
  } catch {
    return ROOT;
  }
}

const variants = [
  { name: 'locatePath (shipped: sticky regex, indexOf for long URLs)', fn: shipped.locatePath, same: true },
  { name: 'indexOf ×5 + startsWith (before)', fn: indexOfFive, same: true },
  { name: 'charCodeAt loop', fn: charLoop, same: true },
  { name: 'WHATWG new URL() (robots-parser)', fn: whatwg, same: false },
];

for (const set of sets) {
  const a = { start: 0, end: 0 };
  const b = { start: 0, end: 0 };
  for (const v of variants.filter((x) => x.same && x.fn !== shipped.locatePath)) {
    for (const u of set.urls) {
      const ka = shipped.locatePath(u, a);
      const kb = v.fn(u, b);
      if (ka !== kb || (ka !== ROOT && (a.start !== b.start || a.end !== b.end))) {
        fail(`${v.name} disagrees with locatePath on ${JSON.stringify(u)}`);
      }
    }
  }
}

// One loop per variant (own type feedback), rounds interleaved, best CPU time (steadier than wall time
// on a shared machine).
const loops = variants.map((v, j) =>
  new Function(
    'fn',
    `return function loop${j}(urls) { const span = { start: 0, end: 0 }; let sink = 0;
        for (let i = 0; i < urls.length; i++) sink += fn(urls[i], span) + span.end; return sink; }`,
  )(v.fn),
);
console.log(`| URLs | variant | ns/URL (best of ${rounds}, CPU time) | × locatePath |`);
console.log('|---|---|---:|---:|');
for (const set of sets) {
  const best = variants.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < variants.length; j++) {
      const t = process.cpuUsage();
      loops[j](set.urls);
      const d = process.cpuUsage(t);
      best[j] = Math.min(best[j], (d.user + d.system) * 1000);
    }
  }
  const ns = best.map((b) => b / set.urls.length);
  for (let j = 0; j < variants.length; j++) {
    console.log(
      `| ${set.name} | ${variants[j].name} | ${ns[j].toFixed(1)} | ${(ns[j] / ns[0]).toFixed(2)} |`,
    );
  }
}
