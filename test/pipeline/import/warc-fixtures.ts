import { createHash, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { exportRecords } from '../../../src/pipeline/cache/cache-maintenance.js';
import { PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import type { ArchiveInput } from '../../../src/pipeline/import/import-archives.js';

/**
 * WARC files built byte by byte, shaped like the ones real archivers write: Common Crawl's robots.txt
 * subset (request + response + metadata per capture, payloads stored decoded with X-Crawler-* headers),
 * wget (raw wire payloads, chunked and gzip), revisits, one gzip member per record.
 */

export type Body = Buffer | string;
const buf = (b: Body) => (typeof b === 'string' ? Buffer.from(b, 'utf8') : b);

export interface RecordSpec {
  type: string;
  uri?: string;
  date?: string;
  headers?: Record<string, string>;
  content: Body;
  /** Content-Length written instead of the real one (a malformed record). */
  lengthOverride?: string;
}

export function warcRecord(spec: RecordSpec): Buffer {
  const content = buf(spec.content);
  const lines = ['WARC/1.0', `WARC-Type: ${spec.type}`, `WARC-Record-ID: <urn:uuid:${randomUUID()}>`];
  if (spec.date !== undefined) lines.push(`WARC-Date: ${spec.date}`);
  if (spec.uri !== undefined) lines.push(`WARC-Target-URI: ${spec.uri}`);
  for (const [k, v] of Object.entries(spec.headers ?? {})) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${spec.lengthOverride ?? content.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), content, Buffer.from('\r\n\r\n')]);
}

export function httpResponse(status: number, headers: Array<[string, string]>, body: Body = ''): Buffer {
  const head = [
    `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Status'}`,
    ...headers.map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), buf(body)]);
}

/** `sha1:<base32>` as WARC writers give WARC-Payload-Digest. */
export function payloadDigest(body: Body): string {
  const bytes = createHash('sha1').update(buf(body)).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `sha1:${out}`;
}

/** One gzip member per record, as WARC writers compress. */
export function gz(records: Buffer[]): Buffer {
  return Buffer.concat(records.map((r) => gzipSync(r)));
}

export function chunked(body: Body, size: number): Buffer {
  const b = buf(body);
  const parts: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) {
    const piece = b.subarray(i, i + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/**
 * One Common Crawl robots.txt capture: request, response and metadata records. The payload is stored
 * decoded; the headers that said how it was sent are renamed X-Crawler-*.
 */
export function ccCapture(
  uri: string,
  date: string,
  status: number,
  body: Body = '',
  extra: Array<[string, string]> = [],
): Buffer[] {
  const b = buf(body);
  const host = new URL(uri).host;
  const request = warcRecord({
    type: 'request',
    uri,
    date,
    headers: { 'Content-Type': 'application/http; msgtype=request' },
    content: `GET /robots.txt HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: CCBot/2.0\r\n\r\n`,
  });
  const headers: Array<[string, string]> = [
    ['Content-Type', 'text/plain'],
    ['X-Crawler-Content-Encoding', 'gzip'],
    ['X-Crawler-Transfer-Encoding', 'chunked'],
    ['Content-Length', String(b.length)],
    ...extra,
  ];
  const response = warcRecord({
    type: 'response',
    uri,
    date,
    headers: {
      'Content-Type': 'application/http; msgtype=response',
      'WARC-Payload-Digest': payloadDigest(b),
      'WARC-IP-Address': '192.0.2.1',
    },
    content: httpResponse(status, headers, b),
  });
  const metadata = warcRecord({
    type: 'metadata',
    uri,
    date,
    headers: { 'Content-Type': 'application/warc-fields' },
    content: 'fetchTimeMs: 41\r\n',
  });
  return [request, response, metadata];
}

/** A wget-style response: the payload exactly as it came off the wire (with its payload digest if given). */
export function wgetResponse(uri: string, date: string, http: Buffer, digest?: string): Buffer {
  const headers: Record<string, string> = { 'Content-Type': 'application/http;msgtype=response' };
  if (digest !== undefined) headers['WARC-Payload-Digest'] = digest;
  return warcRecord({ type: 'response', uri: `<${uri}>`, date, headers, content: http });
}

export function revisit(
  uri: string,
  date: string,
  opts: { digest?: string; refersToUri?: string; refersToDate?: string; status?: number; profile?: string },
): Buffer {
  const headers: Record<string, string> = {
    'WARC-Profile': opts.profile ?? 'http://netpreserve.org/warc/1.0/revisit/identical-payload-digest',
    'Content-Type': 'application/http; msgtype=response',
  };
  if (opts.digest !== undefined) headers['WARC-Payload-Digest'] = opts.digest;
  if (opts.refersToUri !== undefined) headers['WARC-Refers-To-Target-URI'] = opts.refersToUri;
  if (opts.refersToDate !== undefined) headers['WARC-Refers-To-Date'] = opts.refersToDate;
  return warcRecord({
    type: 'revisit',
    uri,
    date,
    headers,
    content: httpResponse(opts.status ?? 200, [['Content-Type', 'text/plain']]),
  });
}

export function warcinfo(): Buffer {
  return warcRecord({
    type: 'warcinfo',
    date: '2024-01-01T00:00:00Z',
    headers: { 'Content-Type': 'application/warc-fields' },
    content: 'software: fixture\r\nformat: WARC File Format 1.0\r\n',
  });
}

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  yield b;
}

/** An archive for importArchives: `bytes` as one chunk, recorded under `name`. */
export function archiveInput(name: string, bytes: Buffer): ArchiveInput {
  return { name, chunks: once(bytes) };
}

/** Every version of the cache at `path`, as `cache export` writes them. */
export function exportCache(path: string) {
  const cache = new PolicyCache(path, { mustExist: true });
  try {
    return [...exportRecords(cache)];
  } finally {
    cache.close();
  }
}
