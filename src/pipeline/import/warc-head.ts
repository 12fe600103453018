/**
 * Header blocks of WARC records and of the HTTP messages inside them: `Name: value` lines up to a blank
 * line, names case-insensitive, folded continuation lines joined, repeated names joined with `, `.
 */

export type Headers = Map<string, string>;

export interface Head {
  /** The first line (`WARC/1.1`, `HTTP/1.1 200 OK`). */
  firstLine: string;
  headers: Headers;
  /** Index just past the blank line that ends the block. */
  end: number;
}

const CR = 0x0d;
const LF = 0x0a;

/** Index just past the blank line ending the block that starts at `from` (CRLF or bare LF), or -1. */
export function headEnd(buf: Buffer, from: number, limit: number): number {
  const stop = Math.min(buf.length, from + limit);
  let i = buf.indexOf(LF, from);
  while (i !== -1 && i < stop) {
    const next = buf[i + 1];
    if (next === LF) return i + 2;
    if (next === CR && buf[i + 2] === LF) return i + 3;
    i = buf.indexOf(LF, i + 1);
  }
  return -1;
}

/** Parses the block `buf[from, end)` as latin1 text (header bytes are bytes, not UTF-8). */
export function parseHead(buf: Buffer, from: number, end: number): Head {
  const lines = buf.toString('latin1', from, end).split('\n');
  const headers: Headers = new Map();
  let last: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (line === '') continue;
    const c = line.charCodeAt(0);
    if ((c === 0x20 || c === 0x09) && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before}, ${value}`);
    last = name;
  }
  const first = lines[0]!;
  return { firstLine: first.endsWith('\r') ? first.slice(0, -1) : first, headers, end };
}

/** A WARC-Date (RFC 3339 / W3C-DTF, fractions allowed) as epoch ms, or null. */
export function parseWarcDate(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)$/.exec(
    text.trim(),
  );
  if (m === null) return null;
  const ms = Date.parse(text.trim());
  return Number.isFinite(ms) ? ms : null;
}

/** A WARC URI as written (WARC/1.0 writers sometimes wrap it in `<>`), as a URL without fragment, or null. */
export function parseTargetUri(text: string | undefined): URL | null {
  if (text === undefined) return null;
  let t = text.trim();
  if (t.startsWith('<') && t.endsWith('>')) t = t.slice(1, -1);
  try {
    const url = new URL(t);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}
