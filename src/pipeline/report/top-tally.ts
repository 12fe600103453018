import { ownString } from '../../core/bytes.js';
import type { TopEntryCounts, TopList } from './report-model.js';

/** Example URLs kept per entry. */
export const EXAMPLES = 3;
/** Keys a tally counts in memory per entry its list keeps. */
export const HELD_FACTOR = 10;

/** A key counted: `item` is null until the caller that added it first sets it. */
export interface Held<T> {
  item: T | null;
  n: number;
  examples: string[];
  /** exampleHash of each example, in the same order. */
  hashes: number[];
  /** Set when a prune dropped the key: a caller holding the entry must `add` again. */
  dropped: boolean;
}

/** FNV-1a over the bytes of a latin1 view (one char per byte). */
export function exampleHash(latin1: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < latin1.length; i++) {
    h ^= latin1.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** exampleHash of a text's UTF-8 bytes. */
export function textHash(text: string): number {
  return exampleHash(Buffer.from(text, 'utf8').toString('latin1'));
}

/**
 * Keeps `s` among the `EXAMPLES` strings of `list` with the smallest (hash, string): a sample of the
 * entry's URLs that does not depend on the order rows came in, so merged parts keep the whole's examples.
 */
export function keepExample(list: string[], hashes: number[], s: string, h: number): void {
  const n = hashes.length;
  if (n === EXAMPLES && h > hashes[n - 1]!) return;
  let i = n;
  while (i > 0 && (hashes[i - 1]! > h || (hashes[i - 1] === h && list[i - 1]! > s))) i--;
  if (i > 0 && hashes[i - 1] === h && list[i - 1] === s) return;
  if (i === EXAMPLES) return;
  // A copy: `s` may be a slice that pins a whole read chunk.
  list.splice(i, 0, ownString(s));
  hashes.splice(i, 0, h);
  if (n + 1 > EXAMPLES) {
    list.pop();
    hashes.pop();
  }
}

/** The examples of two merged entries: the EXAMPLES of both with the smallest (hash, text). */
export function mergeExamples(a: readonly string[], b: readonly string[]): string[] {
  const list: string[] = [];
  const hashes: number[] = [];
  for (const s of new Set([...a, ...b])) keepExample(list, hashes, s, textHash(s));
  return list;
}

/**
 * Counts keys with their example URLs in bounded memory. Past 2×held keys, all but the largest
 * `held` are dropped; a dropped key seen again starts over, so its count is low by at most the sum,
 * over prunes, of the largest count each dropped (`dropBound`, 0 while nothing was dropped).
 */
export class TopTally<T> {
  private readonly held = new Map<string, Held<T>>();
  dropBound = 0;
  /** Keys inserted (a dropped key seen again counts again). */
  inserted = 0;

  /**
   * `capacity`: entries the list keeps; `held`: keys counted in memory (more than the list keeps, so that
   * keys near the cut are counted exactly more often).
   */
  constructor(
    readonly capacity: number,
    private readonly heldKeys = capacity * HELD_FACTOR,
  ) {}

  /**
   * Adds 1 to `key` with `url` (hashed as `hash`, '' for none) as a candidate example; returns its entry,
   * whose `item` is null when the key is new (the caller sets it: no closure made per call).
   */
  add(key: string, url: string, hash: number): Held<T> {
    let e = this.held.get(key);
    if (e === undefined) {
      if (this.held.size >= 2 * this.heldKeys) this.prune();
      e = { item: null, n: 0, examples: [], hashes: [], dropped: false };
      this.held.set(ownString(key), e);
      this.inserted++;
    }
    this.count(e, url, hash);
    return e;
  }

  /** Adds 1 to an entry `add` returned and no prune has dropped since, without looking its key up again. */
  count(e: Held<T>, url: string, hash: number): void {
    e.n++;
    if (url !== '') keepExample(e.examples, e.hashes, url, hash);
  }

  private prune(): void {
    const sorted = [...this.held.entries()].sort((a, b) => b[1].n - a[1].n);
    let largest = 0;
    for (let i = this.heldKeys; i < sorted.length; i++) {
      const [key, e] = sorted[i]!;
      if (e.n > largest) largest = e.n;
      e.dropped = true;
      this.held.delete(key);
    }
    this.dropBound += largest;
  }

  /** The list as the report holds it; `decode` turns held strings (latin1 bytes) into text. */
  toList(show: number, finish: (item: T) => T, decode: (s: string) => string): TopList<T> {
    const entries: (T & TopEntryCounts)[] = [...this.held.values()].map((e) => ({
      ...finish(e.item!),
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
    have.examples = mergeExamples(have.examples, e.examples);
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
