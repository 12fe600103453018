import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeManyHostsWorkload } from '../../bench/many-hosts-workload.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'ra-many-hosts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A make-crawl-like source: crawl.csv from `lines`, robots/<host>.txt for `withFile`. */
function source(name: string, lines: string[], withFile: string[]): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'robots'), { recursive: true });
  writeFileSync(path.join(dir, 'crawl.csv'), `host,url\n${lines.join('\n')}\n`);
  for (const host of withFile)
    writeFileSync(path.join(dir, 'robots', `${host}.txt`), `User-agent: *\n# ${host}\n`);
  return dir;
}

describe('many-hosts workload', () => {
  it('renames the host column and the URL authority, quoted or not, and leaves a URL of another host alone', async () => {
    const src = source(
      'one',
      [
        'example.com,https://example.com/a',
        'example.com,"https://example.com/b,c"',
        'example.com,http://example.com:8080/p',
        'example.com,https://example.com',
        'example.com,https://example.com.evil.test/x',
        'other.test,https://elsewhere.test/y',
      ],
      ['example.com'],
    );
    const built = await makeManyHostsWorkload({ source: src, dir: path.join(work, 'one-out'), aliases: 1 });
    expect(readFileSync(built.input, 'utf8')).toBe(
      [
        'host,url',
        'a0.example.com,https://a0.example.com/a',
        'a0.example.com,"https://a0.example.com/b,c"',
        'a0.example.com,http://a0.example.com:8080/p',
        'a0.example.com,https://a0.example.com',
        'a0.example.com,https://example.com.evil.test/x',
        'a0.other.test,https://elsewhere.test/y',
        '',
      ].join('\n'),
    );
    expect(built).toMatchObject({ rows: 6, origins: 2, files: 1 });
    expect(readdirSync(built.robots)).toEqual(['a0.example.com.txt']);
  });

  it('spreads rows evenly over the names, the same way on every build, each name a hard link to the host file', async () => {
    const rows = Array.from({ length: 13_000 }, (_, i) =>
      i % 2 ? 'b.test,https://b.test/' : `a.test,https://a.test/${i}`,
    );
    const src = source('many', rows, ['a.test']);
    const first = await makeManyHostsWorkload({ source: src, dir: path.join(work, 'many-1'), aliases: 13 });
    const second = await makeManyHostsWorkload({ source: src, dir: path.join(work, 'many-2'), aliases: 13 });
    const text = readFileSync(first.input, 'utf8');
    expect(readFileSync(second.input, 'utf8')).toBe(text);

    const perName = new Map<string, number>();
    for (const line of text.split('\n').slice(1, -1)) {
      const name = line.slice(0, line.indexOf(','));
      expect(line.slice(name.length + 1)).toMatch(new RegExp(`^https://${name.replaceAll('.', '\\.')}/`));
      perName.set(name, (perName.get(name) ?? 0) + 1);
    }
    expect(perName.size).toBe(26);
    for (const [name, n] of perName) {
      expect(name).toMatch(/^a(\d|1[0-2])\.[ab]\.test$/);
      expect(n).toBeGreaterThan(400);
      expect(n).toBeLessThan(600);
    }
    expect(first).toMatchObject({ rows: 13_000, origins: 26, files: 13 });

    const original = statSync(path.join(src, 'robots', 'a.test.txt'));
    const links = readdirSync(first.robots).sort();
    expect(links).toHaveLength(13);
    for (const link of links) {
      expect(link).toMatch(/^a\d+\.a\.test\.txt$/);
      expect(statSync(path.join(first.robots, link)).ino).toBe(original.ino);
    }
    expect(original.nlink).toBe(27);
  });
});
