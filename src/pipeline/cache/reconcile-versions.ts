import type { Row } from './policy-cache.js';

/**
 * How `cache merge` joins the histories several caches hold of one origin. A version is a span during
 * which one policy (outcome, status, error code, body) was seen; the rules below depend only on the
 * set of rows given, so merging is order-free (A+B = B+A) and idempotent (ALL+A = ALL):
 * 1. Rows of the same version start (valid_from) and policy are one: the most recently confirmed copy
 *    is kept (latest fetched_at, then expires_at; its etag, final URL, … go with it).
 * 2. Versions are ordered by valid_from; neighbours with the same policy are one version (two caches
 *    saw it from different times): it starts at the earlier valid_from, with that sighting's source,
 *    confirmed as in 1.
 * 3. Each version ends (valid_to) where the next begins; the last is the current one (valid_to NULL).
 * 4. When an earlier version was confirmed after the last one was (one cache saw a change that another
 *    saw undone later), that policy is current again: from that confirmation on, as a cache that had
 *    seen every fetch would record it.
 */

/** A row of the versions table (`source` since schema 2: where the version was first seen). */
export type VersionRow = Omit<Row, 'body'> & { source?: string | null };

type Sourced = VersionRow & { src: number };

const policyOf = (v: VersionRow) => `${v.outcome}\0${v.status}\0${v.error_code}\0${v.sha256}`;

/** What a confirmation of a version sets (everything but its policy and its span). */
function confirmation(v: VersionRow): string {
  return JSON.stringify([v.robots_url, v.final_url, v.bytes, v.truncated, v.etag, v.last_modified]);
}

/** Positive when `a` was confirmed more recently than `b` (a total order, so the choice is order-free). */
function fresher(a: VersionRow, b: VersionRow): number {
  if (a.fetched_at !== b.fetched_at) return a.fetched_at - b.fetched_at;
  if (a.expires_at !== b.expires_at) return a.expires_at - b.expires_at;
  const ca = confirmation(a);
  const cb = confirmation(b);
  return ca === cb ? 0 : ca > cb ? 1 : -1;
}

/** Where the earlier of two sightings of one version came from (of equal times, the first by name). */
function firstSource(a: VersionRow, b: VersionRow): string | null {
  if (a.valid_from !== b.valid_from) return (a.valid_from < b.valid_from ? a.source : b.source) ?? null;
  const [x, y] = [a.source ?? null, b.source ?? null];
  return x === null || (y !== null && y < x) ? y : x;
}

/** One version seen as `into` and as `from` (which starts no earlier): confirmed by the fresher. */
function confirmedBy(into: Sourced, from: Sourced): Sourced {
  const source = firstSource(into, from);
  const kept =
    fresher(from, into) <= 0 ? into : { ...from, valid_from: into.valid_from, valid_to: into.valid_to };
  return source === (kept.source ?? null) ? kept : { ...kept, source };
}

/** The versions of one origin (rows from every input), reconciled, oldest first, valid_to chained. */
export function reconcileOrigin(rows: readonly Sourced[]): Sourced[] {
  const byStart = new Map<string, Sourced>();
  for (const r of rows) {
    const key = `${r.valid_from}\0${policyOf(r)}`;
    const seen = byStart.get(key);
    byStart.set(key, seen === undefined ? r : confirmedBy(seen, r));
  }
  const sorted = [...byStart.values()].sort(
    (a, b) =>
      a.valid_from - b.valid_from || (policyOf(a) < policyOf(b) ? -1 : policyOf(a) > policyOf(b) ? 1 : 0),
  );
  const chain: Sourced[] = [];
  for (const v of sorted) {
    const prev = chain.at(-1);
    if (prev !== undefined && policyOf(prev) === policyOf(v)) chain[chain.length - 1] = confirmedBy(prev, v);
    else chain.push({ ...v });
  }
  let latest = chain[0]!;
  for (const v of chain) if (fresher(v, latest) >= 0) latest = v;
  const last = chain.at(-1)!;
  if (latest !== last && latest.fetched_at > last.fetched_at) {
    // The same policy as the last version: that version, confirmed later (its start and source stay).
    if (policyOf(latest) === policyOf(last))
      chain[chain.length - 1] = { ...latest, valid_from: last.valid_from, source: last.source };
    else chain.push({ ...latest, valid_from: latest.fetched_at });
  }
  for (let i = 0; i < chain.length; i++) chain[i]!.valid_to = chain[i + 1]?.valid_from ?? null;
  return chain;
}
