import { Duplex, PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChunkFraming,
  collapseRepeatedLength,
  dropGarbageLines,
  fixHead,
  headEnd,
  isChunked,
  LenientFramingReader,
} from '../../../src/pipeline/fetch/lenient-framing.js';

describe('collapseRepeatedLength', () => {
  it('collapses one value repeated over lines or in a list, whatever the case and spacing', () => {
    expect(
      collapseRepeatedLength('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX: y\r\ncontent-length:3\r\n\r\n'),
    ).toBe('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nX: y\r\n\r\n');
    expect(collapseRepeatedLength('HTTP/1.1 200 OK\nCONTENT-LENGTH : 12, 12,12\n\n')).toBe(
      'HTTP/1.1 200 OK\nContent-Length: 12\n\n',
    );
  });

  it('leaves a head alone when there is nothing to collapse or the values differ', () => {
    for (const head of [
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n',
      'HTTP/1.1 200 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 3, 03\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: x, x\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: , \r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-Content-Length: 3\r\nContent-Length: 3\r\n\r\n',
    ]) {
      expect(collapseRepeatedLength(head)).toBeNull();
    }
  });
});

describe('dropGarbageLines and fixHead', () => {
  it('drop header lines with no colon, keep continuations and the status line', () => {
    const head =
      'HTTP/1.1 200 OK\r\nGarbage here\r\nX-A: a\r\n  folded\r\n\tmore\r\nContent-Length: 3\r\n\r\n';
    expect(dropGarbageLines(head)).toBe(
      'HTTP/1.1 200 OK\r\nX-A: a\r\n  folded\r\n\tmore\r\nContent-Length: 3\r\n\r\n',
    );
    expect(dropGarbageLines('HTTP/1.1 200 OK\nX: y\n\n')).toBeNull();
    expect(fixHead('HTTP/1.1 200 OK\nbad\nContent-Length: 2\nContent-Length: 2\n\n')).toBe(
      'HTTP/1.1 200 OK\nContent-Length: 2\n\n',
    );
    expect(fixHead('HTTP/1.1 200 OK\nContent-Length: 2\n\n')).toBeNull();
  });
});

describe('headEnd', () => {
  it('finds the end of the first empty line (LF or CRLF) across any split, as a search of the whole would', () => {
    const bytes = fc.array(fc.constantFrom(0x0a, 0x0d, 0x41), { maxLength: 24 });
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 5 }), (all, cuts) => {
        const whole = Buffer.from(all);
        const m = /\n\r?\n/.exec(whole.toString('latin1'));
        const want = m === null ? -1 : m.index + m[0].length;
        const at = [...new Set([0, ...cuts.map((c) => c % (whole.length + 1)), whole.length])].sort(
          (a, b) => a - b,
        );
        const before: Buffer[] = [];
        let got = -1;
        for (let i = 0; i + 1 < at.length && got < 0; i++) {
          const chunk = whole.subarray(at[i], at[i + 1]);
          const end = headEnd(before, chunk);
          if (end >= 0) got = at[i]! + end;
          before.push(chunk);
        }
        expect(got).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });
});

/** A fake socket: bytes written to `wire` come out of the reader; what the reader writes lands in `sent`. */
function pair() {
  const wire = new PassThrough();
  const sent: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _e, cb) {
      sent.push(chunk);
      cb();
    },
  });
  wire.on('data', (d: Buffer) => socket.push(d));
  wire.on('end', () => socket.push(null));
  return { wire, sent, socket };
}

async function readAll(stream: Duplex): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('latin1');
}

describe('LenientFramingReader', () => {
  it('gives the collapsed head and every other byte, however the bytes are split', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: 10\r\n\r\n';
    const body = '0123456789\r\n\r\nContent-Length: 10\r\n';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: head.length + body.length }), { maxLength: 6 }),
        async (cuts) => {
          const { wire, socket } = pair();
          const reader = new LenientFramingReader(socket, 1024);
          const text = head + body;
          const at = [0, ...new Set(cuts)].sort((a, b) => a - b);
          for (let i = 0; i < at.length; i++) wire.write(Buffer.from(text.slice(at[i], at[i + 1]), 'latin1'));
          wire.end();
          expect(await readAll(reader)).toBe(`HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n${body}`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('gives a bare-LF chunked response CRLF chunk framing, however the bytes are split', async () => {
    const { wire, socket } = pair();
    const reader = new LenientFramingReader(socket, 1024);
    for (const b of Buffer.from('HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\nhello\n0\n\n'))
      wire.write(Buffer.from([b]));
    wire.end();
    expect(await readAll(reader)).toBe(
      'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n5\r\nhello\r\n0\r\n\r\n',
    );
  });

  it('keeps what the peer sent before its FIN for a reader that is behind when the socket closes', async () => {
    const { wire, socket } = pair();
    const reader = new LenientFramingReader(socket, 1024);
    const body = 'x'.repeat(10_000); // under the reader's high-water mark: all of it waits in the reader
    wire.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await new Promise((r) => socket.once('end', r));
    socket.destroy();
    await new Promise((r) => setImmediate(r));
    expect((await readAll(reader)).length).toBe(body.length + 42);
  });

  it('passes a head with no end within the limit through unchanged, and forwards writes', async () => {
    const { wire, sent, socket } = pair();
    const reader = new LenientFramingReader(socket, 16);
    reader.write('GET / HTTP/1.1\r\n\r\n');
    const junk = 'Content-Length: 1\r\nContent-Length: 1\r\n'.repeat(3);
    wire.end(junk);
    expect(await readAll(reader)).toBe(junk);
    expect(Buffer.concat(sent).toString()).toBe('GET / HTTP/1.1\r\n\r\n');
  });
});

/** A chunked body whose framing lines end in `eol(i)` (LF or CRLF), with an extension and a trailer. */
function framed(parts: string[], eol: (i: number) => string): string {
  let i = 0;
  let out = '';
  for (const p of parts)
    out += `${p.length.toString(16)}${i % 3 === 1 ? ';x=y' : ''}${eol(i++)}${p}${eol(i++)}`;
  return `${out}0${eol(i++)}X-T: 1${eol(i++)}${eol(i++)}`;
}

function feedSplit(text: string, cuts: number[]): string {
  const framing = new ChunkFraming();
  const at = [0, ...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  for (let i = 0; i < at.length; i++)
    out.push(...framing.feed(Buffer.from(text.slice(at[i], at[i + 1]), 'latin1')));
  out.push(...framing.flush());
  return Buffer.concat(out).toString('latin1');
}

describe('ChunkFraming', () => {
  it('turns any mix of LF and CRLF framing into CRLF framing, data untouched, however the bytes are split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, crlf, cuts) => {
          const latin = parts.map((p) => Buffer.from(p, 'utf8').toString('latin1'));
          const mixed = framed(latin, (i) => (crlf[i % 16] ? '\r\n' : '\n'));
          expect(feedSplit(mixed, cuts)).toBe(framed(latin, () => '\r\n'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('passes bytes on unchanged from a size that is not hex or a chunk end that is not a line end', () => {
    expect(feedSplit('3\nabc\nzz\nrest\n', [5])).toBe('3\r\nabc\r\nzz\nrest\n');
    expect(feedSplit('3\nabcXY0\n\n', [2, 7])).toBe('3\r\nabcXY0\n\n');
    expect(feedSplit('3\nab', [])).toBe('3\r\nab');
    expect(feedSplit('1f', [])).toBe('1f');
  });

  it('is used only when the head ends its Transfer-Encoding in chunked', () => {
    expect(isChunked('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n')).toBe(true);
    expect(isChunked('HTTP/1.1 200 OK\ntransfer-encoding:chunked\n\n')).toBe(true);
    expect(isChunked('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n')).toBe(false);
    expect(isChunked('HTTP/1.1 200 OK\r\nX-Note: chunked\r\n\r\n')).toBe(false);
  });
});
