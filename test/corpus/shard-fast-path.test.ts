// Real crawl URLs (../shared/corpus/urls, present in CI): the shard a row is read into is the shard of
// the host its full resolution gives, for every URL as crawled and in other spellings of it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../src/pipeline/input/batcher.js';
import { ShardFilter } from '../../src/pipeline/input/shard-filter.js';
import { resolveRowUrl } from '../../src/rows/row-url.js';
import { hostHash, plainUrlHostHash, shardOf } from '../../src/rows/shard.js';

const links = fileURLToPath(new URL('../../../shared/corpus/urls/anubhavp28-links/', import.meta.url));
const hasCorpus = existsSync(links);

function corpusUrls(): string[] {
  const urls: string[] = [];
  for (const f of readdirSync(links).sort()) {
    for (const u of readFileSync(join(links, f), 'utf8').split('\n'))
      if (u.trim() !== '') urls.push(u.trim());
  }
  return urls;
}

/** Other spellings of a URL's host part: upper case, a trailing dot, a default port, userinfo. */
function variants(url: string): string[] {
  const m = /^(https?):\/\/([^/?#]*)(.*)$/.exec(url);
  if (m === null) return [];
  const [, scheme, authority, rest] = m;
  return [
    `${scheme}://${authority!.toUpperCase()}${rest}`,
    `${scheme}://${authority}.${rest}`,
    `${scheme}://${authority}:${scheme === 'https' ? 443 : 80}${rest}`,
    `${scheme}://user@${authority}${rest}`,
    `${scheme!.toUpperCase()}://${authority}${rest}`,
  ];
}

describe.skipIf(!hasCorpus)('shard fast path on real URLs (../shared/corpus/urls)', () => {
  const urls = hasCorpus ? corpusUrls() : [];

  it('answers the host hash of the full resolution, or leaves the row to it', () => {
    let answered = 0;
    let checked = 0;
    for (const url of urls) {
      for (const u of [url, ...variants(url)]) {
        const bytes = Buffer.from(u);
        const h = plainUrlHostHash(bytes, 0, bytes.length);
        checked++;
        if (h < 0) continue;
        const r = resolveRowUrl(u, undefined, 'https');
        expect(r.ok, u).toBe(true);
        if (r.ok) expect(h, u).toBe(hostHash(r.origin.host));
        if (u === url) answered++;
      }
    }
    expect(checked).toBeGreaterThan(500_000);
    // The fast path is the common case: most URLs as crawled are answered without the full resolution.
    expect(answered / urls.length).toBeGreaterThan(0.9);
  });

  it('drops, as a crawl log is read, only the rows whose resolved host is of another shard', () => {
    const rows = urls.map((u) => ({ url: u, host: new URL(u).hostname }));
    const field = (u: string) => (/[",\r\n]/.test(u) ? `"${u.replace(/"/g, '""')}"` : u);
    const text = `${rows.map((r) => `${r.host},${field(r.url)}`).join('\n')}\n`;
    for (let k = 1; k <= 4; k++) {
      const batcher = new Batcher(44);
      const filter = new ShardFilter(
        { shard: { index: k, count: 4 }, delimiter: ',', urlIndex: 1, columns: 2, lineMode: false },
        batcher.pool,
      );
      const kept: string[] = [];
      const take = (list: { bytes: Buffer }[]) => {
        for (const b of list) kept.push(b.bytes.toString());
      };
      for (const b of batcher.push(Buffer.from(text))) take(filter.push(b));
      for (const b of batcher.end()) take(filter.push(b));
      take(filter.flush());
      const keptLines = new Set(kept.join('').split('\n'));
      let mine = 0;
      for (const r of rows) {
        const resolved = resolveRowUrl(r.url, r.host, 'https');
        const line = `${r.host},${field(r.url)}`;
        if (resolved.ok && shardOf(resolved.origin.host, 4) !== k) continue;
        mine++;
        expect(keptLines.has(line), `shard ${k}: ${line}`).toBe(true);
      }
      // Nothing else was kept but blank text, and what the fast path could not decide (a few).
      expect(keptLines.size - 1).toBeLessThan(mine + urls.length * 0.05);
    }
  });
});
