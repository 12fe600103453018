import type { Database, Statement } from 'better-sqlite3';
import type { Row } from '../cache/policy-cache.js';
import { MAX_REDIRECTS } from '../fetch/redirect-location.js';
import type { Settled } from './rebuild-versions.js';

/**
 * Settles a stored observation whose outcome the capture alone does not give. A revisit takes the
 * content of the earlier capture with the same payload digest (else the one it refers to by URI and date;
 * a "not modified" revisit or 304, else the URI's previous capture). A 3xx follows its Location to the
 * capture of that URI nearest in time within REDIRECT_WINDOW_MS, up to MAX_REDIRECTS hops; when there is
 * none it is unavailable with ERR_REDIRECT_UNRESOLVED, so that a judgement under it can say why.
 */

/** How far apart in time a redirect and the capture of its target may be. */
export const REDIRECT_WINDOW_MS = 60 * 60 * 1000;

/** A row of the observations table. */
export type ObservationRow = Pick<
  Row,
  | 'status'
  | 'error_code'
  | 'sha256'
  | 'bytes'
  | 'truncated'
  | 'etag'
  | 'last_modified'
  | 'final_url'
  | 'expires_at'
> & {
  origin: string | null;
  uri: string;
  captured_at: number;
  source: string;
  kind: 'response' | 'revisit' | 'fetch';
  outcome: Settled['outcome'] | null;
  location: string | null;
  payload_digest: string | null;
  refers_to_uri: string | null;
  refers_to_date: number | null;
};

export type Resolution =
  | { ok: true; settled: Settled; redirect: 'none' | 'resolved' | 'unresolved'; revisit: boolean }
  | { ok: false; reason: string };

export class CaptureResolver {
  private readonly byDigest: Statement;
  private readonly byRefers: Statement;
  private readonly previous: Statement;
  private readonly target: Statement;

  constructor(db: Database) {
    const response = "kind = 'response'";
    this.byDigest = db.prepare(
      `SELECT * FROM observations WHERE payload_digest = ? AND ${response} AND captured_at <= ?
         ORDER BY uri = ? DESC, captured_at DESC, source LIMIT 1`,
    );
    this.byRefers = db.prepare(
      `SELECT * FROM observations WHERE uri = ? AND captured_at = ? AND ${response} ORDER BY source LIMIT 1`,
    );
    this.previous = db.prepare(
      `SELECT * FROM observations WHERE uri = ? AND captured_at < ? AND ${response}
         ORDER BY captured_at DESC, source DESC LIMIT 1`,
    );
    this.target = db.prepare(
      `SELECT * FROM observations WHERE uri = ? AND kind != 'fetch' AND captured_at BETWEEN ? AND ?
         ORDER BY abs(captured_at - ?), captured_at, source LIMIT 1`,
    );
  }

  resolve(row: ObservationRow): Resolution {
    if (row.outcome !== null)
      return { ok: true, settled: settledOf(row, row), redirect: 'none', revisit: false };
    if (row.kind === 'revisit') {
      const r = this.content(row, 0);
      return r.ok ? { ...r, revisit: true } : r;
    }
    return this.content(row, 0);
  }

  /** What `row` stands for, judged at its own time and source. */
  private content(row: ObservationRow, depth: number): Resolution {
    if (depth > MAX_REDIRECTS + 2) return { ok: false, reason: 'revisits refer to each other' };
    if (row.outcome !== null)
      return { ok: true, settled: settledOf(row, row), redirect: 'none', revisit: false };
    if (row.kind === 'revisit') {
      const original = this.original(row);
      if (!('uri' in original)) return { ok: false, reason: original.reason };
      const r = this.content(original, depth + 1);
      if (!r.ok) return r;
      const status = row.status !== null && row.status !== 304 ? row.status : r.settled.status;
      return {
        ...r,
        settled: {
          ...r.settled,
          capturedAt: row.captured_at,
          source: row.source,
          status,
          etag: row.etag ?? r.settled.etag,
          lastModified: row.last_modified ?? r.settled.lastModified,
          expiresAt: row.expires_at,
        },
      };
    }
    return this.redirect(row, depth);
  }

  private original(row: ObservationRow): ObservationRow | { reason: string } {
    if (row.payload_digest !== null) {
      const hit = this.byDigest.get(row.payload_digest, row.captured_at, row.refers_to_uri ?? row.uri);
      if (hit !== undefined) return hit as ObservationRow;
    }
    if (row.refers_to_uri !== null && row.refers_to_date !== null) {
      const hit = this.byRefers.get(row.refers_to_uri, row.refers_to_date);
      if (hit !== undefined) return hit as ObservationRow;
    }
    if (row.payload_digest === null || row.status === 304) {
      const hit = this.previous.get(row.uri, row.captured_at);
      if (hit !== undefined) return hit as ObservationRow;
    }
    if (row.payload_digest !== null)
      return { reason: `no earlier capture with payload digest ${row.payload_digest}` };
    if (row.refers_to_uri !== null)
      return { reason: `no capture of ${row.refers_to_uri} at the date it refers to` };
    return { reason: `no earlier capture of ${row.uri}` };
  }

  private redirect(row: ObservationRow, depth: number): Resolution {
    const visited = new Set([row.uri]);
    let hop = row;
    for (let hops = 1; ; hops++) {
      const fail = (errorCode: string, finalUrl: string | null): Resolution => ({
        ok: true,
        settled: {
          ...settledOf(row, hop),
          outcome: 'unavailable',
          errorCode,
          finalUrl,
          sha256: null,
          bytes: 0,
        },
        redirect: 'unresolved',
        revisit: false,
      });
      const location = hop.location!;
      if (visited.has(location)) return fail('ERR_REDIRECT_LOOP', location);
      if (hops > MAX_REDIRECTS) return fail('ERR_TOO_MANY_REDIRECTS', location);
      visited.add(location);
      const t = hop.captured_at;
      const next = this.target.get(location, t - REDIRECT_WINDOW_MS, t + REDIRECT_WINDOW_MS, t) as
        | ObservationRow
        | undefined;
      if (next === undefined) return fail('ERR_REDIRECT_UNRESOLVED', location);
      if (next.outcome === null && next.kind !== 'revisit' && next.location !== null) {
        hop = next;
        continue;
      }
      const r = this.content(next, depth + 1);
      if (!r.ok) return fail('ERR_REDIRECT_UNRESOLVED', location);
      return {
        ok: true,
        settled: { ...r.settled, capturedAt: row.captured_at, source: row.source, expiresAt: row.expires_at },
        redirect: 'resolved',
        revisit: false,
      };
    }
  }
}

/** `row`'s identity and time with `content`'s evidence. */
function settledOf(row: ObservationRow, content: ObservationRow): Settled {
  return {
    capturedAt: row.captured_at,
    source: row.source,
    outcome: content.outcome ?? 'unavailable',
    status: content.status,
    errorCode: content.error_code,
    sha256: content.sha256,
    bytes: content.bytes,
    truncated: content.truncated === 1,
    etag: content.etag,
    lastModified: content.last_modified,
    finalUrl: content.final_url ?? content.uri,
    expiresAt: row.expires_at,
  };
}
