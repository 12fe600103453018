/** Outputs that are not regular files, for tests: character devices and FIFOs with a real reader. */
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { CLI, runCli } from './run-cli.js';

/**
 * A character device with the numbers of /dev/<name>, made in `where` when this process may (root), so
 * that a defect replaces the copy, never the system's device; otherwise the real one, which a process
 * that is not root cannot replace.
 */
export function charDevice(where: string, name: 'null' | 'full'): string {
  const real = `/dev/${name}`;
  if (process.getuid?.() !== 0) return real;
  const copy = path.join(where, name);
  const rdev = statSync(real).rdev;
  // Linux dev_t: major in bits 8-19, minor in bits 0-7 (enough for the memory devices).
  execFileSync('mknod', [copy, 'c', String((rdev >> 8) & 0xfff), String(rdev & 0xff)]);
  return copy;
}

/** Runs `reader` on a FIFO while classify writes into it; returns what the reader saw and the run. */
export async function throughFifo(fifo: string, readerArgs: string[], ...more: string[]) {
  const reader = spawn(readerArgs[0]!, [...readerArgs.slice(1), fifo], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const chunks: Buffer[] = [];
  reader.stdout.on('data', (b: Buffer) => chunks.push(b));
  const readerDone = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  const run = await runCli(['classify', ...more, '-o', fifo]);
  // A reader whose FIFO was replaced never sees a writer: end it so the test can report.
  const timer = setTimeout(() => reader.kill('SIGKILL'), 2000);
  await readerDone;
  clearTimeout(timer);
  return { run, read: Buffer.concat(chunks).toString() };
}

/**
 * Spawns the CLI with `args`, reads its stdout until `enough` says so, then closes the read end as
 * `head` does. Resolves with what was read, how the process ended and its stderr.
 */
export async function readThenClose(
  args: string[],
  enough: (read: string) => boolean,
): Promise<{ read: string; ended: [number | null, string | null]; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const closed = new Promise<[number | null, string | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  let read = '';
  await new Promise<void>((resolve) => {
    const onData = (b: Buffer) => {
      read += b.toString();
      if (!enough(read)) return;
      child.stdout.off('data', onData);
      child.stdout.destroy();
      resolve();
    };
    child.stdout.on('data', onData);
  });
  return { read, ended: await closed, stderr };
}
