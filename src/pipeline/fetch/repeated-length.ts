// A response head that repeats one Content-Length (`Content-Length: 29` twice, or `Content-Length: 29, 29`,
// what some proxies and frameworks send) is one length: RFC 9110 §8.6 lets a recipient read it as such, and
// curl and browsers do. Node's parser rejects any repeat, so the lenient client reads its socket through
// this rewriter, which leaves the single value in the head and every other byte as it came.

import { Duplex } from 'node:stream';

/** The head ends at the first empty line; the lenient parser also accepts bare-LF line ends. */
const HEAD_END = /\r?\n\r?\n/;
const LENGTH_LINE = /^content-length[ \t]*:(.*)$/i;

/**
 * `head` (latin1, up to and including its empty line) with a repeated identical Content-Length collapsed
 * to one `Content-Length: N` line, or null when there is nothing to collapse (one value, none, or values
 * that differ: those stay for the parser to reject, as the RFC requires).
 */
export function collapseRepeatedLength(head: string): string | null {
  const lines = head.split('\n');
  const values: string[] = [];
  let first = -1;
  for (let i = 1; i < lines.length; i++) {
    const m = LENGTH_LINE.exec(lines[i]!.replace(/\r$/, ''));
    if (m === null) continue;
    if (first < 0) first = i;
    for (const v of m[1]!.split(',')) values.push(v.trim());
  }
  if (values.length < 2 || !/^\d+$/.test(values[0]!) || values.some((v) => v !== values[0])) return null;
  const eol = lines[first]!.endsWith('\r') ? '\r' : '';
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i === first) out.push(`Content-Length: ${values[0]}${eol}`);
    else if (i < 1 || !LENGTH_LINE.test(lines[i]!.replace(/\r$/, ''))) out.push(lines[i]!);
  }
  return out.join('\n');
}

/**
 * The socket's bytes with the response head passed through collapseRepeatedLength. Writes go straight
 * to the socket; reading follows the reader's pace (the socket pauses while this stream is full).
 */
export class RepeatedLengthReader extends Duplex {
  private head: Buffer | null = Buffer.alloc(0);

  constructor(
    private readonly socket: Duplex,
    private readonly maxHeadBytes: number,
  ) {
    super();
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => {
      if (this.head !== null && this.head.length > 0) this.push(this.head);
      this.head = null;
      this.push(null);
    });
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => {
      if (!this.destroyed && !this.readableEnded) this.destroy();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.head === null) {
      if (!this.push(chunk)) this.socket.pause();
      return;
    }
    const seen = Buffer.concat([this.head, chunk]);
    const text = seen.toString('latin1');
    const end = HEAD_END.exec(text);
    if (end === null && seen.length <= this.maxHeadBytes) {
      this.head = seen;
      return;
    }
    this.head = null;
    const cut = end === null ? 0 : end.index + end[0].length;
    const fixed = end === null ? null : collapseRepeatedLength(text.slice(0, cut));
    const out = fixed === null ? seen : Buffer.concat([Buffer.from(fixed, 'latin1'), seen.subarray(cut)]);
    if (!this.push(out)) this.socket.pause();
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.socket.destroy(err ?? undefined);
    callback(err);
  }
}
