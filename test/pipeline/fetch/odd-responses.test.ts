/**
 * Responses real servers send that are odd but readable, found by probing the fetcher with a raw server:
 * each is read as curl and browsers read it, never as a different robots.txt than the one meant.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fetchRaw, useServerAndTempDir } from './harness.js';

const env = useServerAndTempDir();
const ROBOTS = 'User-agent: *\nDisallow: /private\n';

/** The fetch parsed the file (status 200) and kept exactly ROBOTS. */
function expectRobots(p: Awaited<ReturnType<typeof fetchRaw>>): void {
  expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
  expect(Buffer.from(p.body!).toString()).toBe(ROBOTS);
}

/** A CRLF response head with the given status line and header lines, then the body. */
function response(status: string, headers: string[], body: Buffer | string = ''): Buffer {
  const head = `HTTP/1.1 ${status}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)]);
}

/** `bytes` in chunked framing: two chunks and the last chunk. */
function chunked(bytes: Buffer): Buffer {
  const half = bytes.length >> 1;
  const chunk = (b: Buffer) =>
    Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
  return Buffer.concat([
    chunk(bytes.subarray(0, half)),
    chunk(bytes.subarray(half)),
    Buffer.from('0\r\n\r\n'),
  ]);
}

describe('odd but readable responses', () => {
  it('Transfer-Encoding: gzip, chunked → the body is gunzipped, not parsed as gzip bytes', async () => {
    const p = await fetchRaw(
      env,
      'te-gzip.test',
      () => response('200 OK', ['Transfer-Encoding: gzip, chunked'], chunked(gzipSync(ROBOTS))),
      'end',
    );
    expectRobots(p);
  });

  it('Content-Encoding: gzip on top of Transfer-Encoding: gzip → both undone', async () => {
    const p = await fetchRaw(
      env,
      'te-ce-gzip.test',
      () =>
        response(
          '200 OK',
          ['Content-Encoding: gzip', 'Transfer-Encoding: gzip, chunked'],
          chunked(gzipSync(gzipSync(ROBOTS))),
        ),
      'end',
    );
    expect(Buffer.from(p.body!).toString()).toBe(ROBOTS);
  });

  it('an unknown transfer coding → unreachable (ERR_UNSUPPORTED_ENCODING), never its bytes as rules', async () => {
    const p = await fetchRaw(
      env,
      'te-compress.test',
      () =>
        response(
          '200 OK',
          ['Transfer-Encoding: compress, chunked'],
          chunked(Buffer.from('\x1f\x9d\x90junk')),
        ),
      'end',
    );
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_UNSUPPORTED_ENCODING' });
  });

  it('Content-Encoding: gzip on an empty body → an empty file (allow all), not a decoding error', async () => {
    const p = await fetchRaw(
      env,
      'gzip-empty.test',
      () => response('200 OK', ['Content-Length: 0', 'Content-Encoding: gzip']),
      'end',
    );
    expect(p).toMatchObject({ outcome: 'parsed', status: 200, bytes: 0 });
    // A cut gzip stream is still corrupt.
    const cut = await fetchRaw(
      env,
      'gzip-cut.test',
      () => {
        const gz = gzipSync(ROBOTS).subarray(0, 12);
        return response('200 OK', [`Content-Length: ${gz.length}`, 'Content-Encoding: gzip'], gz);
      },
      'end',
    );
    expect(cut).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_CONTENT_DECODING' });
  });

  it('a response head of 40 KB (large cookies) → parsed, as curl reads it', async () => {
    const cookies = Array.from({ length: 40 }, (_, i) => `Set-Cookie: c${i}=${'v'.repeat(1000)}`);
    const p = await fetchRaw(
      env,
      'big-head.test',
      () => response('200 OK', [...cookies, `Content-Length: ${ROBOTS.length}`], ROBOTS),
      'end',
    );
    expectRobots(p);
  });

  it('a response head over 128 KiB → unreachable (ERR_MALFORMED_RESPONSE)', async () => {
    const p = await fetchRaw(
      env,
      'huge-head.test',
      () => response('200 OK', [`X-Big: ${'a'.repeat(200_000)}`, `Content-Length: ${ROBOTS.length}`], ROBOTS),
      'end',
    );
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_MALFORMED_RESPONSE' });
  });

  /** A redirect whose Location holds `location` as raw bytes; only /r%C3%B6bots.txt holds the file. */
  const redirectTo = (host: string, location: Buffer) =>
    fetchRaw(
      env,
      host,
      (path) =>
        path === '/robots.txt'
          ? Buffer.concat([
              Buffer.from('HTTP/1.1 302 Found\r\nLocation: '),
              location,
              Buffer.from('\r\nContent-Length: 0\r\n\r\n'),
            ])
          : path === '/r%C3%B6bots.txt'
            ? response('200 OK', [`Content-Length: ${ROBOTS.length}`], ROBOTS)
            : response('404 Not Found', ['Content-Length: 0']),
      'end',
    );

  it('a raw UTF-8 Location (/röbots.txt) is followed as UTF-8, not as Latin-1 bytes', async () => {
    const p = await redirectTo('utf8-location.test', Buffer.from('/röbots.txt', 'utf8'));
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
    expect(p.finalUrl).toMatch(/\/r%C3%B6bots\.txt$/);
  });

  it('a Latin-1 Location that is not UTF-8 keeps its Latin-1 reading', async () => {
    const p = await redirectTo('latin1-location.test', Buffer.from('/r\xf6bots.txt', 'latin1'));
    expect(p).toMatchObject({ outcome: 'parsed', status: 200 });
  });
});

describe('a repeated Content-Length (RFC 9110 §8.6)', () => {
  const length = `Content-Length: ${ROBOTS.length}`;

  it('the same value on two lines → read as one length (the connection held open: the length frames it)', async () => {
    const p = await fetchRaw(
      env,
      'cl-twice.test',
      () => response('200 OK', [length, length], ROBOTS),
      'hold',
    );
    expectRobots(p);
    expect(p.truncated).toBe(false);
  });

  it('the same value listed twice in one line, bare-LF head → read as one length', async () => {
    const head = `HTTP/1.1 200 OK\ncontent-length: ${ROBOTS.length} , ${ROBOTS.length}\nContent-Type: text/plain\n\n`;
    const p = await fetchRaw(env, 'cl-list.test', () => head + ROBOTS, 'hold');
    expectRobots(p);
  });

  it('two different values → unreachable (ERR_MALFORMED_RESPONSE), never a guess at the body', async () => {
    const p = await fetchRaw(
      env,
      'cl-differ.test',
      () => response('200 OK', [length, 'Content-Length: 5'], ROBOTS),
      'end',
    );
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_MALFORMED_RESPONSE' });
  });
});

describe('chunk framing in bare LF (embedded servers; curl and browsers read it)', () => {
  const lf = (b: string) => `${b.length.toString(16)}\n${b}\n0\n\n`;

  it('with a bare-LF head → parsed', async () => {
    const p = await fetchRaw(
      env,
      'lf-all.test',
      () => `HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n${lf(ROBOTS)}`,
      'hold',
    );
    expectRobots(p);
  });

  it('after a strict CRLF head (undici hands the head over, then rejects the body) → parsed', async () => {
    const p = await fetchRaw(
      env,
      'lf-chunks.test',
      () => response('200 OK', ['Transfer-Encoding: chunked'], lf(ROBOTS)),
      'hold',
    );
    expectRobots(p);
  });

  it('a chunk size that is not hex → still unreachable (ERR_MALFORMED_RESPONSE)', async () => {
    const p = await fetchRaw(
      env,
      'lf-bad-size.test',
      () => response('200 OK', ['Transfer-Encoding: chunked'], `zz\n${ROBOTS}\n0\n\n`),
      'end',
    );
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_MALFORMED_RESPONSE' });
  });
});

describe('a body cut short on the lenient path (a bare-LF head) is told apart like on the strict one', () => {
  const cut = () => `HTTP/1.1 200 OK\nContent-Length: 500\n\n${ROBOTS}`;

  it('closed (FIN) → ERR_CONNECTION_CLOSED', async () => {
    const p = await fetchRaw(env, 'lenient-fin.test', cut, 'end');
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_CONNECTION_CLOSED' });
  });

  it('reset (RST) → ERR_CONNECTION_RESET', async () => {
    const p = await fetchRaw(env, 'lenient-rst.test', cut, 'reset');
    expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_CONNECTION_RESET' });
  });
});

describe('interim 1xx responses before the final one', () => {
  const ok = response('200 OK', [`Content-Length: ${ROBOTS.length}`], ROBOTS);

  it('an unasked `100 Continue` → skipped, the 200 after it parsed (undici calls it a bad response)', async () => {
    const p = await fetchRaw(
      env,
      'continue.test',
      () => Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), ok]),
      'end',
    );
    expectRobots(p);
  });

  it('`103 Early Hints` → skipped, the 200 after it parsed', async () => {
    const hints = 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n';
    const p = await fetchRaw(env, 'hints.test', () => Buffer.concat([Buffer.from(hints), ok]), 'end');
    expectRobots(p);
  });
});

describe('header oddities browsers and curl read', () => {
  it('a header line with no colon (a stray word) → skipped, the response parsed', async () => {
    const raw = response('200 OK', ['Garbage line', `Content-Length: ${ROBOTS.length}`], ROBOTS);
    const p = await fetchRaw(env, 'no-colon.test', () => raw, 'end');
    expectRobots(p);
  });

  it('`Content-Encoding: none` (no coding) → the body as sent; a real unknown coding stays unsupported', async () => {
    const none = response('200 OK', ['Content-Encoding: none', `Content-Length: ${ROBOTS.length}`], ROBOTS);
    const p = await fetchRaw(env, 'ce-none.test', () => none, 'end');
    expectRobots(p);
    const zstd = response('200 OK', ['Content-Encoding: zstd', `Content-Length: ${ROBOTS.length}`], ROBOTS);
    const q = await fetchRaw(env, 'ce-zstd.test', () => zstd, 'end');
    expect(q).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_UNSUPPORTED_ENCODING' });
  });
});
