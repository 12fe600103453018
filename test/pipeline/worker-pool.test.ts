import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClassifyPool, workerFile } from '../../src/pipeline/worker-pool.js';
import { BatchClassifier } from '../../src/workers/batch-classifier.js';
import { runNode } from '../helpers/run-cli.js';
import { config, dirFetcher, ROBOTS, robotsDir } from '../workers/classify-fixtures.js';

// A real Piscina pool running the built worker (dist/): `npm test` builds first.
const dir = robotsDir(ROBOTS);
const { fetch: dirFetch } = dirFetcher(dir);
const asked: string[] = [];
const poolFetch: typeof dirFetch = (req) => {
  asked.push(...req.keys);
  return dirFetch(req);
};
const { fetch } = dirFetcher(dir);
// Three threads: this one and two workers, two batches in flight each before this thread judges one.
const pool = new ClassifyPool(config(), 3, 2, poolFetch);
afterAll(() => pool.destroy());

function batch(text: string): Buffer {
  const b = Buffer.allocUnsafeSlow(text.length + 16);
  b.write(text, 0, 'latin1');
  return b.subarray(0, text.length);
}

const lines = Array.from({ length: 400 }, (_, i) => {
  const hosts = ['a.example', 'b.example', 'z.example', 'c.example:8080'];
  const h = hosts[i % hosts.length]!;
  return `${h.split(':')[0]},https://${h}/${['g-only', 'private/x', 'port/1', 'x'][i % 3]}?n=${i}`;
});

describe('ClassifyPool (real Piscina workers)', () => {
  it('finds the built worker file from src, a CommonJS entry', () => {
    expect(existsSync(workerFile())).toBe(true);
    // .cjs: Piscina require()s its file, and require() of an ES module is the step a termination turns fatal.
    expect(workerFile()).toMatch(/dist[\\/]workers[\\/]classify-worker-entry\.cjs$/);
    expect(typeof createRequire(import.meta.url)(workerFile())).toBe('function');
  });

  it('survives pools destroyed at every moment of their start-up (no FATAL abort of the process)', async () => {
    // Before the CommonJS entry this child aborted in about 2 runs of 5 (Node 20's require(esm) under terminate).
    const child = await runNode(
      [path.join(import.meta.dirname, 'pool-churn.mjs'), '200', '100', JSON.stringify(config())],
      { timeoutMs: 110_000 },
    );
    expect(child.stderr).not.toMatch(/FATAL/);
    expect(child).toMatchObject({ code: 0, signal: null, stdout: '200 pools destroyed\n' });
  }, 120_000);

  it('classifies batches in parallel (two workers and this thread) with the same output as one classifier here', async () => {
    const solo = new BatchClassifier(config());
    const texts = [0, 1, 2, 3, 4, 5].map((k) => `${lines.slice(k * 60, k * 60 + 60).join('\n')}\n`);
    const want = [];
    for (const t of texts) want.push((await solo.classify(Buffer.from(t), fetch)).output.toString());
    const spares: ArrayBuffer[] = [];
    const results = await Promise.all(texts.map((t) => pool.run(batch(t), null, (ab) => spares.push(ab))));
    expect(results.map((r) => Buffer.from(r.output, 0, r.length).toString())).toEqual(want);
    // The input buffers come back for reuse, and every row is counted once over the batches and the flush.
    expect(results.every((r) => r.input.byteLength > 0)).toBe(true);
    const stats = results.map((r) => r.stats);
    await pool.flush((s) => stats.push(s));
    expect(stats.reduce((n, s) => n + s.records, 0)).toBe(360);
    const disallowed = stats.flatMap((s) => s.disallowedHosts).reduce((n, [, , c]) => n + c, 0);
    const explicit = stats.reduce((n, s) => n + s.verdicts[0]![2]!, 0);
    expect(disallowed).toBe(explicit);
    // Each origin's policy was asked for once: only its owner asks, and it remembers the answer.
    expect(asked.sort()).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example:8080',
      'https://z.example',
    ]);
  });

  it('runs several batches at once on one worker (tasksPerWorker), so one waiting batch does not idle it', async () => {
    // The resolver answers only once two batches wait for a policy: a worker that ran one batch at a time
    // (as Piscina does for tasks given an abort signal) would never start the second, and this would time out.
    const waiting: (() => void)[] = [];
    const gate: typeof dirFetch = (req) =>
      new Promise((resolve, reject) => {
        waiting.push(() => dirFetch(req).then(resolve, reject));
        if (waiting.length === 2) for (const go of waiting.splice(0)) go();
      });
    // Two threads: one worker, which takes both batches (this thread judges only once it has two).
    const one = new ClassifyPool(config(), 2, 2, gate);
    try {
      const results = await Promise.all([
        one.run(batch('a.example,https://a.example/g-only\n'), null, () => {}),
        one.run(batch('b.example,https://b.example/x\n'), null, () => {}),
      ]);
      expect(results.map((r) => r.stats.records)).toEqual([1, 1]);
    } finally {
      await one.destroy();
    }
  }, 10_000);

  it('writes into a recycled output buffer when it is large enough', async () => {
    const into = Buffer.allocUnsafeSlow(1 << 16).buffer as ArrayBuffer;
    const r = await pool.run(batch('a.example,https://a.example/g-only\n'), into, () => {});
    expect(r.output.byteLength).toBe(1 << 16);
    expect(Buffer.from(r.output, 0, r.length).toString()).toContain('disallowed_explicit');
  });
});
