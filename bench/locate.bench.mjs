#!/usr/bin/env node
// Microbenchmark of locatePath (src/core/url-path.ts): how fast the path+query of a URL is found, on real URL
// lists. Peer: WHATWG `new URL()` (what robots-parser uses); its semantics differ, so it is timed only.
// Data: bench/out/crawl-core/crawl.csv (made by core.bench.mjs) and ../shared/corpus/urls (if present).
// Usage: node bench/locate.bench.mjs [--rounds 15]. Needs `npm run build`. Prints a markdown table;
// exits non-zero if no data set or dist is missing.
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
const ROOT = 2;

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
  { name: 'locatePath (shipped: sticky regex, indexOf for long URLs)', fn: shipped.locatePath },
  { name: 'WHATWG new URL() (robots-parser)', fn: whatwg },
];

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
