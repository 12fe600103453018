// The as-of benchmarks' workload: the make-crawl rows (../shared/bench/make-crawl.mjs) with a time column
// spread over 40 days, and caches of every host's robots.txt history: three versions (its file; the file
// plus one appended group; the file again, 10 days apart), the same with every version serving the first
// one's body, and 20 versions that differ only in a comment. Built once under bench/out/.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const makeCrawl = path.join(root, '..', 'shared', 'bench', 'make-crawl.mjs');

/**
 * The workload's files ({ work, input, cachePath, oneBodyPath, longPath }), built when missing. Exits when
 * make-crawl is absent (0: the benchmark `bench` is skipped) or the CLI is not built (1).
 */
export async function asOfWorkload(bench, rows, hosts) {
  if (!existsSync(makeCrawl)) {
    console.log(`${bench} skipped: ../shared/bench/make-crawl.mjs is not present`);
    process.exit(0);
  }
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) {
    console.error('build first: npm run build');
    process.exit(1);
  }
  const work = path.join(here, 'out', `as-of-${rows}-${hosts}`);
  const crawlDir = path.join(here, 'out', `classify-${rows}-${hosts}`);
  return { work, ...(await build(rows, hosts, work, crawlDir)) };
}

const DAY = 86_400_000;
/** Versions per origin of the long-history cache (a fourth run: not part of the target). */
export const LONG_VERSIONS = 20;
const T0 = Date.UTC(2024, 0, 1);

async function build(rows, hosts, work, crawlDir) {
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
