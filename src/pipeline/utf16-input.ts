// Logs saved as "Unicode text" (UTF-16 with its BOM, as spreadsheet programs export them) are read as
// UTF-8: everything after the reader works on UTF-8 bytes.

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
  const it = chunks[Symbol.asyncIterator]();
  // Two bytes tell the encoding; a pipe may hand over fewer first.
  let head: Buffer = Buffer.alloc(0);
  let done = false;
  while (head.length < 2 && !done) {
    const r = await it.next();
    if (r.done === true) done = true;
    else head = head.length === 0 ? r.value : Buffer.concat([head, r.value]);
  }
  const encoding = utf16Encoding(head);
  if (encoding === null) {
    if (head.length > 0) yield head;
    for (let r = done ? null : await it.next(); r !== null && r.done !== true; r = await it.next())
      yield r.value;
    return;
  }
  const decoder = new TextDecoder(encoding);
  let r: IteratorResult<Buffer> | null = { done: false, value: head };
  while (r !== null && r.done !== true) {
    const text = decoder.decode(r.value, { stream: true });
    if (text.length > 0) yield Buffer.from(text, 'utf8');
    r = done ? null : await it.next();
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield Buffer.from(tail, 'utf8');
}
