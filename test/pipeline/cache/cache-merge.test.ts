/** `cache merge`: real SQLite caches written by PolicyCache, merged into a new file and read back. */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRecords } from '../../../src/pipeline/cache/cache-maintenance.js';
import { mergeCaches } from '../../../src/pipeline/cache/cache-merge.js';
import { PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import { sha256, tempDir } from '../fetch/harness.js';
import { observation, seedCache } from './cache-fixtures.js';

let tmp: ReturnType<typeof tempDir>;
const file = (name: string) => join(tmp.dir, name);

beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const obs = observation;

/** A cache file that saw these fetches, in this order. */
function seed(name: string, list: Parameters<typeof seedCache>[1]): string {
  seedCache(file(name), list);
  return file(name);
}

/** Every version as `cache export` gives it (ids left out), and the bodies table. */
function content(path: string) {
  const cache = new PolicyCache(path, { mustExist: true });
  try {
    const versions = [...exportRecords(cache)];
    const bodies = cache.db.prepare('SELECT sha256, body FROM bodies ORDER BY sha256').all();
    return { versions, bodies };
  } finally {
    cache.close();
  }
}

const spans = (path: string, origin: string) =>
  content(path)
    .versions.filter((v) => v.origin === origin)
    .map((v) => [
      v.body === null ? null : Buffer.from(v.body, 'base64').toString(),
      v.validFrom,
      v.validTo,
      v.fetchedAt,
    ]);

const A = 'https://a.test';
const B = 'https://b.test';

describe('cache merge', () => {
  it('keeps every origin of every input and stores a body that two inputs share once', async () => {
    const a = seed('a.sqlite', [obs(A, 'same', 1000), obs(B, 'only-a', 1000)]);
    const b = seed('b.sqlite', [obs('https://c.test', 'same', 2000)]);
    const r = await mergeCaches([a, b], file('all.sqlite'));
    expect(r).toMatchObject({ inputs: 2, origins: 3, versions: 3, bodies: 2 });
    const all = content(file('all.sqlite'));
    expect(all.versions.map((v) => v.origin)).toEqual([A, B, 'https://c.test']);
    expect(all.bodies).toHaveLength(2);
  });

  it('joins overlapping histories of one origin: one version per policy span, valid_to chained, the latest current', async () => {
    // a saw v1 from 1000 (last at 2000); b saw v1 from 1500 (last at 3000), then v2 from 4000.
    const a = seed('a.sqlite', [obs(A, 'v1', 1000), obs(A, 'v1', 2000)]);
    const b = seed('b.sqlite', [obs(A, 'v1', 1500), obs(A, 'v1', 3000), obs(A, 'v2', 4000)]);
    await mergeCaches([a, b], file('all.sqlite'));
    expect(spans(file('all.sqlite'), A)).toEqual([
      ['v1', 1000, 4000, 3000],
      ['v2', 4000, null, 4000],
    ]);
  });

  it('a policy confirmed after the latest change in another cache is current again from that confirmation', async () => {
    // a saw v1 from 1000 and still at 10000; b saw v1 at 1000 only, then v2 at 5000 (last at 6000).
    const a = seed('a.sqlite', [obs(A, 'v1', 1000), obs(A, 'v1', 10_000)]);
    const b = seed('b.sqlite', [obs(A, 'v1', 1000), obs(A, 'v2', 5000), obs(A, 'v2', 6000)]);
    await mergeCaches([a, b], file('all.sqlite'));
    expect(spans(file('all.sqlite'), A)).toEqual([
      ['v1', 1000, 5000, 10_000],
      ['v2', 5000, 10_000, 6000],
      ['v1', 10_000, null, 10_000],
    ]);
    const cache = new PolicyCache(file('all.sqlite'), { mustExist: true });
    expect(cache.current(A)).toMatchObject({ sha256: sha256('v1'), fetchedAt: 10_000, expiresAt: 11_000 });
    cache.close();
  });

  it('is order-free and idempotent: A+B equals B+A, and ALL+A and ALL+B equal ALL', async () => {
    const a = seed('a.sqlite', [
      obs(A, 'v1', 1000, { etag: '"a"' }),
      obs(A, 'v2', 3000),
      obs(A, 'v2', 9000),
      obs(B, null, 2000),
      obs(B, 'b1', 2500),
    ]);
    const b = seed('b.sqlite', [
      obs(A, 'v1', 1000, { etag: '"b"' }),
      obs(A, 'v1', 2000),
      obs(A, 'v3', 7000),
      obs(B, 'b1', 2600),
      obs('https://c.test', null, 100, { outcome: 'unavailable', status: 404 }),
    ]);
    await mergeCaches([a, b], file('ab.sqlite'));
    await mergeCaches([b, a], file('ba.sqlite'));
    const ab = content(file('ab.sqlite'));
    expect(content(file('ba.sqlite'))).toEqual(ab);
    await mergeCaches([file('ab.sqlite'), a], file('ab-a.sqlite'));
    await mergeCaches([b, file('ab.sqlite')], file('b-ab.sqlite'));
    expect(content(file('ab-a.sqlite'))).toEqual(ab);
    expect(content(file('b-ab.sqlite'))).toEqual(ab);
    // Exactly one current version per origin.
    const current = ab.versions.filter((v) => v.validTo === null).map((v) => v.origin);
    expect(current).toEqual([A, B, 'https://c.test']);
  });

  it('one cache merged alone is itself, version for version', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000), obs(A, 'v1', 2000), obs(A, null, 3000), obs(B, 'x', 5)]);
    await mergeCaches([a], file('copy.sqlite'));
    expect(content(file('copy.sqlite'))).toEqual(content(a));
  });

  it('opens the inputs read-only: their bytes do not change, and one can be merged into a new cache again', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000)]);
    const b = seed('b.sqlite', [obs(B, 'v2', 1000)]);
    const before = [readFileSync(a), readFileSync(b)];
    await mergeCaches([a, b], file('all.sqlite'));
    expect([readFileSync(a), readFileSync(b)]).toEqual(before);
    // SQLite's read-only reader leaves an empty WAL beside a; it holds nothing, so a may be replaced.
    await mergeCaches([b], a);
    expect(content(a).versions.map((v) => v.origin)).toEqual([B]);
  });

  it('refuses to write over one of its inputs (ERR_USAGE), leaving it as it was', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000)]);
    const b = seed('b.sqlite', [obs(B, 'v2', 1000)]);
    const before = readFileSync(a);
    await expect(mergeCaches([a, b], a)).rejects.toMatchObject({ code: 'ERR_USAGE' });
    expect(readFileSync(a)).toEqual(before);
    // Nor to stdout (a file named "-" would be made), which cannot hold a database.
    await expect(mergeCaches([a, b], '-')).rejects.toMatchObject({ code: 'ERR_USAGE' });
  });

  it('refuses an input of a newer schema with ERR_CACHE_VERSION, and a file that is no cache with ERR_CACHE_OPEN', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000)]);
    const newer = seed('newer.sqlite', [obs(B, 'v2', 1000)]);
    const db = new Database(newer);
    db.prepare('UPDATE schema_version SET version = 99').run();
    db.close();
    await expect(mergeCaches([a, newer], file('all.sqlite'))).rejects.toMatchObject({
      code: 'ERR_CACHE_VERSION',
    });
    writeFileSync(file('text.sqlite'), 'not a database\n'.repeat(100));
    await expect(mergeCaches([a, file('text.sqlite')], file('all.sqlite'))).rejects.toMatchObject({
      code: 'ERR_CACHE_OPEN',
    });
    await expect(mergeCaches([a, file('none.sqlite')], file('all.sqlite'))).rejects.toMatchObject({
      code: 'ERR_CACHE_MISSING',
    });
    expect(existsSync(file('all.sqlite'))).toBe(false);
  });

  it('a merge that fails half-way leaves the file at -o as it was, and no temporary file', async () => {
    const a = seed(
      'a.sqlite',
      Array.from({ length: 5000 }, (_, i) => obs(`https://h${i}.test`, `b${i}`, 1000)),
    );
    // An input whose last origin names a body it does not hold: the merge fails after thousands of origins.
    const broken = seed('broken.sqlite', [obs('https://zz.test', 'gone', 1000)]);
    const db = new Database(broken);
    db.pragma('foreign_keys = OFF');
    db.prepare('DELETE FROM bodies').run();
    db.close();
    writeFileSync(file('all.sqlite'), 'the previous merge\n');
    await expect(mergeCaches([a, broken], file('all.sqlite'))).rejects.toMatchObject({
      code: 'ERR_CACHE_OPEN',
    });
    expect(readFileSync(file('all.sqlite'), 'utf8')).toBe('the previous merge\n');
    expect(readdirSync(tmp.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a stop signal ends the merge with no file at -o and no temporary file', async () => {
    const a = seed(
      'a.sqlite',
      Array.from({ length: 5000 }, (_, i) => obs(`https://h${i}.test`, `b${i}`, 1000)),
    );
    const controller = new AbortController();
    const run = mergeCaches([a], file('all.sqlite'), { signal: controller.signal });
    controller.abort('SIGINT');
    await expect(run).rejects.toBeDefined();
    expect(existsSync(file('all.sqlite'))).toBe(false);
    expect(readdirSync(tmp.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses an -o that SQLite still has a WAL for (a cache in use), which would be replayed onto the merge', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000)]);
    const open = new PolicyCache(file('live.sqlite'));
    open.record(obs(B, 'x', 1));
    open.flush();
    try {
      expect(existsSync(`${file('live.sqlite')}-wal`)).toBe(true);
      await expect(mergeCaches([a], file('live.sqlite'))).rejects.toMatchObject({ code: 'ERR_OUTPUT' });
    } finally {
      open.close();
    }
    expect(statSync(file('live.sqlite')).size).toBeGreaterThan(0);
    expect(content(file('live.sqlite')).versions.map((v) => v.origin)).toEqual([B]);
  });

  it('reads an input of the older schema 1 as it is (not migrated): its versions come with source NULL (a fetch)', async () => {
    const old = seed('old.sqlite', [obs(A, 'v1', 1000), obs(A, 'v2', 2000)]);
    const db = new Database(old);
    db.exec(`DROP TABLE observations; DROP TABLE rebuild_queue; DROP INDEX IF EXISTS versions_source;
      ALTER TABLE versions DROP COLUMN source; UPDATE schema_version SET version = 1`);
    db.close();
    const before = readFileSync(old);
    const b = seed('b.sqlite', [obs(B, 'x', 1000)]);
    await mergeCaches([old, b], file('all.sqlite'));
    expect(readFileSync(old)).toEqual(before);
    expect(spans(file('all.sqlite'), A)).toEqual([
      ['v1', 1000, 2000, 1000],
      ['v2', 2000, null, 2000],
    ]);
    const out = new Database(file('all.sqlite'), { readonly: true });
    expect(out.prepare('SELECT DISTINCT source FROM versions ORDER BY source').pluck().all()).toEqual([
      null,
      'fetch',
    ]);
    out.close();
  });

  it('a version two caches saw keeps the source of its first sighting', async () => {
    const a = seed('a.sqlite', [obs(A, 'v1', 1000)]);
    const db = new Database(a);
    db.prepare("UPDATE versions SET source = 'warc:crawl.warc.gz@0'").run();
    db.close();
    const b = seed('b.sqlite', [obs(A, 'v1', 500), obs(A, 'v1', 3000)]);
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      await mergeCaches(order, file('all.sqlite'));
      const out = content(file('all.sqlite')).versions;
      expect(out.map((v) => [v.validFrom, v.fetchedAt, v.source])).toEqual([[500, 3000, 'fetch']]);
    }
    const later = seed('later.sqlite', [obs(A, 'v1', 2000)]);
    await mergeCaches([a, later], file('all2.sqlite'));
    expect(content(file('all2.sqlite')).versions.map((v) => [v.validFrom, v.source])).toEqual([
      [1000, 'warc:crawl.warc.gz@0'],
    ]);
  });
});
