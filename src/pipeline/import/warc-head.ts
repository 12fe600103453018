/**
 * Header blocks of WARC records and of the HTTP messages inside them: `Name: value` lines up to a blank
 * line, names case-insensitive, folded continuation lines joined, repeated names joined with `, `.
 */

import { parseTime } from '../../rows/row-time.js';

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

/** Header names as written, lower-cased once (the same few names recur in every record). */
const lowerNames = new Map<string, string>();
const MAX_NAMES = 1024;

function lowerName(raw: string): string {
  let name = lowerNames.get(raw);
  if (name === undefined) {
    name = raw.trim().toLowerCase();
    if (lowerNames.size < MAX_NAMES) lowerNames.set(raw, name);
  }
  return name;
}

/** Parses the block `buf[from, end)` as latin1 text (header bytes are bytes, not UTF-8). */
export function parseHead(buf: Buffer, from: number, end: number): Head {
  const text = buf.toString('latin1', from, end);
  const headers: Headers = new Map();
  let last: string | undefined;
  let eol = text.indexOf('\n');
  if (eol === -1) eol = text.length;
  const firstLine = text.slice(0, eol > 0 && text.charCodeAt(eol - 1) === 0x0d ? eol - 1 : eol);
  // Line by line without splitting: [p, stop) is a line without its CR LF.
  for (let p = eol + 1; p < text.length; p = eol + 1) {
    eol = text.indexOf('\n', p);
    if (eol === -1) eol = text.length;
    const stop = eol > p && text.charCodeAt(eol - 1) === 0x0d ? eol - 1 : eol;
    if (stop === p) continue;
    const c = text.charCodeAt(p);
    if ((c === 0x20 || c === 0x09) && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${text.slice(p, stop).trim()}`);
      continue;
    }
    const colon = text.indexOf(':', p);
    if (colon <= p || colon >= stop) continue;
    const name = lowerName(text.slice(p, colon));
    const value = text.slice(colon + 1, stop).trim();
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before}, ${value}`);
    last = name;
  }
  return { firstLine, headers, end };
}

/** A WARC-Date (RFC 3339 / W3C-DTF, fractions allowed) as epoch ms, or null. */
export function parseWarcDate(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)$/.exec(
    text.trim(),
  );
  if (m === null) return null;
  // As a row's time is read: Date.parse would take 2024-02-30 for March 1st.
  const ms = parseTime(text.trim());
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
