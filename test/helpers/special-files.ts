/** Outputs that are not regular files, for tests: character devices and FIFOs with a real reader. */
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { runCli } from './run-cli.js';

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
