#!/usr/bin/env node
// As-of classification against the same run without times: the make-crawl workload (2M rows over ~20k
// hosts, ../shared/bench/make-crawl.mjs) with a time column spread over 40 days, and a cache holding three
// versions of every host's robots.txt (its file; the file plus one Disallow; the file again, 10 days apart).
// Runs `classify --at-column time --cache C` and `classify --offline --cache C` (every row under the
// current version) on the same rows, and prints wall, CPU (user + system), peak RSS and rows/s, with the
// as-of ÷ plain rows/s ratio against the ≥ 80 % target and RSS against < 300 MiB. A third run, as of a
// time against a copy of the cache whose versions all serve the first one's body, tells what picking a
// version per row costs apart from holding a second body per origin. A fourth run, against a cache of 20
// versions per origin that differ only in a comment (a file stamped with its build time), tells what a long
// history costs when no agent's rules change. Options: --rows N (2000000), --repeat R (1): rounds alternating
// the first three runs (the fourth runs once), CPU and wall their medians, each round's ratio printed.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numericArg } from './crawl-workload.mjs';
import { measuredRun } from './measured-run.mjs';
import { alternate, perRound, summary } from './rounds.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const rows = numericArg('rows', 2_000_000);
const repeat = numericArg('repeat', 1);
const hosts = 20_000;
const makeCrawl = path.join(root, '..', 'shared', 'bench', 'make-crawl.mjs');
if (!existsSync(makeCrawl)) {
  console.log('as-of bench skipped: ../shared/bench/make-crawl.mjs is not present');
  process.exit(0);
}
if (!existsSync(cli)) {
  console.error('build first: npm run build');
  process.exit(1);
}

const DAY = 86_400_000;
/** Versions per origin of the long-history cache (a fourth run: not part of the target). */
const LONG_VERSIONS = 20;
const T0 = Date.UTC(2024, 0, 1);
const work = path.join(here, 'out', `as-of-${rows}-${hosts}`);
const crawlDir = path.join(here, 'out', `classify-${rows}-${hosts}`);

async function build() {
  if (!existsSync(path.join(crawlDir, 'crawl.csv'))) {
    console.error(`building the make-crawl workload in ${crawlDir} …`);
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(
      process.execPath,
      [makeCrawl, '--rows', String(rows), '--hosts', String(hosts), '--out', crawlDir],
      {
        stdio: 'inherit',
      },
    );
    if (r.status !== 0) throw new Error('make-crawl failed');
  }
  const input = path.join(work, 'timed.csv');
  const cachePath = path.join(work, 'history.sqlite');
  const oneBodyPath = path.join(work, 'history-one-body.sqlite');
  const longPath = path.join(work, `history-long-${LONG_VERSIONS}.sqlite`);
  if (existsSync(input) && existsSync(cachePath) && existsSync(oneBodyPath) && existsSync(longPath))
    return { input, cachePath, oneBodyPath, longPath };
  rmSync(work, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(work, { recursive: true });
  const { PolicyCache } = await import(
    pathToFileURL(path.join(root, 'dist', 'pipeline', 'cache', 'policy-cache.js')).href
  );
  const cache = new PolicyCache(cachePath);
  const long = new PolicyCache(longPath);
  const robots = path.join(crawlDir, 'robots');
  const see = (origin, at, body, into = cache) => {
    into.record({
      origin,
      outcome: 'parsed',
      robotsUrl: `${origin}/robots.txt`,
      finalUrl: `${origin}/robots.txt`,
      status: 200,
      errorCode: null,
      body,
      sha256: createHash('sha256').update(body).digest('hex'),
      bytes: body.length,
      truncated: false,
      etag: null,
      lastModified: null,
      fetchedAt: at,
      expiresAt: at + DAY,
    });
  };
  for (const name of readdirSync(robots)) {
    const host = name.replace(/\.txt$/, '');
    const body = readFileSync(path.join(robots, name));
    const changed = Buffer.concat([body, Buffer.from('\nUser-agent: *\nDisallow: /search\n')]);
    for (const scheme of ['https', 'http']) {
      const origin = `${scheme}://${host}`;
      see(origin, T0, body);
      see(origin, T0 + 10 * DAY, changed);
      see(origin, T0 + 20 * DAY, body);
      // A file stamped with its build time, captured every ~2 days: no agent's rules change.
      for (let v = 0; v < LONG_VERSIONS; v++) {
        const stamped = Buffer.concat([body, Buffer.from(`\n# generated ${v}\n`)]);
        see(origin, T0 + Math.floor((v * 38 * DAY) / LONG_VERSIONS), stamped, long);
      }
    }
  }
  cache.flush();
  cache.close();
  long.flush();
  long.close();
  await oneBodyCopy(cachePath, oneBodyPath);
  const out = createWriteStream(input);
  let i = 0;
  for await (const line of readline.createInterface({
    input: createReadStream(path.join(crawlDir, 'crawl.csv')),
  })) {
    // Rows spread from one day before the first version to ten days after the last.
    const t = i === 0 ? 'time' : new Date(T0 - DAY + ((i * 7919) % ((40 * DAY) / 1000)) * 1000).toISOString();
    if (!out.write(`${t},${line}\n`)) await new Promise((r) => out.once('drain', r));
    i++;
  }
  await new Promise((r) => out.end(r));
  return { input, cachePath, oneBodyPath, longPath };
}

/** A consistent copy of the cache where every version of an origin serves its first version's body. */
async function oneBodyCopy(from, to) {
  const { default: Database } = await import('better-sqlite3');
  rmSync(to, { force: true });
  const db = new Database(from, { readonly: true });
  db.exec(`VACUUM INTO '${to.replaceAll("'", "''")}'`);
  db.close();
  const copy = new Database(to);
  copy.exec(`UPDATE versions SET sha256 = (SELECT f.sha256 FROM versions f WHERE f.origin = versions.origin
    ORDER BY f.valid_from, f.id LIMIT 1) WHERE sha256 IS NOT NULL`);
  copy.close();
}

const { input, cachePath, oneBodyPath, longPath } = await build();
const base = [
  cli,
  'classify',
  input,
  '--agent',
  'Googlebot',
  '--cache',
  cachePath,
  '-o',
  path.join(work, 'out.csv'),
  '--quiet',
];
const load = os.loadavg()[0].toFixed(2);
const runsOf = await alternate(
  [
    { label: 'without times', argv: [...base, '--offline'] },
    { label: 'as of a time', argv: [...base, '--at-column', 'time'] },
    {
      label: 'as of a time, one body',
      argv: [...base.slice(0, 6), oneBodyPath, ...base.slice(7), '--at-column', 'time'],
    },
  ],
  repeat,
);
const [plain, asOf, oneBody] = runsOf.map(summary);
/** Round i's rows per CPU-second of configuration k ÷ the plain run's, in %. */
const roundRatio = (k) => (i) => (100 * runsOf[0][i].cpuS) / runsOf[k][i].cpuS;
const longRun = await measuredRun([...base.slice(0, 6), longPath, ...base.slice(7), '--at-column', 'time']);
const rps = (r) => rows / r.wallS;
const cpuRatio = plain.cpuS / asOf.cpuS;
const wallRatio = rps(asOf) / rps(plain);
console.log(
  `Workload: ${rows.toLocaleString('en-US')} make-crawl rows over ${hosts.toLocaleString('en-US')} hosts with a time column; a cache with 3 versions per origin; agent Googlebot, default threads; ${repeat} round(s) alternating the first three runs (CPU and wall their medians, peak RSS the maximum).`,
);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}, load average ${load} at start; ${new Date().toISOString()}\n`,
);
console.log('| run | wall (s) | CPU (s) | rows/s | peak RSS (MiB) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, r] of [
  ['classify --offline (current version)', plain],
  ['classify --at-column time', asOf],
  ['classify --at-column time, every version one body', oneBody],
  [`classify --at-column time, ${LONG_VERSIONS} versions per origin (a comment changed)`, longRun],
]) {
  console.log(
    `| ${name} | ${r.wallS.toFixed(2)} | ${r.cpuS.toFixed(2)} | ${Math.round(rps(r)).toLocaleString('en-US')} | ${r.rssMiB.toFixed(0)} |`,
  );
}
const pass = cpuRatio >= 0.8 && asOf.rssMiB < 300;
console.log(
  `\nOne body per origin: rows/s by CPU ${((plain.cpuS / oneBody.cpuS) * 100).toFixed(0)} % of plain (rounds: ${perRound(repeat, roundRatio(2), 0)}), ${oneBody.rssMiB.toFixed(0)} MiB (the cost of picking a version per row, without a second body to hold).`,
);
console.log(
  `\nAs-of ÷ plain: rows/s by CPU ${(cpuRatio * 100).toFixed(0)} % (rounds: ${perRound(repeat, roundRatio(1), 0)}), by wall ${(wallRatio * 100).toFixed(0)} %; peak RSS ${asOf.rssMiB.toFixed(0)} MiB. Targets: ≥ 80 %, < 300 MiB: ${pass ? 'PASS' : 'FAIL'}`,
);
