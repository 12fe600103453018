#!/usr/bin/env node
import { createHash, randomBytes } from 'node:crypto';
// Import benchmark: a synthetic Common Crawl robots.txt archive (request + response + metadata per
// capture, one gzip member per record; bodies from ../shared/corpus/robots when present, else generated),
// then
//  1. warcio alone: every record of the .warc.gz parsed and its content read (the reference reader);
//  2. robots-audit's reader alone (readWarc): the same records, robots.txt content kept, the rest skipped;
//  3. `robots-audit import` into a new cache (the CLI in a child: wall, CPU, peak RSS), and again into
//     the same cache (every capture already stored: the idempotent path).
// Usage: node bench/import.bench.mjs [--captures 100000] [--origins 25000] [--pad-mib 0]
//          [--archive FILE] [--dist DIR[,DIR2]] [--repeat 1] [--import-only]
//   --pad-mib adds non-robots response records (random bytes) up to that many MiB, for the memory check.
//   --archive keeps the built archive at FILE, and reuses FILE when it exists (same options assumed).
//   --dist compares builds (default ./dist): import runs alternate between them, --repeat rounds each,
//   and the table gives each one's median CPU with its spread (min–max).
//   --import-only leaves out the two readers.
// Prints a markdown table; exits non-zero if the benchmark cannot run.
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { measuredRun } from './measured-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const captures = Number(arg('captures', 100_000));
const origins = Number(arg('origins', Math.max(1, Math.floor(captures / 4))));
const padMiB = Number(arg('pad-mib', 0));
const keptArchive = arg('archive', null);
const repeat = Math.max(1, Number(arg('repeat', 1)));
const importOnly = argv.includes('--import-only');
const dists = arg('dist', path.join(root, 'dist'))
  .split(',')
  .map((d) => path.resolve(d));
for (const d of dists) {
  if (!existsSync(path.join(d, 'cli/main.js'))) {
    console.error(`import.bench: ${d}/cli/main.js is missing (npm run build)`);
    process.exit(1);
  }
}

function corpusBodies() {
  const dir = path.join(root, '..', 'shared', 'corpus', 'robots');
  if (!existsSync(dir)) {
    return Array.from({ length: 1000 }, (_, i) =>
      Buffer.from(`User-agent: *\nDisallow: /private/${i}\nAllow: /\n`),
    );
  }
  return readdirSync(dir)
    .slice(0, 5000)
    .map((f) => readFileSync(path.join(dir, f)))
    .filter((b) => b.length <= 512_000);
}

let uuid = 0;
function record(type, uri, date, headers, content) {
  const lines = [
    'WARC/1.0',
    `WARC-Type: ${type}`,
    `WARC-Record-ID: <urn:uuid:${(uuid++).toString(16).padStart(32, '0')}>`,
  ];
  lines.push(`WARC-Date: ${date}`, `WARC-Target-URI: ${uri}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${content.length}`);
  return gzipSync(
    Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), content, Buffer.from('\r\n\r\n')]),
    { level: 6 },
  );
}

function buildArchive(file, bodies) {
  const fd = openSync(file, 'w');
  const start = Date.parse('2024-01-01T00:00:00Z');
  let padded = 0;
  try {
    for (let i = 0; i < captures; i++) {
      const o = i % origins;
      const round = Math.floor(i / origins);
      const scheme = o % 3 === 0 ? 'http' : 'https';
      const uri = `${scheme}://host-${o}.example/robots.txt`;
      const date = new Date(start + round * 86_400_000 + o * 1000).toISOString().replace(/\.000Z$/, 'Z');
      // Every third round a site changes its file; a few sites answer 404 or 503.
      const status = o % 50 === 7 ? 404 : o % 97 === 3 ? 503 : 200;
      const body =
        status === 200 ? bodies[(o + Math.floor(round / 3)) % bodies.length] : Buffer.from('error');
      const http = Buffer.concat([
        Buffer.from(
          `HTTP/1.1 ${status} X\r\nContent-Type: text/plain\r\nX-Crawler-Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n`,
        ),
        body,
      ]);
      const digest = `sha1:${createHash('sha1').update(body).digest('base64')}`;
      writeSync(
        fd,
        record(
          'request',
          uri,
          date,
          { 'Content-Type': 'application/http; msgtype=request' },
          Buffer.from(`GET /robots.txt HTTP/1.1\r\nHost: host-${o}.example\r\n\r\n`),
        ),
      );
      writeSync(
        fd,
        record(
          'response',
          uri,
          date,
          { 'Content-Type': 'application/http; msgtype=response', 'WARC-Payload-Digest': digest },
          http,
        ),
      );
      writeSync(
        fd,
        record(
          'metadata',
          uri,
          date,
          { 'Content-Type': 'application/warc-fields' },
          Buffer.from('fetchTimeMs: 12\r\n'),
        ),
      );
      if (padded < padMiB * 1024 * 1024 && i % 10 === 0) {
        const junk = randomBytes(256 * 1024);
        const m = record(
          'response',
          `https://host-${o}.example/video-${i}.bin`,
          date,
          { 'Content-Type': 'application/http; msgtype=response' },
          Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), junk]),
        );
        writeSync(fd, m);
        padded += m.length;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const cpuSince = (c0) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

async function warcioRate(file) {
  const { WARCParser } = await import('warcio');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let records = 0;
  let responses = 0;
  for await (const r of WARCParser.iterRecords(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
    records++;
    if (r.warcType === 'response') responses++;
    await r.readFully();
  }
  return { s: (performance.now() - t0) / 1000, cpu: cpuSince(c0), records, responses };
}

async function readerRate(file, dist) {
  const { readWarc } = await import(path.join(dist, 'pipeline/import/warc-reader.js'));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let records = 0;
  let kept = 0;
  const want = (h) =>
    h.headers.get('warc-type') === 'response' &&
    (h.headers.get('warc-target-uri') ?? '').endsWith('/robots.txt');
  for await (const e of readWarc(createReadStream(file, { highWaterMark: 1024 * 1024 }), want)) {
    if (e.type === 'record') kept++;
    if (e.type === 'record' || e.type === 'skipped') records++;
  }
  return { s: (performance.now() - t0) / 1000, cpu: cpuSince(c0), records, kept };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ra-import-bench-'));
try {
  const file = keptArchive === null ? path.join(tmp, 'robotstxt.warc.gz') : path.resolve(keptArchive);
  if (keptArchive === null || !existsSync(file)) {
    const bodies = corpusBodies();
    const t0 = performance.now();
    buildArchive(file, bodies);
    console.error(
      `import.bench: built ${captures} captures of ${origins} origins (${bodies.length} bodies), ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const mib = statSync(file).size / 1024 / 1024;
  const rate = (n, s) => Math.round(n / s).toLocaleString('en-US');
  console.log(
    `| archive | ${captures.toLocaleString('en-US')} captures (${(captures * 3).toLocaleString('en-US')}+ records), ${mib.toFixed(1)} MiB .warc.gz |`,
  );
  console.log('| what | wall s | CPU s | captures/s (wall) | captures per CPU-second | peak RSS MiB |');
  console.log('|---|---|---|---|---|---|');
  const row = (what, wallS, cpuS, rss) =>
    console.log(
      `| ${what} | ${wallS.toFixed(2)} | ${cpuS.toFixed(2)} | ${rate(captures, wallS)} | ${rate(captures, cpuS)} | ${rss} |`,
    );
  if (!importOnly) {
    const w = await warcioRate(file);
    row('warcio alone: every record parsed and read', w.s, w.cpu, '–');
    for (const d of dists) {
      const r = await readerRate(file, d);
      row(`robots-audit reader alone (readWarc)${dists.length > 1 ? ` ${d}` : ''}`, r.s, r.cpu, '–');
    }
  }
  // Rounds alternate the builds, so a noisy spell on a shared machine hits each of them.
  const runs = dists.map(() => ({ first: [], again: [] }));
  for (let round = 0; round < repeat; round++) {
    for (const [i, d] of dists.entries()) {
      const cache = path.join(tmp, `cache-${i}-${round}.sqlite`);
      const cli = path.join(d, 'cli/main.js');
      runs[i].first.push(await measuredRun([cli, 'import', file, '--cache', cache, '--quiet']));
      runs[i].again.push(await measuredRun([cli, 'import', file, '--cache', cache, '--quiet']));
      for (const f of readdirSync(tmp)) if (f.startsWith(`cache-${i}-${round}.`)) rmSync(path.join(tmp, f));
      const last = (k) => runs[i][k].at(-1).cpuS.toFixed(2);
      console.error(
        `import.bench: round ${round + 1} ${d}: CPU ${last('first')} s, again ${last('again')} s`,
      );
    }
  }
  for (const [i, d] of dists.entries()) {
    const name = dists.length > 1 ? ` (${d})` : '';
    for (const [k, what] of [
      ['first', 'robots-audit import, new cache'],
      ['again', 'robots-audit import, same archive again'],
    ]) {
      const rs = runs[i][k];
      const cpus = rs.map((r) => r.cpuS);
      const spread = repeat > 1 ? ` [${Math.min(...cpus).toFixed(2)}–${Math.max(...cpus).toFixed(2)}]` : '';
      row(
        `${what}${name}${spread}`,
        median(rs.map((r) => r.wallS)),
        median(cpus),
        Math.max(...rs.map((r) => r.rssMiB)).toFixed(0),
      );
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
