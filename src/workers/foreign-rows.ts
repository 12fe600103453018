import type { CompiledRules } from '../core/index.js';
import { keyOf, type Origin, type RowSlot } from '../rows/row-url.js';
import { type AsOfCounts, AsOfTally } from './as-of-tally.js';
import { installPending } from './install-pending.js';
import { matchRow } from './match-row.js';
import type { OriginEntry, OriginStore } from './origin-store.js';
import type { NeededOrigin, PolicyInstaller } from './policy-installer.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';

/**
 * Origin affinity between workers: every origin has one owner thread (a hash of its host's site), which alone
 * fetches its policy and compiles its rules. A worker sends the rows of origins it does not own to
 * their owner and gets back the text to append and the verdict classes.
 */

/**
 * Where the part of a host that names its site begins (an approximation of the registrable domain: the
 * last two labels, or three under a two-letter country code whose second level is short, as `co.uk`);
 * 0 for IP literals and one-label hosts. Only for spreading work: a wrong guess costs balance, not
 * correctness.
 */
export function siteStart(host: string): number {
  // A fully qualified name's final dot is not a label.
  const end = host.charCodeAt(host.length - 1) === 46 ? host.length - 1 : host.length;
  const last = host.lastIndexOf('.', end - 1);
  if (last <= 0) return 0;
  const c = host.charCodeAt(end - 1);
  // IPv4 ends with a digit (no TLD does), IPv6 literals with `]`.
  if ((c >= 48 && c <= 57) || c === 93) return 0;
  const second = host.lastIndexOf('.', last - 1);
  if (second < 0) return 0;
  if (end - last - 1 === 2 && last - second - 1 <= 3) {
    const third = host.lastIndexOf('.', second - 1);
    return third < 0 ? 0 : third + 1;
  }
  return second + 1;
}

/**
 * The worker that owns a host: FNV-1a of its site (see siteStart), modulo the number of workers. The
 * names of one site (`www.`, `m.`, a platform's subdomains) mostly serve the same few robots.txt bodies,
 * so one thread compiles and holds each of those bodies, instead of every thread.
 */
export function ownerOf(host: string, threads: number): number {
  let h = 0x811c9dc5;
  for (let i = siteStart(host); i < host.length; i++) {
    h ^= host.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % threads;
}

/**
 * Rows sent to an owner, in compact form: hosts and paths joined by NUL (neither can contain one:
 * WHATWG hosts forbid it and pathFromUrl ends a path there), schemes (0 http, 1 https) and ports;
 * as of a time, each row's time (epoch ms), else null.
 */
export interface ForeignRequest {
  hosts: string;
  paths: string;
  schemes: Uint8Array;
  ports: Uint16Array;
  times: Float64Array | null;
}

export interface ForeignResponse {
  /** The appended texts of all rows, concatenated; `lens` says where each ends. */
  suffixes: string;
  lens: Int32Array;
  /** Verdict class per row and agent (row-major). */
  classes: Uint8Array;
  /** Hot origins the requester should judge itself from now on (their policy is shared, not moved). */
  adopt: { keys: string[]; origins: Origin[] };
  /** As of a time: what the rows' times picked, for the requester's batch figures. */
  asOf: AsOfCounts | null;
}

/**
 * Rows of one origin answered for peers before the owner tells them to adopt it: with Zipf-like logs a
 * few hundred hot hosts carry half the rows, and judging them locally in every worker saves the
 * messages and keeps the workers' loads even. Cold origins stay with their owner only.
 */
export const ADOPT_AFTER_ROWS = 1024;

/** Requester side: the rows of one batch that go to one owner. */
export class ForeignRows {
  private readonly hosts: string[] = [];
  private readonly paths: string[] = [];
  private readonly schemes: number[] = [];
  private readonly ports: number[] = [];
  /** As of a time: each row's time; null otherwise. */
  private readonly times: number[] | null;

  constructor(timed: boolean) {
    this.times = timed ? [] : null;
  }

  /** `time`: the row's time as of-time runs judge it by (ignored otherwise). */
  add(slot: RowSlot, time: number): void {
    this.hosts.push(slot.host);
    this.paths.push(slot.path);
    this.schemes.push(slot.scheme === 'https' ? 1 : 0);
    this.ports.push(slot.port);
    this.times?.push(time);
  }

  get size(): number {
    return this.hosts.length;
  }

  request(): ForeignRequest {
    return {
      hosts: this.hosts.join('\0'),
      paths: this.paths.join('\0'),
      schemes: Uint8Array.from(this.schemes),
      ports: Uint16Array.from(this.ports),
      times: this.times === null ? null : Float64Array.from(this.times),
    };
  }
}

/** The rows of a request, with the entries this worker has and the origins it must install. */
interface ForeignLookup {
  paths: string[];
  entries: (OriginEntry | undefined)[];
  /** Per row, the key of an origin to install, or null. */
  keys: (string | null)[];
  need: Map<string, NeededOrigin>;
  /** As of a time: the rows' times and what they picked. */
  times: Float64Array | null;
  /** As of a time: each row's rules in its entry when not the entry's own (Pick's `rules`). */
  views: (CompiledRules[] | null)[] | null;
  asOf: AsOfTally | null;
}

/**
 * Owner side: judges rows another worker sent. `stamp` must be active for the whole call. The two
 * synchronous halves are separate functions: a rare branch taken late recompiles one of them, not all.
 */
export async function answerForeign(
  req: ForeignRequest,
  store: OriginStore,
  installer: PolicyInstaller,
  agents: number,
  stamp: number,
  fetchPolicies: (r: PolicyRequest) => Promise<WirePolicy[]>,
): Promise<ForeignResponse> {
  const look = lookUp(req, store, stamp);
  if (look.need.size > 0)
    await installPending(installer, store, look, look.keys.length, stamp, fetchPolicies);
  return judgeAll(look, store, agents);
}

function lookUp(req: ForeignRequest, store: OriginStore, stamp: number): ForeignLookup {
  const hosts = req.hosts.split('\0');
  const n = hosts.length;
  const look: ForeignLookup = {
    paths: req.paths.split('\0'),
    entries: new Array(n),
    keys: new Array(n).fill(null),
    need: new Map(),
    times: req.times,
    views: req.times === null ? null : new Array<CompiledRules[] | null>(n).fill(null),
    asOf: req.times === null ? null : new AsOfTally(),
  };
  const { times, views, asOf } = look;
  for (let r = 0; r < n; r++) {
    const scheme = req.schemes[r] === 1 ? 'https' : 'http';
    let e = store.find(scheme, hosts[r]!, req.ports[r]!, stamp);
    // As of a time: the version in force at the row's time (undefined: ask for the origin again).
    if (e !== undefined && asOf !== null) e = asOf.entryAt(store, e, times![r]!, stamp, views!, r);
    if (e === undefined) e = store.probeMissing(scheme, hosts[r]!, req.ports[r]!);
    if (e !== undefined) look.entries[r] = e;
    else {
      const origin: NeededOrigin = { scheme, host: hosts[r]!, port: req.ports[r]!, entry: null };
      const key = keyOf(origin);
      look.keys[r] = key;
      if (!look.need.has(key)) look.need.set(key, origin);
    }
  }
  return look;
}

function judgeAll(look: ForeignLookup, store: OriginStore, agents: number): ForeignResponse {
  const { entries, paths, times, views } = look;
  const n = entries.length;
  const lens = new Int32Array(n);
  const classes = new Uint8Array(n * agents);
  const pieces: string[] = [];
  const adopt: ForeignResponse['adopt'] = { keys: [], origins: [] };
  for (let r = 0; r < n; r++) {
    const e = entries[r]!;
    const s = matchRow(
      store,
      e,
      paths[r]!,
      agents,
      classes,
      r * agents,
      times === null ? Number.NaN : times[r]!,
      views === null ? null : views[r]!,
    );
    pieces.push(s);
    lens[r] = s.length;
    if (!e.shared && ++e.served === ADOPT_AFTER_ROWS) {
      adopt.keys.push(e.key);
      adopt.origins.push({ scheme: e.scheme, host: e.host, port: e.port });
    }
  }
  return { suffixes: pieces.join(''), lens, classes, adopt, asOf: look.asOf?.counts() ?? null };
}
