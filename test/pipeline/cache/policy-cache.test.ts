import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BATCH_SIZE, PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import { SCHEMA_VERSION } from '../../../src/pipeline/cache/schema.js';
import { sha256, tempDir } from '../fetch/harness.js';
import { observation } from './cache-fixtures.js';

let tmp: ReturnType<typeof tempDir>;
let path: string;
beforeEach(() => {
  tmp = tempDir();
  path = join(tmp.dir, 'cache.sqlite');
});
afterEach(() => tmp.cleanup());

const obs = observation;

/** What another connection (another process) sees in the file right now. */
function committed(): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM versions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('opening', () => {
  it('creates the schema in WAL mode with a version table and a busy timeout', () => {
    const cache = new PolicyCache(path);
    expect(cache.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(cache.db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
    expect(cache.db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: SCHEMA_VERSION });
    cache.close();
    // Reopening does not migrate again.
    const again = new PolicyCache(path);
    expect(again.db.prepare('SELECT count(*) AS n FROM schema_version').get()).toEqual({ n: 1 });
    again.close();
  });

  it('refuses a file written by a newer schema', () => {
    new PolicyCache(path).close();
    const db = new Database(path);
    db.prepare('UPDATE schema_version SET version = ?').run(SCHEMA_VERSION + 1);
    db.close();
    // ERR_CACHE_VERSION as thrown, not wrapped as ERR_CACHE_OPEN by the open's catch.
    expect(() => new PolicyCache(path)).toThrow(
      expect.objectContaining({
        code: 'ERR_CACHE_VERSION',
        message: expect.stringMatching(/newer than this robots-audit understands/),
      }),
    );
  });

  it('refuses a file that is not SQLite with ERR_CACHE_OPEN', () => {
    writeFileSync(path, 'x'.repeat(4096));
    expect(() => new PolicyCache(path)).toThrow(expect.objectContaining({ code: 'ERR_CACHE_OPEN' }));
  });

  it('mustExist refuses a missing file without creating it', () => {
    expect(() => new PolicyCache(path, { mustExist: true })).toThrow(
      expect.objectContaining({ code: 'ERR_CACHE_MISSING' }),
    );
  });
});

describe('batched writes', () => {
  it('queued writes are visible to reads at once and reach the file in one batch', () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'A', 1000));
    expect(cache.current('http://a.test')).toMatchObject({ outcome: 'parsed', sha256: sha256('A') });
    expect(committed()).toBe(0);
    for (let i = 1; i < BATCH_SIZE; i++) cache.record(obs(`http://h${i}.test`, 'B', 1000));
    expect(committed()).toBe(BATCH_SIZE);
    cache.close();
  });

  it('close() commits what is queued', () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'A', 1000));
    cache.close();
    expect(committed()).toBe(1);
  });

  it('the timer commits a partial batch within BATCH_DELAY_MS', async () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'A', 1000));
    await new Promise((r) => setTimeout(r, 800));
    expect(committed()).toBe(1);
    cache.close();
  });
});

describe('history', () => {
  it('same body: the version is confirmed; new body: the old version ends when the new one starts', () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'v1', 1000, { etag: '"1"' }));
    cache.flush();
    cache.record(obs('http://a.test', 'v1', 2000, { etag: '"1b"' }));
    cache.flush();
    cache.record(obs('http://a.test', 'v2', 3000));
    cache.record(obs('http://a.test', null, 4000));
    cache.flush();
    const h = cache.history('http://a.test');
    expect(h.map((v) => [v.outcome, v.sha256, v.validFrom, v.validTo, v.fetchedAt])).toEqual([
      ['parsed', sha256('v1'), 1000, 3000, 2000],
      ['parsed', sha256('v2'), 3000, 4000, 3000],
      ['unreachable', null, 4000, null, 4000],
    ]);
    expect(h[0]!.etag).toBe('"1b"');
    cache.close();
  });

  it('renew() confirms the current version without a new row', () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'v1', 1000, { etag: '"1"' }));
    cache.flush();
    cache.renew('http://a.test', 5000, 9000, '"2"', null);
    expect(cache.current('http://a.test')).toMatchObject({ fetchedAt: 5000, expiresAt: 9000, etag: '"2"' });
    cache.flush();
    const h = cache.history('http://a.test');
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      fetchedAt: 5000,
      expiresAt: 9000,
      etag: '"2"',
      validFrom: 1000,
      validTo: null,
    });
    cache.close();
  });

  it('an observation older than the stored one (from a slower process) is ignored', () => {
    const a = new PolicyCache(path);
    const b = new PolicyCache(path);
    a.record(obs('http://a.test', 'new', 5000));
    a.flush();
    b.record(obs('http://a.test', 'old', 4000));
    b.flush();
    expect(a.history('http://a.test').map((v) => v.sha256)).toEqual([sha256('new')]);
    a.close();
    b.close();
  });

  it('lastParsed finds the newest parsed version confirmed since a time', () => {
    const cache = new PolicyCache(path);
    cache.record(obs('http://a.test', 'v1', 1000));
    cache.record(obs('http://a.test', null, 2000));
    cache.flush();
    expect(cache.lastParsed('http://a.test', 500)?.sha256).toBe(sha256('v1'));
    expect(cache.lastParsed('http://a.test', 1500)).toBeUndefined();
    cache.close();
  });

  it('identical bodies are stored once', () => {
    const cache = new PolicyCache(path);
    for (let i = 0; i < 50; i++) cache.record(obs(`http://h${i}.test`, 'User-agent: *\nDisallow:\n', 1000));
    cache.flush();
    expect(cache.db.prepare('SELECT count(*) AS n FROM bodies').get()).toEqual({ n: 1 });
    cache.close();
  });
});
