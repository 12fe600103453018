import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI, runNode } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-threads-'));
const robots = path.join(dir, 'robots');
const counter = path.join(import.meta.dirname, '..', 'helpers', 'count-threads.mjs');
let runs = 0;

/** The CLI's argv under the thread counter, and the file it counts into. */
function counted(args: string[]): { argv: string[]; file: string } {
  const file = path.join(dir, `threads-${++runs}.txt`);
  return { argv: ['--import', counter, CLI, ...args], file };
}

function threadsStarted(file: string): number {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length
    : 0;
}

mkdirSync(robots);
writeFileSync(path.join(robots, 'a.test.txt'), 'User-agent: *\nDisallow: /private\n');

const ROW = 'a.test,http://a.test/private/1';
const HEADER = 'host,url,allowed,verdict,rule_line,rule,robots_status,error_code';
const VERDICT = 'false,disallowed_explicit,2,Disallow: /private,file,';

describe('classify starts threads only for work that needs them', () => {
  it('judges an input file of one batch without any worker thread, with the same output', async () => {
    const input = path.join(dir, 'one.csv');
    writeFileSync(input, `host,url\n${ROW}\n`);
    const output = path.join(dir, 'one.out.csv');
    const { argv, file } = counted(['classify', input, '--robots-dir', robots, '--agent', 'Googlebot']);
    const r = await runNode([...argv, '-o', output, '--threads', '2', '--quiet'], {
      env: { COUNT_THREADS_FILE: file },
    });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(output, 'utf8')).toBe(`${HEADER}\n${ROW},${VERDICT}\n`);
    expect(threadsStarted(file)).toBe(0);
  });

  it('judges one batch from stdin without any worker thread', async () => {
    const { argv, file } = counted(['classify', '-', '--robots-dir', robots, '--agent', 'Googlebot']);
    const r = await runNode([...argv, '--quiet'], {
      input: `host,url\n${ROW}\n`,
      env: { COUNT_THREADS_FILE: file },
    });
    expect(r).toMatchObject({
      code: 0,
      stdout: `${HEADER}\n${ROW},${VERDICT}\n`,
    });
    expect(threadsStarted(file)).toBe(0);
  });

  it('starts the coordinator and, with two threads, one worker for an input of more than one batch', async () => {
    const input = path.join(dir, 'two-batches.csv');
    const rows = Array.from({ length: 3000 }, (_, i) => `a.test,http://a.test/private/${i}`);
    writeFileSync(input, `host,url\n${rows.join('\n')}\n`);
    expect(readFileSync(input).length).toBeGreaterThan(64 * 1024);
    const output = path.join(dir, 'two.out.csv');
    const { argv, file } = counted(['classify', input, '--robots-dir', robots, '--agent', 'Googlebot']);
    const r = await runNode([...argv, '-o', output, '--threads', '2', '--quiet'], {
      env: { COUNT_THREADS_FILE: file },
    });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = readFileSync(output, 'utf8').split('\n');
    expect(lines.length).toBe(3002);
    expect(lines[3000]).toBe(`a.test,http://a.test/private/2999,${VERDICT}`);
    // The coordinator's thread is one of the two that judge.
    expect(threadsStarted(file)).toBe(2);
  });

  it('starts workers for a trickling stdin, whose first rows go out before it ends', async () => {
    const { argv, file } = counted(['classify', '-', '--robots-dir', robots, '--agent', 'Googlebot']);
    const child = spawn(process.execPath, [...argv, '--threads', '2', '--quiet'], {
      env: { ...process.env, COUNT_THREADS_FILE: file },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    child.stdin.write(`host,url\n${ROW}\n`);
    // The first row is written while the input is still open (it waits at most 100 ms for its batch).
    const deadline = Date.now() + 20_000;
    while (!stdout.includes(VERDICT) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stdout).toBe(`${HEADER}\n${ROW},${VERDICT}\n`);
    child.stdin.end('a.test,http://a.test/open\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout.split('\n')[2]).toBe('a.test,http://a.test/open,true,allowed_implicit,,,file,');
    // The coordinator stays on the main thread with stdin, and judges there beside one worker.
    expect(threadsStarted(file)).toBe(1);
  });

  it('judges an input of many batches with one thread in the coordinator, with the same output', async () => {
    const input = path.join(dir, 'one-thread.csv');
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `a.test,http://a.test/${i % 2 ? 'private' : 'open'}/${i}`,
    );
    writeFileSync(input, `host,url\n${rows.join('\n')}\n`);
    const outputs: string[] = [];
    const started: number[] = [];
    for (const threads of ['1', '2']) {
      const output = path.join(dir, `one-thread-${threads}.out.csv`);
      const { argv, file } = counted(['classify', input, '--robots-dir', robots, '--agent', 'Googlebot']);
      const r = await runNode([...argv, '-o', output, '--threads', threads, '--quiet'], {
        env: { COUNT_THREADS_FILE: file },
      });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      outputs.push(readFileSync(output, 'utf8'));
      started.push(threadsStarted(file));
    }
    expect(outputs[0]!.split('\n')[3000]).toBe(`a.test,http://a.test/private/2999,${VERDICT}`);
    expect(outputs[0]).toBe(outputs[1]);
    // One thread: the coordinator's, which judges the rows itself; two: the coordinator and two workers.
    expect(started).toEqual([1, 2]);
  });

  it('without --threads, judges an input file below 32 MiB in one thread; a gzip input gets one per core', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `a.test,http://a.test/private/${i}`);
    const text = `host,url\n${rows.join('\n')}\n`;
    const plain = path.join(dir, 'auto.csv');
    const packed = path.join(dir, 'auto.csv.gz');
    writeFileSync(plain, text);
    writeFileSync(packed, gzipSync(text));
    const seen: { threads: number; started: number; output: string }[] = [];
    for (const input of [plain, packed]) {
      const output = path.join(dir, `${path.basename(input)}.out.csv`);
      const summary = `${output}.json`;
      const { argv, file } = counted(['classify', input, '--robots-dir', robots, '--agent', 'Googlebot']);
      const r = await runNode([...argv, '-o', output, '--summary', summary, '--quiet'], {
        env: { COUNT_THREADS_FILE: file },
      });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      const threads = JSON.parse(readFileSync(summary, 'utf8')).threads as number;
      seen.push({ threads, started: threadsStarted(file), output: readFileSync(output, 'utf8') });
    }
    expect(seen[0]!.output.split('\n')[3000]).toBe(`a.test,http://a.test/private/2999,${VERDICT}`);
    expect(seen[1]!.output).toBe(seen[0]!.output);
    // The coordinator's thread alone judges the plain file; the gzip one's size says little of its rows.
    const cores = availableParallelism();
    expect(seen.map(({ threads, started }) => ({ threads, started }))).toEqual([
      { threads: 1, started: 1 },
      { threads: cores, started: cores },
    ]);
  });
});
