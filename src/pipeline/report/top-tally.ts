import type { TopEntryCounts, TopList } from './report-model.js';

/** Example URLs kept per entry. */
export const EXAMPLES = 3;

interface Held<T> {
  item: T;
  n: number;
  examples: string[];
}

/**
 * Keeps `s` among the `EXAMPLES` smallest strings of `list` (byte order of latin1 text, sorted, no
 * repeats). The smallest rather than the first, so that merged parts keep the examples of the whole.
 */
export function keepExample(list: string[], s: string): void {
  const n = list.length;
  if (n === EXAMPLES && s >= list[n - 1]!) return;
  let i = n;
  while (i > 0 && list[i - 1]! > s) i--;
  if (i > 0 && list[i - 1] === s) return;
  list.splice(i, 0, s);
  if (list.length > EXAMPLES) list.pop();
}

/**
 * Counts keys with their example URLs in bounded memory. Past 2×capacity keys, all but the largest
 * `capacity` are dropped; a dropped key seen again starts over, so its count is low by at most the sum,
 * over prunes, of the largest count each dropped (`dropBound`, 0 while nothing was dropped).
 */
export class TopTally<T> {
  private readonly held = new Map<string, Held<T>>();
  dropBound = 0;
  /** Keys inserted (a dropped key seen again counts again). */
  inserted = 0;

  constructor(readonly capacity: number) {}

  /** Adds `n` to `key` (made by `make` on first sight) with `url` as a candidate example; returns the item. */
  add(key: string, make: () => T, url: string, n = 1): T {
    let e = this.held.get(key);
    if (e === undefined) {
      if (this.held.size >= 2 * this.capacity) this.prune();
      e = { item: make(), n: 0, examples: [] };
      this.held.set(key, e);
      this.inserted++;
    }
    e.n += n;
    if (url !== '') keepExample(e.examples, url);
    return e.item;
  }

  private prune(): void {
    const sorted = [...this.held.entries()].sort((a, b) => b[1].n - a[1].n);
    let largest = 0;
    for (let i = this.capacity; i < sorted.length; i++) {
      const [key, e] = sorted[i]!;
      if (e.n > largest) largest = e.n;
      this.held.delete(key);
    }
    this.dropBound += largest;
  }

  /** The list as the report holds it; `decode` turns held strings (latin1 bytes) into text. */
  toList(show: number, finish: (item: T) => T, decode: (s: string) => string): TopList<T> {
    const entries: (T & TopEntryCounts)[] = [...this.held.values()].map((e) => ({
      ...finish(e.item),
      count: e.n,
      examples: e.examples.map(decode),
    }));
    return cutList<T>(entries, this.capacity, show, this.dropBound, this.inserted, keyOfEntry);
  }
}

/** A stable key for an entry: its fields other than the counts, in a fixed order. */
export function keyOfEntry(e: object): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(e).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (k === 'count' || k === 'examples' || k === 'agents') continue;
    parts.push(`${k}=${String(v)}`);
  }
  return parts.join('\u0000');
}

/** Largest first, ties by key: the order every list is written in. */
function order<T>(entries: (T & TopEntryCounts)[], key: (e: object) => string): void {
  const keys = new Map(entries.map((e) => [e, key(e as object)]));
  entries.sort((a, b) => {
    if (b.count !== a.count) return b.count - a.count;
    const ka = keys.get(a)!;
    const kb = keys.get(b)!;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** Sorts and cuts entries to `capacity`; what is cut off adds to the bound. */
function cutList<T>(
  entries: (T & TopEntryCounts)[],
  capacity: number,
  show: number,
  dropBound: number,
  distinct: number,
  key: (e: object) => string,
): TopList<T> {
  order(entries, key);
  let bound = dropBound;
  if (entries.length > capacity) {
    bound += entries[capacity]!.count;
    entries.length = capacity;
  }
  return { capacity, show, exact: bound === 0, dropBound: bound, distinct, entries };
}

/** Smallest `limit` of the union of two sorted lists of strings. */
export function unionSmallest(a: readonly string[], b: readonly string[], limit: number): string[] {
  return [...new Set([...a, ...b])].sort(byteOrder).slice(0, limit);
}

/** Compares strings as UTF-8 bytes (the order examples were chosen in, latin1 views of those bytes). */
export function byteOrder(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

/**
 * The list of two merged reports: counts of the same key added, examples (and `agents`) the smallest of
 * both. Exact when both were and the union fits; each part's bound adds to the other's.
 */
export function mergeTopLists<T extends object>(a: TopList<T>, b: TopList<T>): TopList<T> {
  const byKey = new Map<string, T & TopEntryCounts>();
  let overlap = 0;
  for (const e of [...a.entries, ...b.entries]) {
    const k = keyOfEntry(e);
    const have = byKey.get(k);
    if (have === undefined) {
      byKey.set(k, { ...e, examples: [...e.examples] });
      continue;
    }
    overlap++;
    have.count += e.count;
    have.examples = unionSmallest(have.examples, e.examples, EXAMPLES);
    const ha = (have as { agents?: string[] }).agents;
    const ea = (e as { agents?: string[] }).agents;
    if (ha !== undefined && ea !== undefined) {
      (have as { agents?: string[] }).agents = [...new Set([...ha, ...ea])].sort().slice(0, AGENTS_KEPT);
    }
  }
  const capacity = Math.max(a.capacity, b.capacity);
  const entries = [...byKey.values()];
  const exact = a.exact && b.exact;
  const distinct = exact ? entries.length : a.distinct + b.distinct - overlap;
  return cutList(
    entries,
    capacity,
    Math.max(a.show, b.show),
    a.dropBound + b.dropBound,
    distinct,
    keyOfEntry,
  );
}

/** Agents listed per rule. */
export const AGENTS_KEPT = 5;
