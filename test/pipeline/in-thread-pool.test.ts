import { describe, expect, it } from 'vitest';
import { InThreadPool } from '../../src/pipeline/in-thread-pool.js';
import type { BatchStats, PolicyRequest } from '../../src/workers/protocol.js';
import { config, dirFetcher, ROBOTS, robotsDir } from '../workers/classify-fixtures.js';

const dir = robotsDir(ROBOTS);

function batch(text: string): Buffer {
  const b = Buffer.allocUnsafeSlow(text.length + 16);
  b.write(text, 0, 'latin1');
  return b.subarray(0, text.length);
}

const ROWS =
  'a.example,https://a.example/g-only/x\nb.example,https://b.example/\nq.example,https://q.example/x\n';
const VERDICTS = [
  'a.example,https://a.example/g-only/x,false,disallowed_explicit,6,Disallow: /g-only,file,',
  'b.example,https://b.example/,false,disallowed_explicit,2,Disallow: /,file,',
  'q.example,https://q.example/x,true,allowed_unavailable,,,missing,',
];

describe('InThreadPool: a worker’s work in this thread', () => {
  it('judges a batch with policies from the resolver, and hands back its buffers', async () => {
    const asked: string[] = [];
    const { fetch } = dirFetcher(dir);
    const pool = new InThreadPool(config(), (req: PolicyRequest) => {
      asked.push(...req.keys);
      return fetch(req);
    });
    const input = batch(ROWS);
    const spares: ArrayBuffer[] = [];
    const tooSmall = new ArrayBuffer(8);
    const r = await pool.run(input, tooSmall, (ab) => spares.push(ab));
    expect(Buffer.from(r.output, 0, r.length).toString('latin1')).toBe(`${VERDICTS.join('\n')}\n`);
    expect(r.input).toBe(input.buffer);
    // The recycled buffer was too small for the output: it comes back, not lost.
    expect(spares).toEqual([tooSmall]);
    expect(r.stats.records).toBe(3);
    expect(asked.sort()).toEqual(['https://a.example', 'https://b.example', 'https://q.example']);
    const flushed: BatchStats[] = [];
    await pool.flush((s) => flushed.push(s));
    expect(flushed.map((s) => s.records)).toEqual([0]);
    await pool.destroy();
  });

  it('reads --robots-dir files itself, never asking the resolver, and tallies them', async () => {
    const pool = new InThreadPool(config({ robotsDir: dir }), () => {
      throw new Error('the resolver must not be asked under --robots-dir');
    });
    const r = await pool.run(batch(ROWS), null, () => {});
    expect(Buffer.from(r.output, 0, r.length).toString('latin1')).toBe(`${VERDICTS.join('\n')}\n`);
    expect(r.stats.policies?.resolved).toBe(3);
  });

  it('numbers rows across batches in call order with rowNumber', async () => {
    const pool = new InThreadPool(config({ robotsDir: dir, rowNumber: true }), () => Promise.resolve([]));
    const first = await pool.run(
      batch('b.example,https://b.example/1\nb.example,https://b.example/2\n'),
      null,
      () => {},
    );
    const second = await pool.run(batch('b.example,https://b.example/3\n'), null, () => {});
    const text = (r: typeof first) =>
      Buffer.from(r.output, 0, r.length)
        .toString('latin1')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split(',')[0]);
    expect([...text(first), ...text(second)]).toEqual(['1', '2', '3']);
  });

  it('fails as a worker does: the code kept, the message after "worker failed:"', async () => {
    const pool = new InThreadPool(config(), () =>
      Promise.reject(Object.assign(new Error('cache gone'), { code: 'ERR_CACHE_OPEN' })),
    );
    await expect(pool.run(batch(ROWS), null, () => {})).rejects.toMatchObject({
      code: 'ERR_CACHE_OPEN',
      message: 'worker failed: cache gone',
    });
  });
});
