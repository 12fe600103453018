import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Affinity, BatchClassifier, type PolicyFetcher } from '../../src/workers/batch-classifier.js';
import { ADOPT_AFTER_ROWS, ownerOf, siteStart } from '../../src/workers/foreign-rows.js';
import type { WirePolicy } from '../../src/workers/protocol.js';
import { config, dirFetcher, ROBOTS, robotsDir } from './classify-fixtures.js';

const dir = robotsDir(ROBOTS);

/** Two workers' classifiers in one thread, each owning the hosts that hash to it. */
function pair() {
  const { fetch } = dirFetcher(dir);
  const workers: BatchClassifier[] = [];
  const asks = [0, 0];
  const affinity = (self: number): Affinity => ({
    self,
    threads: 2,
    ask: (owner, req) => {
      asks[owner]!++;
      return workers[owner]!.answer(structuredClone(req), fetch);
    },
  });
  workers.push(new BatchClassifier(config(), affinity(0)), new BatchClassifier(config(), affinity(1)));
  return { workers, fetch, asks };
}

const hosts = ['a.example', 'b.example', 'c.example:8080', 'z.example', 'bücher.example', 'A.EXAMPLE'];
const line = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...hosts),
      fc.constantFrom('/', '/private/x', '/g-only', '/port/1', '/café', '/x?y=1'),
    )
    .map(([h, p]) => `${h.split(':')[0]},https://${h}${p}`),
  fc.constantFrom(
    'a.example,"https://a.example/g-only,1"',
    'a.example,',
    'x,/p',
    ',/p',
    'a.example,ftp://x/',
  ),
);

describe('origin affinity between workers', () => {
  it('owns a host by the FNV-1a hash of its host string, modulo the number of workers', () => {
    // The FNV specification's test vectors: with 2^32 workers the owner is the hash itself.
    expect(ownerOf('', 2 ** 32)).toBe(0x811c9dc5);
    expect(ownerOf('a', 2 ** 32)).toBe(0xe40c292c);
    expect(ownerOf('foobar', 2 ** 32)).toBe(0xbf9cf968);
    // Owners of known hosts, worked out from the same hash outside the code under test.
    const expected: [string, number, number, number][] = [
      ['a.example', 0, 2, 0],
      ['b.example', 1, 2, 1],
      ['c.example', 0, 1, 2],
      ['d.example', 1, 0, 3],
      ['h.example', 1, 0, 3],
    ];
    for (const [host, of2, of3, of4] of expected) {
      expect([ownerOf(host, 2), ownerOf(host, 3), ownerOf(host, 4)], host).toEqual([of2, of3, of4]);
    }
    expect(ownerOf('anything', 1)).toBe(0);
  });

  it("owns a host by its site's hash: the last two labels, three under a short second level of a country code", () => {
    const site = (h: string) => h.slice(siteStart(h));
    expect(site('www.example.com')).toBe('example.com');
    expect(site('a.b.c.example.org')).toBe('example.org');
    expect(site('example.com')).toBe('example.com');
    expect(site('www.bbc.co.uk')).toBe('bbc.co.uk');
    expect(site('shop.example.com.au')).toBe('example.com.au');
    expect(site('bbc.co.uk')).toBe('bbc.co.uk');
    expect(site('news.example.de')).toBe('example.de');
    expect(site('a.longname.io')).toBe('longname.io');
    expect(site('www.example.com.')).toBe('example.com.');
    expect(site('www.bbc.co.uk.')).toBe('bbc.co.uk.');
    expect(site('example.com.')).toBe('example.com.');
    // IP literals and one-label hosts are their own site.
    expect(site('192.168.1.20')).toBe('192.168.1.20');
    expect(site('[2001:db8::1]')).toBe('[2001:db8::1]');
    expect(site('localhost')).toBe('localhost');
    expect(site('')).toBe('');
    expect(site('.')).toBe('.');
    // The owner is the FNV-1a hash of the site alone (worked out outside the code under test).
    expect(ownerOf('a.www.foobar', 2 ** 32)).toBe(0x47a82c2f);
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('example.com', 'example.co.uk', 'blogspot.com', 'city.gov.br', 'name.io'),
        fc.integer({ min: 2, max: 8 }),
        (labels, base, threads) => {
          const host = `${labels.join('.')}.${base}`;
          expect(host.slice(siteStart(host))).toBe(base);
          expect(ownerOf(host, threads)).toBe(ownerOf(base, threads));
        },
      ),
    );
  });

  it('spreads hosts over all workers', () => {
    const hosts = Array.from({ length: 64 }, (_, i) => `host${i}.example`);
    for (const threads of [2, 3, 4]) {
      const counts = new Array<number>(threads).fill(0);
      for (const h of hosts) counts[ownerOf(h, threads)]!++;
      expect(Math.min(...counts), `${threads} workers: ${counts}`).toBeGreaterThan(0);
    }
  });

  it('gives the same output as one worker alone, and compiles each body once overall', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 60 }), async (lines) => {
        const input = `${lines.join('\n')}\n`;
        const solo = new BatchClassifier(config());
        const { fetch } = dirFetcher(dir);
        const want = (await solo.classify(Buffer.from(input), fetch)).output.toString();
        const { workers, fetch: f2 } = pair();
        const first = (await workers[0]!.classify(Buffer.from(input), f2)).output.toString();
        const second = (await workers[1]!.classify(Buffer.from(input), f2)).output.toString();
        expect(first).toBe(want);
        expect(second).toBe(want);
        expect(workers[0]!.store.compiles + workers[1]!.store.compiles).toBe(solo.store.compiles);
      }),
      { numRuns: 60 },
    );
  });

  it('lets a peer adopt an origin once the owner has answered many of its rows', async () => {
    const { workers, fetch, asks } = pair();
    const owner = ownerOf('b.example', 2);
    const other = workers[1 - owner]!;
    const many = `${'b.example,https://b.example/x\n'.repeat(ADOPT_AFTER_ROWS)}`;
    const adoptions: Promise<WirePolicy[]>[] = [];
    const watching: PolicyFetcher = (req) => {
      const answer = fetch(req);
      if (req.adopt === true) adoptions.push(answer);
      return answer;
    };
    const first = await other.classify(Buffer.from(many), watching);
    expect(asks[owner]).toBe(1);
    expect(adoptions).toHaveLength(1);
    await adoptions[0];
    // The install follows the answer within its microtasks, all run before the next macrotask.
    await new Promise((r) => setImmediate(r));
    expect(other.store.originCount).toBe(1);
    const again = await other.classify(Buffer.from('b.example,https://b.example/y\n'), fetch);
    expect(asks[owner]).toBe(1);
    expect(again.output.toString()).toBe(
      'b.example,https://b.example/y,false,disallowed_explicit,2,Disallow: /,file,\n',
    );
    expect(first.stats.verdicts[0]![2]).toBe(ADOPT_AFTER_ROWS);
  });

  it('reports the counters of rows judged for a peer in the flush', async () => {
    const { workers, fetch } = pair();
    const owner = ownerOf('b.example', 2);
    const other = workers[1 - owner]!;
    const { stats } = await other.classify(Buffer.from('b.example,https://b.example/x\n'), fetch);
    expect(stats.verdicts[0]![2]).toBe(1);
    expect(stats.disallowedHosts).toEqual([]);
    const flushed = workers[owner]!.flush();
    expect(flushed.disallowedHosts).toEqual([[0, 'https://b.example', 1]]);
    expect(flushed.rules).toEqual([[0, 'https://b.example', 2, 'Disallow: /', 1, false]]);
    expect(workers[owner]!.flush().rules).toEqual([]);
  });
});
