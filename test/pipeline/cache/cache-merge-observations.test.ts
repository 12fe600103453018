/** cache merge carries archive observations: merging caches that imported different archives. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { mergeCaches } from '../../../src/pipeline/cache/cache-merge.js';
import { importArchives } from '../../../src/pipeline/import/import-archives.js';
import { tempDir } from '../fetch/harness.js';
import { archiveInput, ccCapture, exportCache, gz, payloadDigest, revisit } from '../import/warc-fixtures.js';

const A = 'User-agent: *\nDisallow: /a\n';
const B = 'User-agent: *\nDisallow: /b\n';

async function importInto(path: string, files: Array<[string, Buffer]>): Promise<void> {
  const inputs = files.map(([name, bytes]) => archiveInput(name, bytes));
  await importArchives(inputs, { cache: path, maxBody: 512_000 });
}

const count = (path: string) =>
  (
    new Database(path, { readonly: true }).prepare('SELECT count(*) AS n FROM observations').get() as {
      n: number;
    }
  ).n;

describe('cache merge with imported archives', () => {
  it('merging caches that imported different archives gives the versions of one cache that imported them all, in either order', async () => {
    const tmp = tempDir();
    try {
      const one: [string, Buffer] = [
        'one.warc.gz',
        gz([
          ...ccCapture('https://m.example/robots.txt', '2024-01-01T00:00:00Z', 200, A),
          ...ccCapture('https://m.example/robots.txt', '2024-03-01T00:00:00Z', 200, A),
        ]),
      ];
      // A revisit whose original is in the other archive: only the merged observations settle it.
      const two: [string, Buffer] = [
        'two.warc.gz',
        gz([
          ...ccCapture('https://m.example/robots.txt', '2024-02-01T00:00:00Z', 200, B),
          revisit('https://m.example/robots.txt', '2024-04-01T00:00:00Z', { digest: payloadDigest(A) }),
        ]),
      ];
      const [x, y, all] = ['x', 'y', 'all'].map((n) => join(tmp.dir, `${n}.sqlite`)) as [
        string,
        string,
        string,
      ];
      await importInto(x, [one]);
      await importInto(y, [two]);
      await importInto(all, [one, two]);
      const xy = join(tmp.dir, 'xy.sqlite');
      const yx = join(tmp.dir, 'yx.sqlite');
      await mergeCaches([x, y], xy);
      await mergeCaches([y, x], yx);
      const want = exportCache(all);
      expect(want.map((v) => v.validFrom)).toEqual(
        ['2024-01-01', '2024-02-01', '2024-03-01'].map((d) => Date.parse(`${d}T00:00:00Z`)),
      );
      expect(want.at(-1)!.fetchedAt).toBe(Date.parse('2024-04-01T00:00:00Z'));
      expect(exportCache(xy)).toEqual(want);
      expect(exportCache(yx)).toEqual(want);
      expect(count(xy)).toBe(count(all));
    } finally {
      tmp.cleanup();
    }
  });
});
