/**
 * `robots-audit merge` through the real CLI: the outputs and summaries of real `classify --shard K/3`
 * runs merge into what the unsharded run writes; bad sets of files are one line and a non-zero exit.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measuredRun } from '../../bench/measured-run.mjs';
import type { ClassifySummary } from '../../src/pipeline/figures/summary.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { MESSY_ROBOTS, messyLog, tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-merge-');
const robots = writeRobots(dir, MESSY_ROBOTS);
const input = path.join(dir, 'crawl.csv');
const at = (name: string) => path.join(dir, name);
const NO_ENV = { JOB_COMPLETION_INDEX: '', AWS_BATCH_JOB_ARRAY_INDEX: '', AWS_BATCH_JOB_ARRAY_SIZE: '' };

/** The messy log, then enough rows over many hosts (some with quoted line breaks) for several batches. */
function crawl(): Buffer {
  const more: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const host = i % 3 === 0 ? 'a.example' : `h${i % 41}.example`;
    const id = i % 250 === 7 ? `"id ${i}\r\nspans, lines"` : `${100 + i}`;
    more.push(`${id},${host},https://${host}/${i % 2 ? 'private' : 'open'}/${i}`);
  }
  return Buffer.concat([messyLog().bytes, Buffer.from(`${more.join('\r\n')}\r\n`)]);
}

async function ok(args: string[]): Promise<void> {
  const r = await runCli(args, { env: NO_ENV });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

const CLASSIFY = ['classify', input, '--robots-dir', robots, '--agent', 'Googlebot', '--agent', 'GPTBot'];

/** Classifies the input unsharded (`single`) and as shards 1..3 of 3 (`part-K`), with summaries. */
async function runs(extra: string[], ext = 'csv'): Promise<void> {
  const all = [
    [...CLASSIFY, ...extra, '-o', at(`single.${ext}`), '--summary', at('single.json'), '--quiet'],
    [...CLASSIFY, ...extra, '--row-number', '-o', at(`single-rn.${ext}`), '--quiet'],
    ...[1, 2, 3].map((k) => [
      ...CLASSIFY,
      ...extra,
      '--threads',
      String(k),
      '--shard',
      `${k}/3`,
      '--row-number',
      '-o',
      at(`part-${k}.${ext}`),
      '--summary',
      at(`part-${k}.json`),
      '--quiet',
    ]),
  ];
  for (const args of all) await ok(args);
}

const read = (name: string) => readFileSync(at(name));
const json = (name: string) => JSON.parse(readFileSync(at(name), 'utf8')) as ClassifySummary;
const parts = (ext: string) => [1, 2, 3].map((k) => at(`part-${k}.${ext}`));

beforeAll(async () => {
  writeFileSync(input, crawl());
  await runs([]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('merge of row files', () => {
  it('the shards of a real run, merged, are the unsharded run with row numbers, byte for byte', async () => {
    const sizes = parts('csv').map((p) => readFileSync(p).length);
    expect(Math.min(...sizes)).toBeGreaterThan(1000);
    await ok(['merge', ...parts('csv').reverse(), '-o', at('merged-rn.csv')]);
    expect(read('merged-rn.csv').equals(read('single-rn.csv'))).toBe(true);
  });

  it('--drop-row-number gives the unsharded output itself, byte for byte (to stdout by default)', async () => {
    const r = await runCli(['merge', ...parts('csv'), '--drop-row-number']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Buffer.from(r.stdout).equals(read('single.csv'))).toBe(true);
  });

  it('one of the files may be stdin (-), given once', async () => {
    const r = await runCli(['merge', at('part-1.csv'), '-', at('part-3.csv'), '-o', at('merged-stdin.csv')], {
      input: read('part-2.csv'),
    });
    expect(r.stderr).toBe('');
    expect(read('merged-stdin.csv').equals(read('single-rn.csv'))).toBe(true);
    const twice = await runCli(['merge', '-', at('part-1.csv'), '-']);
    expect(twice).toMatchObject({ code: 2, stderr: 'robots-audit: stdin (-) can be given only once\n' });
  });

  it('gzip shard outputs merge into a gzip file', async () => {
    await runs([], 'csv.gz');
    await ok(['merge', ...parts('csv.gz'), '--drop-row-number', '-o', at('merged.csv.gz')]);
    expect(gunzipSync(read('merged.csv.gz')).equals(gunzipSync(read('single.csv.gz')))).toBe(true);
  }, 120_000);

  it('line mode (--no-header): shards merge into the unsharded lines, blank lines included', async () => {
    const lines = `a.example,https://a.example/private/1\n\nh1.example,/x\n"q.example\nz",/y\n${Array.from(
      { length: 200 },
      (_, i) => `h${i % 13}.example,https://h${i % 13}.example/${i}`,
    ).join('\n')}\n`;
    const lineInput = at('lines.txt');
    writeFileSync(lineInput, lines);
    const args = ['classify', lineInput, '--robots-dir', robots, '--agent', 'Googlebot', '--no-header'];
    const mode = ['--columns', 'host,url', '--quiet'];
    await ok([...args, ...mode, '-o', at('lines-single.csv')]);
    for (const k of [1, 2, 3]) {
      await ok([...args, ...mode, '--shard', `${k}/3`, '--row-number', '-o', at(`lines-${k}.csv`)]);
    }
    const files = [1, 2, 3].map((k) => at(`lines-${k}.csv`));
    await ok(['merge', ...files, '--no-header', '--drop-row-number', '-o', at('lines-merged.csv')]);
    expect(read('lines-merged.csv').equals(read('lines-single.csv'))).toBe(true);
    const asHeaded = await runCli(['merge', ...files]);
    expect(asHeaded.code).toBe(3);
    expect(asHeaded.stderr).toMatch(
      /^robots-audit: .*lines-1\.csv line 1: has no header row .*--no-header\n$/,
    );
  }, 60_000);

  it('a shard left out is one line and exit 3, and leaves an existing OUTPUT as it was, with no temporary', async () => {
    writeFileSync(at('kept.csv'), 'before\n');
    const r = await runCli(['merge', at('part-1.csv'), at('part-3.csv'), '-o', at('kept.csv')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^robots-audit: rows? [\d–]+ (is|are) missing: .*is a shard's output left out\?\n$/,
    );
    expect(readFileSync(at('kept.csv'), 'utf8')).toBe('before\n');
    expect(readdirSync(dir).filter((n) => n.includes('kept.csv') && n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('merge of summaries', () => {
  it('the shards of a real run give the unsharded summary, but for timing, threads, paths and mergedShards', async () => {
    await ok(['merge', at('part-3.json'), at('part-1.json'), at('part-2.json'), '-o', at('merged.json')]);
    const merged = json('merged.json') as ClassifySummary & { mergedShards: number };
    const single = json('single.json');
    expect(merged.mergedShards).toBe(3);
    expect(merged.shard).toBeNull();
    expect(merged.threads).toBe(6);
    expect(merged.timing.wallMs).toBe(
      Math.max(...[1, 2, 3].map((k) => json(`part-${k}.json`).timing.wallMs)),
    );
    const { timing: _t, threads: _n, rowsPerSecond: _r, output: _o, mergedShards: _m, ...rest } = merged;
    const { timing: _t2, threads: _n2, rowsPerSecond: _r2, output: _o2, ...expected } = single;
    expect(rest).toEqual(expected);
    expect(single.invalidRows).toBeGreaterThan(3);
    expect(single.blankLines).toBeGreaterThan(0);
    expect(single.topRules.Googlebot!.length).toBeGreaterThan(1);
  });

  it('a missing shard, a shard given twice, and an unsharded summary among shards are one line, exit 2', async () => {
    const missing = await runCli(['merge', at('part-1.json'), at('part-3.json')]);
    expect(missing).toMatchObject({ code: 2, stderr: 'robots-audit: missing shard 2/3\n', stdout: '' });
    writeFileSync(at('copy-2.json'), read('part-2.json'));
    const twice = await runCli(['merge', ...[1, 2, 3].map((k) => at(`part-${k}.json`)), at('copy-2.json')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(
      `robots-audit: shard 2/3 is given twice: ${at('part-2.json')} and ${at('copy-2.json')}\n`,
    );
    const mixed = await runCli(['merge', at('single.json'), at('part-1.json')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('is the summary of an unsharded run (shard null)');
  });
});

describe('bad uses', () => {
  it('summaries and row files together, no files, a missing file, the same file twice: one line each', async () => {
    const mixed = await runCli(['merge', at('part-1.json'), at('part-1.csv')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr.split('\n')).toHaveLength(2);
    expect(mixed.stderr).toContain('merge summaries with summaries and row files with row files');
    const none = await runCli(['merge']);
    expect(none.code).toBe(2);
    const gone = await runCli(['merge', at('nope.csv')]);
    expect(gone).toMatchObject({
      code: 3,
      stderr: `robots-audit: cannot read the input ${at('nope.csv')}: no such file\n`,
    });
    const same = await runCli(['merge', at('part-1.csv'), at('part-1.csv')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toBe(
      `robots-audit: ${at('part-1.csv')} is given twice (also as ${at('part-1.csv')})\n`,
    );
    const typo = await runCli(['merge', at('part-1.csv'), '--drop-row-numbers']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean --drop-row-number?');
  });

  it('an output written without --row-number is refused with what to do', async () => {
    const r = await runCli(['merge', at('single.csv')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `robots-audit: ${at('single.csv')} line 1: does not start with a row_number column (write it with classify --row-number)\n`,
    );
  });
});

describe('merge in flat memory', () => {
  it('200k rows in three files of 99 MB are merged in flat memory (peak RSS below the size of the files)', async () => {
    const pad = 'p'.repeat(450);
    const files = [1, 2, 3].map((k) => at(`big-${k}.csv`));
    for (const [i, file] of files.entries()) {
      const lines = ['row_number,host,url,verdict'];
      for (let n = i + 1; n <= 200_000; n += 3)
        lines.push(`${n},h${n % 97}.example,"/${pad}\n${n}",allowed_implicit`);
      writeFileSync(file, `${lines.join('\n')}\n`);
    }
    // A small young generation, so that peak RSS shows what is held rather than garbage not yet collected.
    const run = await measuredRun(['--max-semi-space-size=1', CLI, 'merge', ...files, '-o', at('big.csv')], {
      timeoutMs: 120_000,
    });
    const out = readFileSync(at('big.csv'));
    expect(out.length).toBeGreaterThan(95_000_000);
    // The rows come out in order: the last row is row 200000.
    const last = out.subarray(out.lastIndexOf('\n200000,') + 1).toString();
    expect(last).toBe(`200000,h${200_000 % 97}.example,"/${pad}\n200000",allowed_implicit\n`);
    // Node itself takes ~60 MiB: holding the files' 99 MB would take that past 160 MiB.
    expect(run.rssMiB).toBeLessThan(135);
    for (const f of [...files, at('big.csv')]) rmSync(f);
  }, 180_000);
});
