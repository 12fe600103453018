// Framing that curl and browsers read but Node's parser rejects even with `insecureHTTPParser`; the lenient
// client reads its socket through LenientFramingReader, which rewrites only the framing:
// - a Content-Length repeating one value (`29` twice, or `29, 29`: some proxies and frameworks send it) is
//   one length, as RFC 9110 §8.6 allows; values that differ stay for the parser to reject;
// - header lines with no colon (and no continuation) are dropped, as browsers and curl skip them;
// - chunk-size lines and chunk ends in bare LF (embedded servers that write LF everywhere) get their CR.
// Every other byte passes as it came.

import { Duplex } from 'node:stream';

const LENGTH_LINE = /^content-length[ \t]*:(.*)$/i;
const CHUNKED_LINE = /^transfer-encoding[ \t]*:.*\bchunked[ \t]*\r?$/i;
const CRLF = Buffer.from('\r\n');
/** Longest chunk-size or trailer line kept while looking for its end. */
const MAX_LINE = 8192;

/**
 * `head` (latin1, up to and including its empty line) with a repeated identical Content-Length collapsed
 * to one `Content-Length: N` line, or null when there is nothing to collapse (one value, none, or values
 * that differ: those stay for the parser to reject, as the RFC requires).
 */
export function collapseRepeatedLength(head: string): string | null {
  const lines = head.split('\n');
  const at: number[] = [];
  const values: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const m = LENGTH_LINE.exec(lines[i]!.replace(/\r$/, ''));
    if (m === null) continue;
    at.push(i);
    for (const v of m[1]!.split(',')) values.push(v.trim());
  }
  if (values.length < 2 || !/^\d+$/.test(values[0]!) || values.some((v) => v !== values[0])) return null;
  const first = at[0]!;
  lines[first] = `Content-Length: ${values[0]}${lines[first]!.endsWith('\r') ? '\r' : ''}`;
  const dropped = new Set(at.slice(1));
  return lines.filter((_, i) => !dropped.has(i)).join('\n');
}

/**
 * `head` without the header lines that have no colon and are no continuation (a stray word, a second
 * status line's debris): browsers and curl skip such lines, Node's parser rejects the response. Null when
 * there is none.
 */
export function dropGarbageLines(head: string): string | null {
  const lines = head.split('\n');
  const garbage = (line: string, i: number) =>
    i > 0 && line !== '' && line !== '\r' && !line.includes(':') && line[0] !== ' ' && line[0] !== '\t';
  if (!lines.some(garbage)) return null;
  return lines.filter((line, i) => !garbage(line, i)).join('\n');
}

/** The head as the lenient parser should see it (dropGarbageLines, then collapseRepeatedLength), or null if unchanged. */
export function fixHead(head: string): string | null {
  const kept = dropGarbageLines(head);
  const collapsed = collapseRepeatedLength(kept ?? head);
  return collapsed ?? kept;
}

/** True when the head's Transfer-Encoding ends in `chunked` (the body is then chunk-framed). */
export function isChunked(head: string): boolean {
  return head.split('\n').some((line) => CHUNKED_LINE.test(line));
}

/**
 * Chunked framing with every framing line ended in CRLF: size lines, the end of each chunk's data, and
 * trailers. Anything it cannot read (a size that is not hex, a chunk end that is not a line end, a line
 * over MAX_LINE) is passed on unchanged from there, for the parser to judge.
 */
export class ChunkFraming {
  private state: 'size' | 'data' | 'data-end' | 'data-end-lf' | 'trailer' | 'raw' = 'size';
  private line: Buffer[] = [];
  private lineBytes = 0;
  private left = 0;

  /** The normalised bytes for `chunk`, in order. */
  feed(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      switch (this.state) {
        case 'raw':
          out.push(chunk.subarray(i));
          return out;
        case 'data': {
          const n = Math.min(this.left, chunk.length - i);
          out.push(chunk.subarray(i, i + n));
          i += n;
          this.left -= n;
          if (this.left === 0) this.state = 'data-end';
          break;
        }
        case 'data-end':
        case 'data-end-lf': {
          const b = chunk[i]!;
          if (b === 0x0d && this.state === 'data-end') {
            this.state = 'data-end-lf';
            i++;
          } else if (b === 0x0a) {
            out.push(CRLF);
            this.state = 'size';
            i++;
          } else {
            if (this.state === 'data-end-lf') out.push(Buffer.from([0x0d]));
            this.state = 'raw';
          }
          break;
        }
        default: {
          // 'size' or 'trailer': one line, up to its LF.
          const lf = chunk.indexOf(0x0a, i);
          const end = lf < 0 ? chunk.length : lf;
          this.line.push(chunk.subarray(i, end));
          this.lineBytes += end - i;
          i = end;
          if (lf < 0) {
            if (this.lineBytes > MAX_LINE) out.push(...this.toRaw());
            break;
          }
          i++;
          out.push(...this.endLine());
        }
      }
    }
    return out;
  }

  /** What is still held when the stream ends (an unfinished line), as it came. */
  flush(): Buffer[] {
    return this.state === 'size' || this.state === 'trailer' ? this.toRaw() : [];
  }

  private endLine(): Buffer[] {
    const raw = Buffer.concat(this.line).toString('latin1');
    this.line = [];
    this.lineBytes = 0;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const out = [Buffer.from(`${text}\r\n`, 'latin1')];
    if (this.state === 'trailer') {
      if (text === '') this.state = 'raw';
      return out;
    }
    const size = /^[ \t]*([0-9a-fA-F]{1,15})[ \t]*(;|$)/.exec(text);
    if (size === null) {
      this.state = 'raw';
      return [Buffer.from(`${raw}\n`, 'latin1')];
    }
    this.left = Number.parseInt(size[1]!, 16);
    this.state = this.left === 0 ? 'trailer' : 'data';
    return out;
  }

  private toRaw(): Buffer[] {
    const held = this.line;
    this.line = [];
    this.lineBytes = 0;
    this.state = 'raw';
    return held;
  }
}

/**
 * Where in `chunk` the head ends (just after its empty line: LF, then LF or CR LF, as the lenient parser
 * reads it), given the bytes `before` it; -1 if not in this chunk. Only the last two earlier bytes are
 * looked at again, so a head sent a byte at a time costs linear time.
 */
export function headEnd(before: readonly Buffer[], chunk: Buffer): number {
  const tail: number[] = [];
  for (let k = before.length - 1; k >= 0 && tail.length < 2; k--) {
    const b = before[k]!;
    for (let j = b.length - 1; j >= 0 && tail.length < 2; j--) tail.unshift(b[j]!);
  }
  const s = tail.length === 0 ? chunk : Buffer.concat([Buffer.from(tail), chunk]);
  for (let i = s.indexOf(0x0a); i >= 0; i = s.indexOf(0x0a, i + 1)) {
    const next = s[i + 1] === 0x0d ? i + 2 : i + 1;
    if (s[next] === 0x0a) return next + 1 - tail.length;
  }
  return -1;
}

/**
 * The socket's bytes with the response head passed through fixHead and a chunked body
 * through ChunkFraming. Writes go straight to the socket; reading follows the reader's pace (the socket
 * pauses while this stream is full).
 */
export class LenientFramingReader extends Duplex {
  /** The head's bytes so far, while its end is not yet seen; null once it is. */
  private head: Buffer[] | null = [];
  private headBytes = 0;
  private chunks: ChunkFraming | null = null;
  /** The peer closed its side cleanly (a FIN, not a reset). */
  ended = false;

  constructor(
    private readonly socket: Duplex,
    private readonly maxHeadBytes: number,
  ) {
    super();
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => {
      this.ended = true;
      if (this.head !== null) this.send(this.head);
      this.head = null;
      this.send(this.chunks?.flush() ?? []);
      this.push(null);
    });
    socket.on('error', (err) => this.destroy(err));
    // After a FIN the bytes already pushed are still to be read: only a close without one ends this early.
    socket.on('close', () => {
      if (!this.ended && !this.destroyed) this.destroy();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.head !== null) {
      const end = headEnd(this.head, chunk);
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (end < 0 && this.headBytes <= this.maxHeadBytes) return;
      const seen = Buffer.concat(this.head, this.headBytes);
      this.head = null;
      if (end < 0) {
        this.send([seen]);
        return;
      }
      const cut = this.headBytes - chunk.length + end;
      const head = seen.toString('latin1', 0, cut);
      const fixed = fixHead(head);
      if (isChunked(head)) this.chunks = new ChunkFraming();
      this.send([fixed === null ? seen.subarray(0, cut) : Buffer.from(fixed, 'latin1')]);
      chunk = seen.subarray(cut);
      if (chunk.length === 0) return;
    }
    this.send(this.chunks === null ? [chunk] : this.chunks.feed(chunk));
  }

  private send(parts: Buffer[]): void {
    let room = true;
    for (const p of parts) room = this.push(p);
    if (!room) this.socket.pause();
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
