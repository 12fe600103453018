/**
 * A reader that closes the pipe early (`robots-audit classify … | head -1`): stdout and a FIFO OUTPUT,
 * one and two worker threads. The run ends quietly with exit 141, as a filter killed by SIGPIPE.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/run-cli.js';
import { readThenClose, throughFifo } from '../helpers/special-files.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-epipe-');
const robots = writeRobots(dir, { 'a.example.txt': 'User-agent: *\nDisallow: /private\n' });

describe('a reader that closes the pipe early', () => {
  // Many hosts (most without a robots file) and enough rows that the run is far from done.
  const big = path.join(dir, 'big.csv');
  const rows = ['host,url'];
  for (let i = 0; i < 200_000; i++) rows.push(`h${i % 500}.example,https://h${i % 500}.example/p/${i}`);
  writeFileSync(big, `${rows.join('\n')}\n`);
  const args = [big, '--robots-dir', robots, '--agent', 'x', '--quiet'];

  for (const threads of ['1', '2']) {
    it(`a broken stdout pipe (-o -) ends the run quietly with exit 141, --threads ${threads}`, async () => {
      const r = await readThenClose(['classify', ...args, '-o', '-', '--threads', threads], (read) =>
        read.includes('\n'),
      );
      expect(r.read.split('\n')[0]).toBe('host,url,allowed,verdict,rule_line,rule,robots_status,error_code');
      expect([r.ended, r.stderr]).toEqual([[141, null], '']);
    });

    it(`a FIFO OUTPUT whose reader leaves ends the run quietly with exit 141, --threads ${threads}`, async () => {
      const d = tempDir('ra-fifo-epipe-');
      const fifo = path.join(d, 'out.fifo');
      execFileSync('mkfifo', [fifo]);
      const { run, read } = await throughFifo(fifo, ['head', '-n', '1'], ...args, '--threads', threads);
      expect(read).toBe('host,url,allowed,verdict,rule_line,rule,robots_status,error_code\n');
      expect([run.code, run.stderr]).toEqual([141, '']);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    });
  }
});

describe('commands that print to stdout', () => {
  it('check with a reader that leaves after one line ends quietly with exit 141', async () => {
    // ≈ 1 MB of lines: far more than a pipe or socket holds.
    const urls = Array.from({ length: 10_000 }, (_, i) => `/private/${i}/${'x'.repeat(80)}`);
    const r = await readThenClose(
      ['check', '--robots', path.join(robots, 'a.example.txt'), '--agent', 'x', ...urls],
      (read) => read.includes('\n'),
    );
    expect(r.read.split('\n')[0]).toBe(
      `/private/0/${'x'.repeat(80)}\tdisallowed\tdisallowed_explicit\t2\tDisallow: /private`,
    );
    expect([r.ended, r.stderr]).toEqual([[141, null], '']);
  });
});

describe('-o /dev/stdout on a pipe', () => {
  const big = path.join(dir, 'big.csv');
  const cli = `"$0" "$1" classify "$2" --robots-dir "$3" --agent x --quiet -o /dev/stdout`;

  it('a reader slower than the run gets every row (a full pipe is waited for, not an error)', () => {
    const r = spawnSync('sh', ['-c', `${cli} | (sleep 2; wc -l)`, process.execPath, CLI, big, robots], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect([r.stdout.trim(), r.stderr]).toEqual(['200001', '']);
  });

  it('SIGTERM while the pipe is full and its reader stalls ends the run with 143', async () => {
    const fifo = path.join(tempDir('ra-stall-'), 'p');
    execFileSync('mkfifo', [fifo]);
    // A reader that opens the pipe and never reads.
    const stalled = spawn('sh', ['-c', 'exec sleep 30 < "$0"', fifo], { stdio: 'ignore' });
    const child = spawn('sh', ['-c', `exec ${cli} > "$4"`, process.execPath, CLI, big, robots, fifo], {
      stdio: 'ignore',
    });
    const ended = new Promise<[number | null, string | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    // Ending by itself is the point: a write blocked in a libuv thread would hold the process open.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, by] = await ended;
    clearTimeout(timer);
    stalled.kill();
    expect(code === 143 || by === 'SIGTERM', `exit ${code}, signal ${by}`).toBe(true);
  });
});
