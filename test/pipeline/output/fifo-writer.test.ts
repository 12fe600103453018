import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { openFifoWriter } from '../../../src/pipeline/output/fifo-writer.js';
import { tempDir } from '../classify-data.js';

function fifo(): string {
  const p = path.join(tempDir('ra-fifo-w-'), 'f');
  execFileSync('mkfifo', [p]);
  return p;
}

describe('openFifoWriter', () => {
  it('waits for a reader, then writes everything through', async () => {
    const p = fifo();
    const w = openFifoWriter(p);
    w.write('a,b\n');
    w.end('c,d\n');
    // The reader comes after the writes were queued.
    const reader = spawn('cat', [p], { stdio: ['ignore', 'pipe', 'ignore'] });
    let read = '';
    reader.stdout.on('data', (b: Buffer) => {
      read += b.toString();
    });
    await finished(w);
    await new Promise((r) => reader.on('close', r));
    expect(read).toBe('a,b\nc,d\n');
  });

  it('destroyed while no reader has come: it ends, holding nothing open', async () => {
    const w = openFifoWriter(fifo());
    w.write('x\n');
    w.on('error', () => {});
    await new Promise((r) => setTimeout(r, 120));
    w.destroy();
    await finished(w).catch(() => {});
    expect(w.destroyed).toBe(true);
  });

  it('a reader that leaves is EPIPE', async () => {
    const p = fifo();
    const reader = spawn('head', ['-c', '1', p], { stdio: 'ignore' });
    const w = openFifoWriter(p);
    const failed = new Promise<NodeJS.ErrnoException>((resolve) => w.on('error', resolve));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 64 && !w.destroyed; i++) {
      if (!w.write(chunk)) await new Promise((r) => w.once('drain', r).once('close', r));
    }
    expect((await failed).code).toBe('EPIPE');
    reader.kill();
  });
});
