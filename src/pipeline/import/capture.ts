import * as crypto from 'node:crypto';
import type { Observation, StoredOutcome } from '../cache/cache-types.js';
import { nextLocation } from '../fetch/redirect-location.js';
import { parseHttpHead, responseBody } from './http-payload.js';
import { type Head, parseTargetUri, parseWarcDate } from './warc-head.js';
import type { WarcRecord } from './warc-reader.js';

/**
 * One robots.txt capture of an archive, mapped to the live fetch's outcome: 2xx parsed, 4xx unavailable,
 * 429/5xx unreachable. A 3xx keeps its Location and a revisit its reference; both are resolved against
 * every stored capture when the origin's versions are rebuilt (their outcome is null until then).
 */

export type Capture = Pick<
  Observation,
  'status' | 'errorCode' | 'body' | 'sha256' | 'bytes' | 'truncated' | 'etag' | 'lastModified'
> & {
  /** `scheme://host[:port]` when the URI is the origin's /robots.txt; null for a redirect target only. */
  origin: string | null;
  /** The target URI, normalised (WHATWG href, no fragment). */
  uri: string;
  capturedAt: number;
  /** `warc:<file name>@<offset>`. */
  source: string;
  kind: 'response' | 'revisit';
  outcome: StoredOutcome | null;
  location: string | null;
  payloadDigest: string | null;
  refersToUri: string | null;
  refersToDate: number | null;
};

export type CaptureResult = { ok: true; capture: Capture } | { ok: false; reason: string };

/** The /robots.txt URI of a record, if it names one. */
export function robotsOrigin(url: URL): string | null {
  return url.pathname === '/robots.txt' && url.search === '' ? url.origin : null;
}

/** Records whose content import reads: responses, resources and revisits with an http(s) target URI. */
export function isCaptureRecord(head: Head): boolean {
  const type = head.headers.get('warc-type');
  return type === 'response' || type === 'resource' || type === 'revisit';
}

/** Outcome of a final (non-3xx) status, as the live fetch maps it. */
export function outcomeOfStatus(status: number): { outcome: StoredOutcome; errorCode: string | null } {
  if (status >= 200 && status < 300) return { outcome: 'parsed', errorCode: null };
  if (status === 429 || (status >= 500 && status < 600)) return { outcome: 'unreachable', errorCode: null };
  if (status >= 400 && status < 500) return { outcome: 'unavailable', errorCode: null };
  return { outcome: 'unreachable', errorCode: 'ERR_MALFORMED_RESPONSE' };
}

/** A capture's evidence before its HTTP response is read. */
const NOTHING_YET = {
  outcome: null,
  status: null,
  errorCode: null,
  body: null,
  sha256: null,
  bytes: 0,
  truncated: false,
  etag: null,
  lastModified: null,
  location: null,
} as const;

/** One-shot `crypto.hash` where Node has it (20.12+): no Hash object per body. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer) => string }).hash;
const sha256Of =
  typeof oneShot === 'function'
    ? (b: Buffer) => oneShot('sha256', b)
    : (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/**
 * The capture a record holds; `origin` decides whether it is an observation or only a redirect target.
 * A promise only when its body has to be decoded: most captures cost no round of promises.
 */
export function captureOf(
  record: WarcRecord<unknown>,
  url: URL,
  fileName: string,
  maxBody: number,
): CaptureResult | Promise<CaptureResult> {
  const h = record.head.headers;
  const capturedAt = parseWarcDate(h.get('warc-date'));
  if (capturedAt === null) return { ok: false, reason: 'bad WARC-Date' };
  const type = h.get('warc-type');
  const refersTo = parseTargetUri(h.get('warc-refers-to-target-uri'));
  const capture: Capture = {
    origin: robotsOrigin(url),
    uri: url.href,
    capturedAt,
    source: `warc:${fileName}@${record.offset}`,
    kind: type === 'revisit' ? 'revisit' : 'response',
    ...NOTHING_YET,
    payloadDigest: h.get('warc-payload-digest') ?? null,
    refersToUri: refersTo?.href ?? null,
    refersToDate: parseWarcDate(h.get('warc-refers-to-date')),
  };
  const cut = record.cut || h.has('warc-truncated');
  if (type === 'resource') return withBody(capture, record.content, new Map(), cut, maxBody);
  const http = parseHttpHead(record.content);
  if (http === null) {
    if (capture.kind === 'revisit') return { ok: true, capture };
    return { ok: true, capture: { ...capture, outcome: 'unreachable', errorCode: 'ERR_MALFORMED_RESPONSE' } };
  }
  capture.status = http.status;
  capture.etag = http.headers.get('etag') ?? null;
  capture.lastModified = http.headers.get('last-modified') ?? null;
  // A 304 stored as a response is the server saying "as before": resolved like a revisit.
  if (capture.kind === 'revisit' || http.status === 304)
    return { ok: true, capture: { ...capture, kind: 'revisit' } };
  if (http.status >= 300 && http.status < 400) {
    const location = nextLocation(http.headers.get('location') ?? null, url.href);
    if (location === undefined) {
      return { ok: true, capture: { ...capture, outcome: 'unavailable', errorCode: 'ERR_REDIRECT_INVALID' } };
    }
    return { ok: true, capture: { ...capture, location: location.href } };
  }
  const mapped = outcomeOfStatus(http.status);
  if (mapped.outcome !== 'parsed') return { ok: true, capture: { ...capture, ...mapped } };
  const raw = record.content.subarray(http.bodyStart);
  return withBody(capture, raw, http.headers, cut, maxBody);
}

function withBody(
  capture: Capture,
  raw: Buffer,
  headers: Map<string, string>,
  cut: boolean,
  maxBody: number,
): CaptureResult | Promise<CaptureResult> {
  const r = responseBody(raw, headers, cut, maxBody);
  return r instanceof Promise ? r.then((b) => bodied(capture, b)) : bodied(capture, r);
}

function bodied(capture: Capture, r: Awaited<ReturnType<typeof responseBody>>): CaptureResult {
  if (r.body === null)
    return { ok: true, capture: { ...capture, outcome: 'unreachable', errorCode: r.errorCode } };
  return {
    ok: true,
    capture: {
      ...capture,
      outcome: 'parsed',
      body: r.body,
      sha256: sha256Of(r.body),
      bytes: r.body.length,
      truncated: r.truncated,
    },
  };
}
