import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Affinity, BatchClassifier } from '../../src/workers/batch-classifier.js';
import { ADOPT_AFTER_ROWS, ownerOf } from '../../src/workers/foreign-rows.js';
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
  it('spreads hosts over owners deterministically', () => {
    expect(ownerOf('a.example', 2)).toBe(ownerOf('a.example', 2));
    const owners = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((h) => ownerOf(`${h}.example`, 2)));
    expect(owners).toEqual(new Set([0, 1]));
    expect(ownerOf('anything', 1)).toBe(0);
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
    const first = await other.classify(Buffer.from(many), fetch);
    expect(asks[owner]).toBe(1);
    await new Promise((r) => setTimeout(r, 20)); // the adoption installs in the background
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
    expect(flushed.rules).toEqual([[0, 'https://b.example', 2, 'Disallow: /', 1]]);
    expect(workers[owner]!.flush().rules).toEqual([]);
  });
});
