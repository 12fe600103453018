import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openInput } from '../../../src/pipeline/input/input-source.js';

async function readAll(input: Parameters<typeof openInput>[0]): Promise<string> {
  const src = await openInput(input);
  const parts: Buffer[] = [];
  for await (const c of src.chunks) parts.push(c);
  return Buffer.concat(parts).toString();
}

describe('openInput', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-in-'));

  it('reads plain and gzip files (gzip recognised by its magic bytes, whatever the name)', async () => {
    writeFileSync(path.join(dir, 'a.csv'), 'url\nx\n');
    writeFileSync(path.join(dir, 'b.csv.gz'), gzipSync('url\ny\n'));
    writeFileSync(path.join(dir, 'c.csv'), gzipSync('url\nz\n'));
    expect(await readAll(path.join(dir, 'a.csv'))).toBe('url\nx\n');
    expect(await readAll(path.join(dir, 'b.csv.gz'))).toBe('url\ny\n');
    expect(await readAll(path.join(dir, 'c.csv'))).toBe('url\nz\n');
  });

  it('recognises gzip from a stream whose first chunk is one byte (a slow pipe), and reads a 1-byte input', async () => {
    const gz = gzipSync('url\nv\n');
    expect(await readAll(Readable.from([gz.subarray(0, 1), gz.subarray(1, 2), gz.subarray(2)]))).toBe(
      'url\nv\n',
    );
    expect(await readAll(Readable.from([gz.subarray(0, 1), gz.subarray(1)]))).toBe('url\nv\n');
    expect(await readAll(Readable.from([Buffer.from('u')]))).toBe('u');
    expect(await readAll(Readable.from([Buffer.from('u'), Buffer.from('rl\n')]))).toBe('url\n');
  });

  it('reads streams and knows the file size for progress', async () => {
    expect(await readAll(Readable.from([Buffer.from('url\n'), Buffer.from('w\n')]))).toBe('url\nw\n');
    const src = await openInput(path.join(dir, 'a.csv'));
    expect(src.totalBytes).toBe(6);
  });

  it('fails with one clear line for a missing file or a directory', async () => {
    await expect(openInput(path.join(dir, 'nope.csv'))).rejects.toThrow(
      /cannot read the input .*no such file/,
    );
    await expect(openInput(dir)).rejects.toThrow(/is a directory/);
  });

  it('reports corrupt gzip as an input error', async () => {
    writeFileSync(
      path.join(dir, 'bad.gz'),
      Buffer.concat([gzipSync('url\nx\n').subarray(0, 12), Buffer.from('junk')]),
    );
    await expect(readAll(path.join(dir, 'bad.gz'))).rejects.toThrow(/cannot read/);
  });
});
