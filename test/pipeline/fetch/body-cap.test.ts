/**
 * Bodies: at most --max-body DECODED bytes kept (RFC 9309 §2.5: at least 500 KiB), the rest dropped and
 * flagged; gzip/deflate/br decoded as a stream so a compression bomb costs no more memory than the cap.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import type { Options } from '../../../src/pipeline/options.js';
import type { Behaviour } from '../../helpers/multi-host-server.js';
import { at, FAST, liveOptions, sha256, useServerAndTempDir } from './harness.js';

const env = useServerAndTempDir();
let n = 0;
const KIB = 1024;

async function fetchOne(host: string, b: Behaviour, extra: Partial<Options> = {}) {
  env.srv.set(host, b);
  const provider = createLivePolicyProvider(
    liveOptions(env.srv, join(env.tmp.dir, `c${++n}.sqlite`), extra),
    FAST,
  );
  try {
    return await provider.get(at(env.srv, host));
  } finally {
    await provider.close();
  }
}

const robots = (bytes: number) =>
  Buffer.from('Disallow: /abc\n'.repeat(Math.ceil(bytes / 15))).subarray(0, bytes);

describe('size cap', () => {
  it('a 5 MiB body keeps the first 500 KiB, flagged truncated', async () => {
    const p = await fetchOne('big.test', { kind: 'large', bytes: 5 * KIB * KIB });
    expect(p).toMatchObject({ outcome: 'parsed', status: 200, bytes: 500 * KIB, truncated: true });
    const expected = Buffer.from('Disallow: /big\n'.repeat(4096 * 20)).subarray(0, 500 * KIB);
    expect(Buffer.from(p.body!).equals(expected)).toBe(true);
    expect(p.sha256).toBe(sha256(expected));
  });

  it('--max-body raises the cap', async () => {
    const p = await fetchOne('big2.test', { kind: 'large', bytes: 5 * KIB * KIB }, { maxBody: 1024 * KIB });
    expect(p).toMatchObject({ bytes: 1024 * KIB, truncated: true });
  });

  it('exactly the cap is not truncated; one byte more is', async () => {
    const exact = robots(500 * KIB);
    const a = await fetchOne('exact.test', { kind: 'respond', body: exact });
    expect(a).toMatchObject({ bytes: 500 * KIB, truncated: false, sha256: sha256(exact) });
    const b = await fetchOne('over.test', { kind: 'respond', body: robots(500 * KIB + 1) });
    expect(b).toMatchObject({ bytes: 500 * KIB, truncated: true, sha256: sha256(exact) });
  });
});

describe('Content-Encoding', () => {
  const text = 'User-agent: *\nDisallow: /compressed\n'.repeat(50);
  it.each(['gzip', 'deflate', 'deflate-raw', 'br'] as const)('%s is decoded', async (encoding) => {
    const p = await fetchOne(`enc-${encoding}.test`, { kind: 'respond', body: text, encoding });
    expect(p).toMatchObject({
      outcome: 'parsed',
      bytes: text.length,
      truncated: false,
      sha256: sha256(text),
    });
  });

  it('the cap applies to the decoded size', async () => {
    const body = robots(2 * 1024 * KIB);
    const p = await fetchOne('enc-big.test', { kind: 'respond', body, encoding: 'gzip' });
    expect(p).toMatchObject({
      bytes: 500 * KIB,
      truncated: true,
      sha256: sha256(body.subarray(0, 500 * KIB)),
    });
  });

  it('a gzip bomb (1 GiB of zeros) stops at the cap without eating memory', async () => {
    const before = process.memoryUsage().rss;
    // The server needs a few seconds to build the bomb before it answers.
    const p = await fetchOne(
      'bomb.test',
      { kind: 'gzip-bomb', decodedBytes: 1024 * KIB * KIB },
      { timeout: 40 },
    );
    const grown = process.memoryUsage().rss - before;
    expect(p).toMatchObject({
      outcome: 'parsed',
      bytes: 500 * KIB,
      truncated: true,
      sha256: sha256(Buffer.alloc(500 * KIB)),
    });
    // The server's gzip of 1 GiB is ~1 MiB; decoding it whole would need 1 GiB.
    expect(grown).toBeLessThan(64 * KIB * KIB);
  });

  it('corrupt compressed data → unreachable ERR_CONTENT_DECODING', async () => {
    const p = await fetchOne('corrupt.test', {
      kind: 'respond',
      body: 'this is not gzip at all',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_CONTENT_DECODING', body: null });
  });

  it('an encoding we never offered → unreachable ERR_UNSUPPORTED_ENCODING', async () => {
    const p = await fetchOne('zstd.test', {
      kind: 'respond',
      body: 'xx',
      headers: { 'content-encoding': 'zstd' },
    });
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_UNSUPPORTED_ENCODING' });
  });

  it('identity is no encoding', async () => {
    const p = await fetchOne('identity.test', {
      kind: 'respond',
      body: text,
      headers: { 'content-encoding': 'identity' },
    });
    expect(p).toMatchObject({ outcome: 'parsed', sha256: sha256(text) });
  });
});
