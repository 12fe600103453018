import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { OutputSink } from '../../../src/pipeline/output/output-sink.js';

describe('OutputSink', () => {
  it('writes to a temporary file and moves it to OUTPUT only on commit', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-out-'));
    const out = path.join(dir, 'v.csv');
    writeFileSync(out, 'old');
    const s = OutputSink.open(out);
    let released = 0;
    const flushed = new Promise<void>((resolve) =>
      s.write(Buffer.from('a,b\n'), () => {
        released++;
        resolve();
      }),
    );
    await flushed;
    expect(readFileSync(out, 'utf8')).toBe('old');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
    await s.commit();
    expect(readFileSync(out, 'utf8')).toBe('a,b\n');
    expect(readdirSync(dir)).toEqual(['v.csv']);
    expect(released).toBe(1);
  });

  it('finish flushes the temporary file whole; OUTPUT changes only on publish', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-out-'));
    const out = path.join(dir, 'v.csv');
    writeFileSync(out, 'old');
    const s = OutputSink.open(out);
    await s.write(Buffer.from('new\n'));
    await s.finish();
    expect(readFileSync(out, 'utf8')).toBe('old');
    expect(readFileSync(s.tempPath!, 'utf8')).toBe('new\n');
    await s.publish();
    expect(readFileSync(out, 'utf8')).toBe('new\n');
    // Aborting after publish leaves the published file alone.
    await s.abort();
    expect(readdirSync(dir)).toEqual(['v.csv']);
  });

  it('plain: `.gz` is not compressed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-out-'));
    await OutputSink.writeWhole(path.join(dir, 's.json.gz'), Buffer.from('{}\n'), 'summary');
    expect(readFileSync(path.join(dir, 's.json.gz'), 'utf8')).toBe('{}\n');
  });

  it('compresses .gz output', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-out-'));
    const out = path.join(dir, 'v.csv.gz');
    const s = OutputSink.open(out);
    await s.write(Buffer.from('x'.repeat(10_000)));
    await s.commit();
    expect(gunzipSync(readFileSync(out)).toString()).toBe('x'.repeat(10_000));
  });

  it('removes the temporary file on abort and leaves OUTPUT alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-out-'));
    const out = path.join(dir, 'v.csv');
    const s = OutputSink.open(out);
    await s.write(Buffer.from('partial\n'));
    await s.abort();
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes `-` to the given stdout stream without closing it', async () => {
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const s = OutputSink.open('-', { stdout });
    await s.write(Buffer.from('a\n'));
    await s.commit();
    expect(Buffer.concat(chunks).toString()).toBe('a\n');
    expect(stdout.writable).toBe(true);
  });

  it('reports an unwritable output as one error', async () => {
    const s = OutputSink.open(path.join(tmpdir(), 'no-such-dir-ra', 'x.csv'));
    // The open fails in the background: the write or, on a busy machine, the finish after it reports it.
    const writeAndFinish = async () => {
      await s.write(Buffer.from('x'));
      await s.finish();
    };
    await expect(writeAndFinish()).rejects.toThrow(/cannot write the output .*x\.csv: no such directory/);
  });
});
