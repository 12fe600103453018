import { Duplex, PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseRepeatedLength, RepeatedLengthReader } from '../../../src/pipeline/fetch/repeated-length.js';

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

describe('RepeatedLengthReader', () => {
  it('gives the collapsed head and every other byte, however the bytes are split', async () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: 10\r\n\r\n';
    const body = '0123456789\r\n\r\nContent-Length: 10\r\n';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: head.length + body.length }), { maxLength: 6 }),
        async (cuts) => {
          const { wire, socket } = pair();
          const reader = new RepeatedLengthReader(socket, 1024);
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

  it('passes a head with no end within the limit through unchanged, and forwards writes', async () => {
    const { wire, sent, socket } = pair();
    const reader = new RepeatedLengthReader(socket, 16);
    reader.write('GET / HTTP/1.1\r\n\r\n');
    const junk = 'Content-Length: 1\r\nContent-Length: 1\r\n'.repeat(3);
    wire.end(junk);
    expect(await readAll(reader)).toBe(junk);
    expect(Buffer.concat(sent).toString()).toBe('GET / HTTP/1.1\r\n\r\n');
  });
});
