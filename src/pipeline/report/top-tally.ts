import { ownString } from '../../core/bytes.js';
import type { TopEntryCounts, TopList } from './report-model.js';

/** Example URLs kept per entry. */
export const EXAMPLES = 3;
/** Keys a tally counts in memory per entry its list keeps. */
export const HELD_FACTOR = 10;

/** Up to EXAMPLES example URLs with the smallest (hash, text), in that order, in fixed slots. */
export interface ExampleSlots {
  /** The first `kept` of three slots. */
  examples: string[];
  /** exampleHash of each example, in the same order. */
  hashes: number[];
  kept: number;
  /** The largest example hash once EXAMPLES are kept (a URL hashed above it is never kept), else 2^32. */
  cut: number;
}

/** A key counted: `item` is null until the caller that added it first sets it. */
export interface Held<T> extends ExampleSlots {
  item: T | null;
  n: number;
  /** Set when a prune dropped the key: a caller holding the entry must `add` again. */
  dropped: boolean;
}

/** Above every exampleHash. */
const NO_CUT = 2 ** 32;

/** Where a counted row's example URL comes from, read only when the URL may be kept ('' for none). */
export interface ExampleSource {
  example(): string;
}

/** FNV-1a over the bytes of a latin1 view (one char per byte). */
export function exampleHash(latin1: string): number {
  return exampleHashRange(latin1, 0, latin1.length);
}

/** exampleHash of `latin1.slice(start, end)`, without the slice. */
export function exampleHashRange(latin1: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= latin1.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** exampleHash of a text's UTF-8 bytes. */
export function textHash(text: string): number {
  return exampleHash(Buffer.from(text, 'utf8').toString('latin1'));
}

/** Three empty slots (arrays grown by `push` would take 17). */
function emptySlots(): ExampleSlots {
  return { examples: ['', '', ''], hashes: [NO_CUT, NO_CUT, NO_CUT], kept: 0, cut: NO_CUT };
}

/**
 * Keeps `s` (hashed as `h`) among the slots' examples if it is among the EXAMPLES smallest (hash, text) seen:
 * a sample of an entry's URLs that does not depend on the order rows came in, so merged parts keep the
 * whole's examples.
 */
function keepExample(slots: ExampleSlots, s: string, h: number): void {
  const list = slots.examples;
  const hashes = slots.hashes;
  const n = slots.kept;
  let i = n;
  while (i > 0 && (hashes[i - 1]! > h || (hashes[i - 1] === h && list[i - 1]! > s))) i--;
  if (i === EXAMPLES || (i > 0 && hashes[i - 1] === h && list[i - 1] === s)) return;
  for (let j = n < EXAMPLES ? n : EXAMPLES - 1; j > i; j--) {
    list[j] = list[j - 1]!;
    hashes[j] = hashes[j - 1]!;
  }
  // A copy: `s` may be a slice that pins a whole read chunk.
  list[i] = ownString(s);
  hashes[i] = h;
  if (n < EXAMPLES) slots.kept = n + 1;
  if (slots.kept === EXAMPLES) slots.cut = hashes[EXAMPLES - 1]!;
}

/** What a dropped entry holds instead of its examples. */
const DROPPED_EXAMPLES: string[] = [];
const DROPPED_HASHES: number[] = [];

/** The examples of two merged entries: the EXAMPLES of both with the smallest (hash, text). */
export function mergeExamples(a: readonly string[], b: readonly string[]): string[] {
  const slots = emptySlots();
  for (const s of new Set([...a, ...b])) keepExample(slots, s, textHash(s));
  return slots.examples.slice(0, slots.kept);
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
    return this.addHash(key, hash, { example: () => url });
  }

  private entry(key: string): Held<T> {
    let e = this.held.get(key);
    if (e === undefined) {
      if (this.held.size >= 2 * this.heldKeys) this.prune();
      e = { item: null, n: 0, dropped: false, ...emptySlots() };
      this.held.set(ownString(key), e);
      this.inserted++;
    }
    return e;
  }

  /** As `add`, with the example read from `src` only when it may be kept. */
  addHash(key: string, hash: number, src: ExampleSource): Held<T> {
    const e = this.entry(key);
    this.countHash(e, hash, src);
    return e;
  }

  /** As `count`, with the example read from `src` only when it may be kept. */
  countHash(e: Held<T>, hash: number, src: ExampleSource): void {
    e.n++;
    if (hash > e.cut) return;
    const url = src.example();
    if (url !== '') keepExample(e, url, hash);
  }

  /**
   * Keeps the `heldKeys` largest counts, ties kept in insertion order (a stable sort's cut), without
   * sorting the entries themselves.
   */
  private prune(): void {
    const counts = new Float64Array(this.held.size);
    let k = 0;
    for (const e of this.held.values()) counts[k++] = e.n;
    counts.sort();
    const threshold = counts[counts.length - this.heldKeys]!;
    let above = 0;
    for (let i = counts.length - 1; i >= 0 && counts[i]! > threshold; i--) above++;
    let tiesKept = this.heldKeys - above;
    let largest = 0;
    for (const [key, e] of this.held) {
      if (e.n > threshold) continue;
      if (e.n === threshold && tiesKept > 0) {
        tiesKept--;
        continue;
      }
      if (e.n > largest) largest = e.n;
      e.dropped = true;
      // A dropped entry may stay referenced by a caller's memo: keep nothing alive through it.
      e.item = null;
      e.examples = DROPPED_EXAMPLES;
      e.hashes = DROPPED_HASHES;
      e.kept = 0;
      // No hash is below it: nothing is ever written to the shared empty lists.
      e.cut = -1;
      this.held.delete(key);
    }
    this.dropBound += largest;
  }

  /** The list as the report holds it; `decode` turns held strings (latin1 bytes) into text. */
  toList(show: number, finish: (item: T) => T, decode: (s: string) => string): TopList<T> {
    let held = [...this.held.values()];
    let bound = this.dropBound;
    if (held.length > this.capacity) {
      // Only entries counted at least as often as the last one kept can be in the list: the others are
      // never turned into objects nor keyed for the tie order.
      const counts = Float64Array.from(held, (e) => e.n).sort();
      const last = counts[counts.length - this.capacity]!;
      held = held.filter((e) => e.n >= last);
      // cutList adds the count of the first entry it cuts; when the filter left none to cut, that entry
      // is the largest the filter removed.
      if (held.length === this.capacity) bound += counts[counts.length - this.capacity - 1]!;
    }
    const entries: (T & TopEntryCounts)[] = held.map((e) => ({
      ...finish(e.item!),
      count: e.n,
      examples: e.examples.slice(0, e.kept).map(decode),
    }));
    return cutList<T>(entries, this.capacity, show, bound, this.inserted, keyOfEntry);
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
