import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measuredRun } from '../../bench/measured-run.mjs';
import { makeOriginWorkload } from '../../bench/origin-workload.mjs';
import { CLI } from '../helpers/run-cli.js';

const ROWS = 2_000_000;
const FEW = 20_000;
const work = mkdtempSync(path.join(tmpdir(), 'ra-scale-origins-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function lines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  }
  return n;
}

/** Classifies ROWS rows over `origins` hosts with an empty --robots-dir; CPU and peak RSS of the run. */
async function classify(origins: number) {
  const dir = path.join(work, String(origins));
  const { input, robots } = await makeOriginWorkload({ dir, rows: ROWS, origins });
  const output = path.join(dir, 'out.csv');
  const run = await measuredRun(
    [CLI, 'classify', input, '--robots-dir', robots, '--agent', 'Googlebot', '-o', output, '--quiet'],
    { timeoutMs: 600_000 },
  );
  expect(await lines(output)).toBe(ROWS + 1);
  rmSync(dir, { recursive: true, force: true });
  return run;
}

describe('classify at scale in distinct origins', () => {
  it('the CPU time per row over 2M distinct origins stays within 2x of 2M rows over 20k origins, under 300 MiB (past ~100k origins every new origin rescanned the whole origin table)', async () => {
    const few = await classify(FEW);
    const many = await classify(ROWS);
    const ratio = many.cpuS / few.cpuS;
    console.log(
      `${ROWS} rows: ${FEW} origins ${few.cpuS.toFixed(2)} s CPU (${few.wallS.toFixed(2)} s wall, ${few.rssMiB.toFixed(0)} MiB); ` +
        `${ROWS} origins ${many.cpuS.toFixed(2)} s CPU (${many.wallS.toFixed(2)} s wall, ${many.rssMiB.toFixed(0)} MiB); ratio ${ratio.toFixed(2)}`,
    );
    expect(ratio).toBeLessThanOrEqual(2);
    expect(few.rssMiB).toBeLessThan(300);
    expect(many.rssMiB).toBeLessThan(300);
  });
});
