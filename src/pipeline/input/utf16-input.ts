// Logs saved as "Unicode text" (UTF-16 with its BOM, as spreadsheet programs export them) are read as
// UTF-8: everything after the reader works on UTF-8 bytes.

import { TextDecoder } from 'node:util';
import { withLeadingBytes } from './leading-bytes.js';

/** The UTF-16 encoding a BOM at the start of `head` names, or null. */
export function utf16Encoding(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (head.length < 2) return null;
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * The chunks as they come, or, when they start with a UTF-16 BOM, transcoded to UTF-8 (the BOM dropped;
 * a code unit or surrogate pair cut between chunks is joined; an unpaired surrogate becomes U+FFFD).
 */
export async function* asUtf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let decoder: TextDecoder | null | undefined;
  for await (const c of withLeadingBytes(chunks, 2)) {
    if (decoder === undefined) {
      const encoding = utf16Encoding(c);
      decoder = encoding === null ? null : new TextDecoder(encoding);
    }
    if (decoder === null) yield c;
    else {
      const text = decoder.decode(c, { stream: true });
      if (text.length > 0) yield Buffer.from(text, 'utf8');
    }
  }
  const tail = decoder?.decode() ?? '';
  if (tail.length > 0) yield Buffer.from(tail, 'utf8');
}
