import { Readable } from 'node:stream';
import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { appliedCodings, readCappedBody } from '../fetch/body-reader.js';
import { type Headers, headEnd, parseHead } from './warc-head.js';

/**
 * The HTTP response inside a WARC record, as the live fetch would have read it off the wire: chunked
 * framing removed and content codings undone (unless the archiver already did, as Common Crawl says with
 * its X-Crawler-* headers), at most `maxBody` decoded bytes kept.
 */

/** What a response's body comes to. */
type Body = Pick<HttpPayload, 'body' | 'truncated' | 'errorCode'>;

/** Longest response head read, as the live fetch reads it. */
const HTTP_HEAD_LIMIT = 128 * 1024;

export interface HttpPayload {
  status: number;
  headers: Headers;
  /** The decoded body (its first maxBody bytes), or null when it cannot be decoded (see errorCode). */
  body: Buffer | null;
  truncated: boolean;
  errorCode: 'ERR_CONTENT_DECODING' | 'ERR_UNSUPPORTED_ENCODING' | null;
}

/** The status and headers of an HTTP response block, and where its body starts; null if it is not one. */
export function parseHttpHead(
  content: Buffer,
): { status: number; headers: Headers; bodyStart: number } | null {
  const end = headEnd(content, 0, HTTP_HEAD_LIMIT);
  if (end === -1) return null;
  const head = parseHead(content, 0, end);
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(head.firstLine);
  if (m === null) return null;
  return { status: Number(m[1]), headers: head.headers, bodyStart: end };
}

/** Removes chunked framing; stops at the first bad chunk line (what came before is kept). */
function dechunk(raw: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let p = 0;
  for (;;) {
    const eol = raw.indexOf(0x0a, p);
    if (eol === -1) break;
    const sizeText = raw.toString('latin1', p, eol).replace(/;.*$/, '').trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) break;
    const size = Number.parseInt(sizeText, 16);
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    const start = eol + 1;
    parts.push(raw.subarray(start, Math.min(raw.length, start + size)));
    if (start + size > raw.length) break;
    p = start + size;
    if (raw[p] === 0x0d) p++;
    if (raw[p] === 0x0a) p++;
  }
  return { body: Buffer.concat(parts), complete: false };
}

type Decoder = (buf: Buffer, options: object) => Buffer;

function decoderFor(coding: string, data: Buffer): Decoder | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync;
    case 'deflate':
      // zlib-wrapped as the standard says, or raw as some servers send it: the first byte tells.
      return data.length > 0 && (data[0]! & 0x0f) === 0x08 ? inflateSync : inflateRawSync;
    case 'br':
      return brotliDecompressSync;
    default:
      return undefined;
  }
}

/** Undoes `codings` (in the order applied) in memory; a body cut short decodes as far as it goes. */
async function decode(raw: Buffer, codings: string[], maxBody: number): Promise<Body> {
  if (codings.length > 2 || codings.some((c) => decoderFor(c, raw) === undefined)) {
    return { body: null, truncated: false, errorCode: 'ERR_UNSUPPORTED_ENCODING' };
  }
  if (raw.length === 0) return { body: raw, truncated: false, errorCode: null };
  let data = raw;
  try {
    for (const coding of [...codings].reverse()) {
      const flush = coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
      data = decoderFor(coding, data)!(data, { finishFlush: flush, maxOutputLength: maxBody + 1 });
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ERR_BUFFER_TOO_LARGE')
      return { body: null, truncated: false, errorCode: 'ERR_CONTENT_DECODING' };
    // Larger than the cap once decoded: the live fetch's streaming reader keeps its first maxBody bytes.
    try {
      const r = await readCappedBody(Readable.from([raw]), codings, maxBody);
      return { body: r.body, truncated: r.truncated, errorCode: null };
    } catch {
      return { body: null, truncated: false, errorCode: 'ERR_CONTENT_DECODING' };
    }
  }
  return data.length > maxBody
    ? { body: data.subarray(0, maxBody), truncated: true, errorCode: null }
    : { body: data, truncated: false, errorCode: null };
}

/**
 * The body of a response as a robots.txt: `cut` says the record holds less than was sent (WARC-Truncated,
 * or longer than the reader keeps), which marks the file truncated as the size cap does.
 */
export function responseBody(
  raw: Buffer,
  headers: Headers,
  cut: boolean,
  maxBody: number,
): Body | Promise<Body> {
  let data = raw;
  let truncated = cut;
  const transfer = headers.get('transfer-encoding');
  // Common Crawl stores payloads decoded and renames the headers that said how they were sent.
  if (!headers.has('x-crawler-transfer-encoding') && transfer !== undefined && /chunked/i.test(transfer)) {
    const d = dechunk(raw);
    data = d.body;
    if (!d.complete) truncated = true;
  }
  const codings = headers.has('x-crawler-content-encoding')
    ? []
    : appliedCodings(headers.get('content-encoding'), transfer);
  const marked = (r: Body): Body => ({ ...r, truncated: r.truncated || (truncated && r.errorCode === null) });
  // Most archived bodies need no decoding: those are settled without a round of promises.
  return codings.length === 0 ? marked(sliceCap(data, maxBody)) : decode(data, codings, maxBody).then(marked);
}

function sliceCap(data: Buffer, maxBody: number): Body {
  return data.length > maxBody
    ? { body: data.subarray(0, maxBody), truncated: true, errorCode: null }
    : { body: data, truncated: false, errorCode: null };
}
