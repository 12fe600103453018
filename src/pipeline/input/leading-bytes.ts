// Formats are told by their first bytes (gzip's magic, a UTF-16 BOM), but a pipe may hand over a single
// byte first: the first chunk is made long enough to tell before anything is passed on.

/** The chunks as they come, except that the first holds at least `n` bytes (or all there are). */
export async function* withLeadingBytes(chunks: AsyncIterable<Buffer>, n: number): AsyncGenerator<Buffer> {
  let head: Buffer = Buffer.alloc(0);
  let told = false;
  for await (const chunk of chunks) {
    if (told) yield chunk;
    else {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (head.length >= n) {
        told = true;
        yield head;
      }
    }
  }
  if (!told && head.length > 0) yield head;
}
