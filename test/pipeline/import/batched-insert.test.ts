/** Rows written several per INSERT: what is stored and counted is what a row-by-row write gives. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { importArchives } from '../../../src/pipeline/import/import-archives.js';
import { tempDir } from '../fetch/harness.js';
import { archiveInput, ccCapture, gz } from './warc-fixtures.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const A = 'User-agent: *\nDisallow: /a\n';
const B = 'User-agent: *\nDisallow: /b\n';

/** `n` captures of as many origins, a day apart. */
const captures = (n: number) =>
  gz(
    Array.from({ length: n }, (_, i) =>
      ccCapture(
        `https://o${String(i).padStart(3, '0')}.example/robots.txt`,
        new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
        200,
        i % 2 === 0 ? A : B,
      ),
    ).flat(),
  );

const rows = (path: string, sql: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).raw().all() as unknown[][];
  } finally {
    db.close();
  }
};

describe('observations written several per INSERT', () => {
  it('get their ids in the order read, and the summary counts new and already stored captures', async () => {
    const path = join(tmp.dir, 'counted.sqlite');
    // 70 captures: two full statements and leftovers; the second input repeats the first one's sources.
    const warc = captures(70);
    const s = await importArchives([archiveInput('a.warc.gz', warc), archiveInput('a.warc.gz', warc)], {
      cache: path,
      maxBody: 512_000,
    });
    expect([s.captures.total, s.captures.new, s.captures.alreadyStored]).toEqual([140, 70, 70]);
    const ids = rows(path, 'SELECT id, uri FROM observations ORDER BY id');
    expect(ids.map(([id]) => id)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
    expect(ids.map(([, uri]) => uri)).toEqual(
      Array.from({ length: 70 }, (_, i) => `https://o${String(i).padStart(3, '0')}.example/robots.txt`),
    );
  });
});

describe('versions written several per INSERT', () => {
  it('an origin whose versions are replaced after others were queued leaves the ids a row-by-row rebuild gives', async () => {
    const path = join(tmp.dir, 'replaced.sqlite');
    const later = (uri: string, date: string, body: string) =>
      archiveInput('b.warc.gz', gz(ccCapture(uri, date, 200, body)));
    await importArchives([later('https://z.example/robots.txt', '2024-01-01T00:00:00Z', A)], {
      cache: path,
      maxBody: 512_000,
    });
    expect(rows(path, 'SELECT id, origin FROM versions')).toEqual([[1, 'https://z.example']]);
    // The next rebuild writes a.example's version (new), then replaces z.example's (id 1, the largest).
    const both = gz([
      ...ccCapture('https://a.example/robots.txt', '2024-02-01T00:00:00Z', 200, A),
      ...ccCapture('https://z.example/robots.txt', '2024-02-01T00:00:00Z', 200, B),
    ]);
    await importArchives([archiveInput('c.warc.gz', both)], { cache: path, maxBody: 512_000 });
    expect(rows(path, 'SELECT id, origin, valid_from FROM versions ORDER BY id')).toEqual([
      [2, 'https://a.example', Date.parse('2024-02-01T00:00:00Z')],
      [3, 'https://z.example', Date.parse('2024-01-01T00:00:00Z')],
      [4, 'https://z.example', Date.parse('2024-02-01T00:00:00Z')],
    ]);
  });
});
