import { ByteSource } from './byte-source.js';
import { atGzipMember, gzipHeaderLength, streamMember } from './gzip-member.js';
import { MemberInflater } from './member-inflater.js';
import { type Head, headEnd, parseHead } from './warc-head.js';

/**
 * Streams the records of a WARC file, plain or gzipped (one gzip member per record, as WARC writers do;
 * a member holding several records, or a whole file in one member, is read too). Only the records the
 * caller wants are kept, and of those at most `KEEP_BYTES` of content; the rest is skipped without copying.
 * A malformed record is reported with its offset and reading resumes at the next record (plain files) or
 * the next gzip member; what cannot be resumed ends the file with a `stopped` event.
 */

/** Content bytes kept of a wanted record: room for a 500 KiB file sent chunked or compressed. */
export const KEEP_BYTES = 4 * 1024 * 1024;
/** Longest WARC header block read. */
const HEAD_LIMIT = 64 * 1024;
/** Compressed bytes of one member inflated in one call; a larger member is inflated as a stream. */
const SYNC_MEMBER_LIMIT = 8 * 1024 * 1024;
/** Content bytes of wanted records gathered into one batch of events before it is handed on. */
const BATCH_BYTES = 1024 * 1024;
/**
 * Events gathered into one batch: a batch lives until its last event is handled, and a few thousand
 * (a MiB of input) outlive young-generation collections, which then copy and promote them.
 */
export const BATCH_EVENTS = 128;

export interface WarcRecord<T = true> {
  type: 'record';
  /** Byte offset of the record: in the file, or `member+offset` inside a gzip member that holds several. */
  offset: string;
  head: Head;
  /** The record's content block (its first KEEP_BYTES). */
  content: Buffer;
  /** The content was longer than what is kept. */
  cut: boolean;
  /** What `want` said of the record. */
  mark: T;
}

export type WarcEvent<T = true> =
  | WarcRecord<T>
  | { type: 'skipped'; offset: string; warcType: string }
  | { type: 'malformed'; offset: string; reason: string }
  | { type: 'stopped'; offset: string; reason: string };

/**
 * Decides from its WARC headers whether a record's content is wanted: a record is wanted when the
 * answer is neither false, null nor undefined, and the answer goes with it as its `mark`.
 */
export type Want<T = true> = (head: Head) => T | false | null | undefined;

const isWanted = <T>(mark: T | false | null | undefined): mark is T =>
  mark !== false && mark !== null && mark !== undefined;

const RECORD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
const WARC_MAGIC = Buffer.from('WARC/');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);

/** Reads the records of one WARC stream (gzip recognised by its first bytes). */
export async function* readWarc<T = true>(
  chunks: AsyncIterable<Buffer>,
  want: Want<T>,
): AsyncGenerator<WarcEvent<T>> {
  for await (const batch of readWarcBatches(chunks, want)) yield* batch;
}

/**
 * The events of readWarc in batches, in order: the records of every gzip member already buffered come
 * together, so that a few-KiB record does not cost a round of promises of its own.
 */
export async function* readWarcBatches<T = true>(
  chunks: AsyncIterable<Buffer>,
  want: Want<T>,
): AsyncGenerator<Array<WarcEvent<T>>> {
  const src = new ByteSource(chunks);
  await src.ensure(2);
  if (src.available >= 2 && src.view()[0] === 0x1f && src.view()[1] === 0x8b) {
    yield* gzipMembers(src, want);
    return;
  }
  await skipBlankLines(src);
  if (src.done) return;
  await src.ensure(5);
  if (!src.view().subarray(0, 5).equals(WARC_MAGIC)) {
    yield [
      {
        type: 'stopped',
        offset: String(src.offset),
        reason: 'not a WARC file (it starts with neither gzip nor WARC/)',
      },
    ];
    return;
  }
  const base = src.offset;
  for await (const e of plainRecords(src, want, (o) => String(base + o))) yield [e];
}

/** Moves past blank lines some writers leave between records. */
async function skipBlankLines(src: ByteSource): Promise<void> {
  for (;;) {
    if (!(await src.ensure(1))) return;
    const v = src.view();
    let i = 0;
    while (i < v.length && (v[i] === 0x0d || v[i] === 0x0a)) i++;
    src.consume(i);
    if (i < v.length) return;
  }
}

/** Drops bytes up to the next occurrence of `magic` after the cursor's first byte; false at the end. */
async function resync(src: ByteSource, magic: Buffer): Promise<boolean> {
  src.consume(1);
  for (;;) {
    const v = src.view();
    const at = v.indexOf(magic);
    if (at !== -1) {
      src.consume(at);
      return true;
    }
    const keep = Math.min(v.length, magic.length - 1);
    src.consume(v.length - keep);
    if (!(await src.more())) {
      src.consume(src.available);
      return false;
    }
  }
}

type HeadCheck = { ok: true; head: Head; length: number } | { ok: false; reason: string };

/** The WARC head of the record at `v[at]`, whose header block ends at `end` (-1: not found). */
function recordHead(v: Buffer, at: number, end: number, cut: boolean): HeadCheck {
  if (end === -1 || !v.subarray(at, at + 5).equals(WARC_MAGIC)) {
    return { ok: false, reason: cut ? 'record cut short in its header' : 'bad header' };
  }
  const head = parseHead(v, at, end);
  const lengthText = head.headers.get('content-length');
  const length = lengthText !== undefined && /^\d{1,15}$/.test(lengthText) ? Number(lengthText) : -1;
  return length < 0 ? { ok: false, reason: 'bad Content-Length' } : { ok: true, head, length };
}

/**
 * Events of the records of one inflated gzip member, added to `out`; returns the content bytes kept.
 * Kept content is copied: `buf` is the inflater's, reused for the next member.
 */
function bufferRecords<T>(
  buf: Buffer,
  want: Want<T>,
  label: (offset: number) => string,
  out: Array<WarcEvent<T>>,
): number {
  let kept = 0;
  let p = 0;
  for (;;) {
    while (p < buf.length && (buf[p] === 0x0d || buf[p] === 0x0a)) p++;
    if (p >= buf.length) return kept;
    const at = label(p);
    const end = headEnd(buf, p, HEAD_LIMIT);
    const r = recordHead(buf, p, end, end === -1 && buf.length - p < HEAD_LIMIT);
    const next = r.ok ? end + r.length : -1;
    if (!r.ok || next + 4 > buf.length || !buf.subarray(next, next + 4).equals(RECORD_END)) {
      const reason = r.ok
        ? next > buf.length
          ? 'record cut short (the stream ends inside its content)'
          : 'bad Content-Length (no blank line after the content)'
        : r.reason;
      out.push({ type: 'malformed', offset: at, reason });
      const resume = buf.indexOf(WARC_MAGIC, p + 1);
      if (resume === -1) return kept;
      p = resume;
      continue;
    }
    const { head, length } = r;
    const mark = want(head);
    if (isWanted(mark)) {
      const n = Math.min(length, KEEP_BYTES);
      const content = Buffer.from(buf.subarray(end, end + n));
      out.push({ type: 'record', offset: at, head, content, cut: n < length, mark });
      kept += n;
    } else out.push({ type: 'skipped', offset: at, warcType: head.headers.get('warc-type') ?? '' });
    p = next + 4;
  }
}

/** Records of an uncompressed WARC stream; `label` names an offset within it. */
async function* plainRecords<T>(
  src: ByteSource,
  want: Want<T>,
  label: (offset: number) => string,
): AsyncGenerator<WarcEvent<T>> {
  const base = src.offset;
  for (;;) {
    await skipBlankLines(src);
    if (src.done) return;
    const at = label(src.offset - base);
    let end = headEnd(src.view(), 0, HEAD_LIMIT);
    while (end === -1 && src.available < HEAD_LIMIT && (await src.more()))
      end = headEnd(src.view(), 0, HEAD_LIMIT);
    const r = recordHead(src.view(), 0, end, end === -1 && src.available < HEAD_LIMIT);
    if (!r.ok) {
      yield { type: 'malformed', offset: at, reason: r.reason };
      if (!(await resync(src, WARC_MAGIC))) return;
      continue;
    }
    const { head, length } = r;
    const mark = want(head);
    const kept = isWanted(mark) ? Math.min(length, KEEP_BYTES) : 0;
    await src.ensure(end + kept);
    if (src.available < end + kept) {
      yield {
        type: 'malformed',
        offset: at,
        reason: 'record cut short (the stream ends inside its content)',
      };
      src.consume(src.available);
      return;
    }
    // A copy: a view would keep the whole read chunk alive for as long as the capture is queued.
    const content = kept === 0 ? EMPTY : Buffer.from(src.view().subarray(end, end + kept));
    src.consume(end);
    const skipped = await src.skip(length);
    if (skipped < length) {
      yield {
        type: 'malformed',
        offset: at,
        reason: 'record cut short (the stream ends inside its content)',
      };
      return;
    }
    await src.ensure(4);
    if (!src.view().subarray(0, 4).equals(RECORD_END)) {
      // A wrong Content-Length: the record's bytes cannot be trusted; look for the next record.
      yield { type: 'malformed', offset: at, reason: 'bad Content-Length (no blank line after the content)' };
      if (!src.done && !(await resync(src, WARC_MAGIC))) return;
      continue;
    }
    src.consume(4);
    if (isWanted(mark)) yield { type: 'record', offset: at, head, content, cut: kept < length, mark };
    else yield { type: 'skipped', offset: at, warcType: head.headers.get('warc-type') ?? '' };
  }
}

/** Gzip members one by one, each inflated in one call when small, else as a stream. */
async function* gzipMembers<T>(src: ByteSource, want: Want<T>): AsyncGenerator<Array<WarcEvent<T>>> {
  const inflater = new MemberInflater(KEEP_BYTES + HEAD_LIMIT);
  const labelFor = (member: number) => (inner: number) =>
    inner === 0 ? String(member) : `${member}+${inner}`;
  for (;;) {
    // Members wholly buffered, read without awaiting; anything else takes the general path below.
    const batch: Array<WarcEvent<T>> = [];
    let kept = 0;
    while (kept < BATCH_BYTES && batch.length < BATCH_EVENTS) {
      const v = src.view();
      if (v.length < 18 || !atGzipMember(v)) break;
      const headerLength = gzipHeaderLength(v);
      if (headerLength === -1) break;
      const r = inflater.inflate(v, headerLength);
      if (!r.ok) break;
      const member = src.offset;
      src.consume(r.length);
      kept += bufferRecords(r.out, want, labelFor(member), batch);
    }
    if (batch.length > 0) yield batch;
    if (kept >= BATCH_BYTES || batch.length >= BATCH_EVENTS) continue;
    if (!(await src.ensure(1))) return;
    const member = src.offset;
    const label = labelFor(member);
    await src.ensure(18);
    let v = src.view();
    if (!v.subarray(0, 3).equals(GZIP_MAGIC)) {
      yield [{ type: 'malformed', offset: String(member), reason: 'not a gzip member' }];
      if (!(await resync(src, GZIP_MAGIC))) return;
      continue;
    }
    let headerLength = gzipHeaderLength(v);
    while (headerLength === -1 && src.available < HEAD_LIMIT && (await src.more())) {
      headerLength = gzipHeaderLength(src.view());
    }
    if (headerLength === -1) {
      yield [{ type: 'stopped', offset: String(member), reason: 'gzip member cut short in its header' }];
      return;
    }
    let r = inflater.inflate(src.view(), headerLength);
    while (!r.ok && r.reason === 'more' && src.available < SYNC_MEMBER_LIMIT && (await src.more())) {
      r = inflater.inflate(src.view(), headerLength);
    }
    if (r.ok) {
      src.consume(r.length);
      const events: Array<WarcEvent<T>> = [];
      bufferRecords(r.out, want, label, events);
      yield events;
      continue;
    }
    if (r.reason === 'corrupt' || (r.reason === 'more' && src.available < SYNC_MEMBER_LIMIT)) {
      // The file ends inside this member: reading stops here, unless another member follows it (then
      // this one was cut or corrupt: inflating runs on into the next member's bytes, so it cannot tell).
      v = src.view();
      if (r.reason === 'more' && v.indexOf(GZIP_MAGIC, 1) === -1) {
        yield [{ type: 'stopped', offset: String(member), reason: 'gzip member cut short' }];
        src.consume(src.available);
        return;
      }
      yield [{ type: 'malformed', offset: String(member), reason: 'corrupt or cut gzip member' }];
      if (!(await resync(src, GZIP_MAGIC))) return;
      continue;
    }
    src.consume(headerLength);
    const stream = streamMember(src);
    for await (const e of plainRecords(new ByteSource(stream.chunks), want, label)) yield [e];
    const end = await stream.finished;
    if (end !== null) {
      yield [{ type: 'malformed', offset: String(member), reason: end }];
      if (!(await resync(src, GZIP_MAGIC))) return;
    }
  }
}
