/** importArchives in process, against a real SQLite file and, for live versions, a real local server. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { pruneCache } from '../../../src/pipeline/cache/cache-maintenance.js';
import { openDatabase } from '../../../src/pipeline/cache/open-database.js';
import { PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import { createLivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import { importArchives } from '../../../src/pipeline/import/import-archives.js';
import { ObservationStore } from '../../../src/pipeline/import/observation-store.js';
import { ok } from '../../helpers/multi-host-server.js';
import { at, liveOptions, sha256, useServerAndTempDir } from '../fetch/harness.js';
import { archiveInput, ccCapture, exportCache, gz } from './warc-fixtures.js';

const env = useServerAndTempDir();
const A = 'User-agent: *\nDisallow: /a\n';
const B = 'User-agent: *\nDisallow: /b\n';
const t = (iso: string) => Date.parse(iso);

describe('live-fetched versions take part in the rebuild', () => {
  it('a live version stays current after older captures are imported, keeps its expiry, and importing again changes nothing', async () => {
    const { srv, tmp } = env;
    const path = join(tmp.dir, 'live.sqlite');
    srv.set('live.test', ok(B));
    const provider = createLivePolicyProvider(liveOptions(srv, path));
    const policy = await provider.get(at(srv, 'live.test'));
    await provider.close();
    const origin = `http://live.test:${srv.httpPort}`;
    const uri = `${origin}/robots.txt`;
    const warc = gz([
      ...ccCapture(uri, '2024-01-01T00:00:00Z', 200, A),
      ...ccCapture(uri, '2024-02-01T00:00:00Z', 200, A),
    ]);
    await importArchives([archiveInput('old.warc.gz', warc)], { cache: path, maxBody: 512_000 });
    const versions = exportCache(path);
    expect(versions.map((v) => [v.sha256, v.validFrom, v.validTo, v.fetchedAt, v.source])).toEqual([
      [
        sha256(A),
        t('2024-01-01T00:00:00Z'),
        policy.fetchedAt,
        t('2024-02-01T00:00:00Z'),
        expect.stringMatching(/^warc:old\.warc\.gz@/),
      ],
      [sha256(B), policy.fetchedAt, null, policy.fetchedAt, 'fetch'],
    ]);
    expect(versions[1]!.expiresAt).toBe(policy.expiresAt);
    await importArchives([archiveInput('old.warc.gz', warc)], { cache: path, maxBody: 512_000 });
    expect(exportCache(path)).toEqual(versions);
  });

  it('a live confirmation of an imported version is kept when the origin is rebuilt again', async () => {
    const { srv, tmp } = env;
    const path = join(tmp.dir, 'confirm.sqlite');
    const origin = `http://confirm.test:${srv.httpPort}`;
    const first = gz(ccCapture(`${origin}/robots.txt`, '2024-01-01T00:00:00Z', 200, A));
    await importArchives([archiveInput('a.warc.gz', first)], { cache: path, maxBody: 512_000 });
    // The archived file is still served: a live fetch confirms the imported version.
    srv.set('confirm.test', ok(A));
    const provider = createLivePolicyProvider(liveOptions(srv, path));
    const policy = await provider.get(at(srv, 'confirm.test'));
    await provider.close();
    expect(exportCache(path).map((v) => [v.validFrom, v.fetchedAt])).toEqual([
      [t('2024-01-01T00:00:00Z'), policy.fetchedAt],
    ]);
    const later = gz(ccCapture(`${origin}/robots.txt`, '2024-06-01T00:00:00Z', 200, A));
    await importArchives([archiveInput('b.warc.gz', later)], { cache: path, maxBody: 512_000 });
    expect(exportCache(path).map((v) => [v.validFrom, v.fetchedAt, v.expiresAt])).toEqual([
      [t('2024-01-01T00:00:00Z'), policy.fetchedAt, policy.expiresAt],
    ]);
  });
});

describe('a killed import', () => {
  it('captures committed without their rebuild stay queued, and the next import rebuilds their origins', async () => {
    const path = join(env.tmp.dir, 'queued.sqlite');
    const db = openDatabase(path);
    // What a run killed between its capture batches and its rebuild left: observations and the queue.
    const store = new ObservationStore(db);
    const { captureOf } = await import('../../../src/pipeline/import/capture.js');
    const { readWarc } = await import('../../../src/pipeline/import/warc-reader.js');
    for await (const e of readWarc(
      archiveInput('q', gz(ccCapture('https://q.example/robots.txt', '2024-01-01T00:00:00Z', 200, A))).chunks,
      () => true,
    )) {
      if (e.type !== 'record' || e.head.headers.get('warc-type') !== 'response') continue;
      const r = await captureOf(e, new URL('https://q.example/robots.txt'), 'q.warc.gz', 512_000);
      if (r.ok) store.add([r.capture]);
    }
    expect(db.prepare('SELECT origin FROM rebuild_queue').all()).toEqual([{ origin: 'https://q.example' }]);
    db.close();
    const s = await importArchives([], { cache: path, maxBody: 512_000 });
    expect(s.rebuild.origins).toBe(1);
    expect(exportCache(path).map((v) => [v.origin, v.sha256])).toEqual([['https://q.example', sha256(A)]]);
  });
});

describe('captures read before the input stalls', () => {
  it('are committed once their batch has been open for a second, so other writers are not kept waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const path = join(env.tmp.dir, 'stalled.sqlite');
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let reached = () => {};
      const stalled = new Promise<void>((resolve) => {
        reached = resolve;
      });
      async function* chunks() {
        yield gz(ccCapture('https://s.example/robots.txt', '2024-01-01T00:00:00Z', 200, A));
        reached();
        await gate;
        yield gz(ccCapture('https://t.example/robots.txt', '2024-01-01T00:00:00Z', 200, B));
      }
      const run = importArchives([{ name: 's.warc.gz', chunks: chunks() }], {
        cache: path,
        maxBody: 512_000,
      });
      await stalled;
      vi.advanceTimersByTime(1000);
      const reader = new Database(path, { readonly: true });
      expect(reader.prepare('SELECT uri FROM observations').pluck().all()).toEqual([
        'https://s.example/robots.txt',
      ]);
      reader.close();
      release();
      expect((await run).captures.new).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the indexes of observations', () => {
  const indexes = (path: string) => {
    const db = openDatabase(path);
    const rows = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'observations' ORDER BY name",
      )
      .all();
    db.close();
    return rows;
  };

  it('an import into an empty cache leaves the indexes a new cache has', async () => {
    const fresh = join(env.tmp.dir, 'fresh.sqlite');
    openDatabase(fresh).close();
    const path = join(env.tmp.dir, 'indexed.sqlite');
    const warc = gz(ccCapture('https://i.example/robots.txt', '2024-01-01T00:00:00Z', 200, A));
    await importArchives([archiveInput('i.warc.gz', warc)], { cache: path, maxBody: 512_000 });
    expect(indexes(path)).toEqual(indexes(fresh));
    expect(indexes(path)).toHaveLength(4);
  });

  it('a run killed while they were dropped leaves them to the next store opened on the file', () => {
    const fresh = join(env.tmp.dir, 'fresh2.sqlite');
    openDatabase(fresh).close();
    const path = join(env.tmp.dir, 'dropped.sqlite');
    const db = openDatabase(path);
    expect(new ObservationStore(db).deferIndexes()).toBe(true);
    db.close();
    expect(indexes(path)).toHaveLength(1);
    const again = openDatabase(path);
    new ObservationStore(again);
    again.close();
    expect(indexes(path)).toEqual(indexes(fresh));
  });
});

describe('the index of versions by body', () => {
  const bodyIndex = (path: string) => {
    const db = new Database(path, { readonly: true });
    const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'versions_sha256'").get();
    db.close();
    return row;
  };

  it('is built once after a rebuild into an empty versions table, and kept while versions holds rows', async () => {
    const fresh = join(env.tmp.dir, 'fresh3.sqlite');
    openDatabase(fresh).close();
    const path = join(env.tmp.dir, 'bodies.sqlite');
    const seen: unknown[] = [];
    const onProgress = (p: { phase: string }) => {
      if (p.phase === 'rebuild') seen.push(bodyIndex(path));
    };
    const warc = gz(ccCapture('https://b.example/robots.txt', '2024-01-01T00:00:00Z', 200, A));
    await importArchives([archiveInput('b.warc.gz', warc)], { cache: path, maxBody: 512_000, onProgress });
    expect(seen).toEqual([undefined]);
    expect(bodyIndex(path)).toEqual(bodyIndex(fresh));
    seen.length = 0;
    const later = gz(ccCapture('https://b.example/robots.txt', '2024-02-01T00:00:00Z', 200, B));
    await importArchives([archiveInput('c.warc.gz', later)], { cache: path, maxBody: 512_000, onProgress });
    expect(seen).toEqual([bodyIndex(fresh)]);
    expect(exportCache(path).map((v) => v.sha256)).toEqual([sha256(A), sha256(B)]);
  });

  it('a run killed while it was dropped leaves it to the next store opened on the file', () => {
    const fresh = join(env.tmp.dir, 'fresh4.sqlite');
    openDatabase(fresh).close();
    const path = join(env.tmp.dir, 'dropped-versions.sqlite');
    const db = openDatabase(path);
    db.exec('DROP INDEX versions_sha256');
    db.close();
    expect(bodyIndex(path)).toBeUndefined();
    const again = openDatabase(path);
    new ObservationStore(again);
    again.close();
    expect(bodyIndex(path)).toEqual(bodyIndex(fresh));
  });
});

describe('prune after an import', () => {
  it('builds again the indexes an import killed while they were dropped left missing, before it deletes', async () => {
    const path = join(env.tmp.dir, 'killed.sqlite');
    const uri = 'https://k.example/robots.txt';
    await importArchives([archiveInput('k.warc.gz', gz(ccCapture(uri, '2020-01-01T00:00:00Z', 200, A)))], {
      cache: path,
      maxBody: 512_000,
    });
    const indexes = (db: ReturnType<typeof openDatabase>) =>
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .pluck()
        .all();
    const raw = openDatabase(path);
    const all = indexes(raw);
    expect(all).toEqual(expect.arrayContaining(['observations_sha256', 'versions_sha256']));
    // As an import leaves them when it is killed after dropping them.
    raw.exec('DROP INDEX observations_sha256; DROP INDEX versions_sha256');
    raw.close();
    const cache = new PolicyCache(path, { mustExist: true });
    pruneCache(cache, Date.parse('2019-01-01T00:00:00Z'));
    expect(indexes(cache.db)).toEqual(all);
    cache.close();
  });

  it('prune drops the observations of what it removes, keeps the bodies observations still use, and a later import rebuilds cleanly', async () => {
    const path = join(env.tmp.dir, 'pruned.sqlite');
    const uri = 'https://p.example/robots.txt';
    const old = gz([
      ...ccCapture(uri, '2020-01-01T00:00:00Z', 200, A),
      ...ccCapture(uri, '2020-02-01T00:00:00Z', 200, B),
    ]);
    await importArchives([archiveInput('old.warc.gz', old)], { cache: path, maxBody: 512_000 });
    const cache = new PolicyCache(path, { mustExist: true });
    pruneCache(cache, Date.parse('2021-01-01T00:00:00Z'));
    cache.close();
    expect(exportCache(path)).toEqual([]);
    // Pruned history does not come back with the next capture of the origin.
    const later = gz(ccCapture(uri, '2024-01-01T00:00:00Z', 200, A));
    await importArchives([archiveInput('new.warc.gz', later)], { cache: path, maxBody: 512_000 });
    expect(exportCache(path).map((v) => [v.sha256, v.validFrom])).toEqual([
      [sha256(A), t('2024-01-01T00:00:00Z')],
    ]);
    const db = openDatabase(path);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM bodies').get()).toEqual({ n: 1 });
    db.close();
  });
});

describe('import order', () => {
  it('a redirect target is kept or not whatever the order the files are read in', async () => {
    const target = gz(ccCapture('https://o.example/policy', '2024-01-01T00:00:00Z', 200, B));
    const redirect = gz(
      ccCapture('http://o.example/robots.txt', '2024-01-01T00:00:00Z', 301, '', [
        ['Location', 'https://o.example/policy'],
      ]),
    );
    const [ab, ba] = [join(env.tmp.dir, 'ab.sqlite'), join(env.tmp.dir, 'ba.sqlite')];
    const options = { maxBody: 512_000 };
    await importArchives([archiveInput('t.warc.gz', target), archiveInput('r.warc.gz', redirect)], {
      cache: ab,
      ...options,
    });
    await importArchives([archiveInput('r.warc.gz', redirect), archiveInput('t.warc.gz', target)], {
      cache: ba,
      ...options,
    });
    expect(exportCache(ba)).toEqual(exportCache(ab));
  });
});
