// Classic Mac line ends (a lone CR after each record): the reader turns them into LF, so that the
// record scanner, the batcher and csv-parse see one line end everywhere.

const CR = 13;
const LF = 10;

/**
 * How the input ends its lines, told by its first line end: 'cr' when that is a lone CR, 'lf' for LF or
 * CRLF, undefined while `bytes` cannot tell yet (no line end, or a CR as the last byte before eof).
 */
export function lineEndStyle(bytes: Uint8Array, eof: boolean): 'cr' | 'lf' | undefined {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === LF) return 'lf';
    if (b === CR) {
      if (i + 1 < bytes.length) return bytes[i + 1] === LF ? 'lf' : 'cr';
      return eof ? 'cr' : undefined;
    }
  }
  return eof ? 'lf' : undefined;
}

/** A copy of `bytes` with every CR turned into LF (a CRLF becomes two line ends: a blank line). */
export function crToLf(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = out.indexOf(CR); i >= 0; i = out.indexOf(CR, i + 1)) out[i] = LF;
  return out;
}

/**
 * The chunks with LF line ends when the input's first line end is a lone CR, else as they come. Chunks
 * before that line end hold none and pass at once; only a chunk ending in that CR waits for the next byte.
 */
export async function* withLfLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let style: 'cr' | 'lf' | undefined;
  let held: Buffer | null = null;
  for await (const chunk of chunks) {
    let c = chunk;
    if (style === undefined) {
      if (held !== null) c = Buffer.concat([held, c]);
      held = null;
      style = lineEndStyle(c, false);
      if (style === undefined) {
        if (c.length > 0 && c[c.length - 1] === CR) held = c;
        else yield c;
        continue;
      }
    }
    yield style === 'cr' ? crToLf(c) : c;
  }
  if (held !== null) yield crToLf(held);
}
