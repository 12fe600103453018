import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/pipeline/classify.js';
import {
  classifyInThread,
  oneBatchFile,
  runClassify,
  threadable,
} from '../../src/pipeline/classify-thread.js';
import { MESSY_ROBOTS, messyLog, tempDir, writeRobots } from './classify-data.js';

const dir = tempDir('ra-thread-');
const robots = writeRobots(dir, MESSY_ROBOTS);

/** The summary without its timings, which differ from run to run. */
function figures(s: Awaited<ReturnType<typeof classify>>): unknown {
  const { timing: _t, rowsPerSecond: _r, output: _o, ...rest } = s;
  return rest;
}

describe('threadable', () => {
  it('takes file to file runs with the policy source the options select, and nothing else', () => {
    const base = { input: 'in.csv', output: 'out.csv', agents: ['x'] };
    expect(threadable(base)).toBe(true);
    expect(threadable({ ...base, output: 'out.csv.gz' })).toBe(true);
    expect(threadable({ ...base, input: '-' })).toBe(false);
    expect(threadable({ ...base, output: '-' })).toBe(false);
    expect(threadable({ ...base, output: '/dev/stdout' })).toBe(false);
    expect(threadable({ ...base, output: '/dev/fd/1' })).toBe(false);
    expect(threadable({ ...base, output: undefined })).toBe(false);
    expect(threadable({ ...base, input: process.stdin })).toBe(false);
    const provider = { get: async () => ({}) as never, close: async () => {} };
    expect(threadable({ ...base, provider } as never)).toBe(false);
  });
});

describe('oneBatchFile', () => {
  const file = (name: string, body: string | Buffer) => {
    const p = path.join(dir, name);
    writeFileSync(p, body);
    return p;
  };

  it('takes a regular file of at most 64 KiB, empty or not', () => {
    expect(oneBatchFile(file('one-row.csv', 'host,url\na.test,http://a.test/\n'))).toBe(true);
    expect(oneBatchFile(file('64k.csv', 'x'.repeat(64 * 1024)))).toBe(true);
    expect(oneBatchFile(file('empty.csv', ''))).toBe(true);
  });

  it('refuses a larger file, gzip of any size, stdin, a stream, a directory, a missing file', () => {
    expect(oneBatchFile(file('64k-plus.csv', 'x'.repeat(64 * 1024 + 1)))).toBe(false);
    expect(oneBatchFile(file('small.csv.gz', gzipSync('host,url\n')))).toBe(false);
    // Recognised by content, as classify reads it, whatever the name.
    expect(oneBatchFile(file('gzip-named.csv', gzipSync('host,url\n')))).toBe(false);
    expect(oneBatchFile('-')).toBe(false);
    expect(oneBatchFile(process.stdin)).toBe(false);
    const sub = path.join(dir, 'a-dir');
    mkdirSync(sub, { recursive: true });
    expect(oneBatchFile(sub)).toBe(false);
    expect(oneBatchFile(path.join(dir, 'none.csv'))).toBe(false);
  });

  it('refuses a FIFO without opening it (opening would wait for a writer)', () => {
    const fifo = path.join(dir, 'in.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(oneBatchFile(fifo)).toBe(false);
  });
});

describe('classifyInThread', () => {
  it('writes the same output and the same figures as classify in this thread', async () => {
    const { bytes } = messyLog();
    const input = path.join(dir, 'messy.csv');
    writeFileSync(input, bytes);
    const here = path.join(dir, 'here.csv');
    const there = path.join(dir, 'there.csv');
    const params = { input, agents: ['Googlebot', 'GPTBot'], robotsDir: robots, threads: 2 };
    const a = await classify({ ...params, output: here });
    const b = await classifyInThread({ ...params, output: there });
    expect(readFileSync(there, 'utf8')).toBe(readFileSync(here, 'utf8'));
    expect(figures(b)).toEqual(figures(a));
    expect(b.output).toBe(there);
    expect(b.rowsWritten).toBe(messyLog().expected.length);
  });

  it('rejects with the code and message classify gives: missing input, bad option', async () => {
    const output = path.join(dir, 'never.csv');
    const missing = { input: path.join(dir, 'none.csv'), output, agents: ['x'], robotsDir: robots };
    const inThread = await classifyInThread(missing).catch((e: unknown) => e);
    const inHere = await classify(missing).catch((e: unknown) => e);
    expect(inThread).toMatchObject({ code: 'ERR_INPUT', message: (inHere as Error).message });
    await expect(classifyInThread({ ...missing, threads: 'many' })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: expect.stringMatching(/^Invalid option `threads`/),
    });
    expect(existsSync(output)).toBe(false);
  });

  it('refuses what it cannot run; runClassify runs that in this thread instead', async () => {
    const { bytes } = messyLog();
    const input = path.join(dir, 'stdout.csv');
    writeFileSync(input, bytes);
    await expect(classifyInThread({ input, output: '-', agents: ['x'] })).rejects.toMatchObject({
      code: 'ERR_USAGE',
    });
    const output = path.join(dir, 'run.csv');
    const s = await runClassify({ input, output, agents: ['Googlebot'], robotsDir: robots });
    expect(s.rowsWritten).toBe(messyLog().expected.length);
  });
});
