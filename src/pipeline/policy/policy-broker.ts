import type { PolicyCode } from '../../core/error-codes.js';
import type { PolicyRequest, PolicyTally, WirePolicy, WireVersion } from '../../workers/protocol.js';
import { type HistoryProvider, isHistoryProvider } from './history-source.js';
import { Lru } from './lru.js';
import type { Origin, Policy, PolicyOutcome, PolicyProvider } from './policy.js';
import { wireTime } from './wire-time.js';

/**
 * Bytes of policy bodies the coordinator keeps (LRU); evicted ones are asked from the provider again.
 * Small: each origin's owner worker asks once and keeps the compiled form, so repeats are rare (a peer
 * adopting a hot origin, an evicted rule set), and every policy kept here is promoted garbage later.
 */
export const BROKER_BODY_BUDGET = 2 * 1024 * 1024;
export const BROKER_MAX_ORIGINS = 100_000;

/** What goes into the robots_status column for a policy. */
export function statusText(p: Policy): string {
  if (p.status !== null) return String(p.status);
  if (p.errorCode !== null) return p.errorCode;
  if (p.source === 'file' || p.source === 'missing') return p.source;
  return '';
}

/**
 * A policy as the workers get it. Without `evidence` it goes without what only evidence columns show (the
 * robots URL, the fetch time): a history's versions are each a copy to send, receive and collect.
 */
export function toWire(key: string, p: Policy, evidence = true): WirePolicy {
  return {
    key,
    outcome: p.outcome,
    status: statusText(p),
    body: p.outcome === 'parsed' ? (p.body ?? new Uint8Array(0)) : null,
    sha256: p.outcome === 'parsed' ? p.sha256 : null,
    robotsUrl: evidence ? (p.finalUrl ?? p.robotsUrl) : '',
    fetchedAt: evidence ? wireTime(p.fetchedAt) : '',
    truncated: p.truncated,
  };
}

export interface BrokerStats {
  /** Provider answers by outcome (an origin evicted and needed again counts again). */
  outcomes: Record<PolicyOutcome, number>;
  /** Provider answers by source (fetch, cache, file, missing, …). */
  sources: Record<string, number>;
  /** Provider failures turned into unreachable policies, by code. */
  failures: Record<string, number>;
  /** Unreachable answers by cause: the error code (`ERR_DNS`, …), or `HTTP <status>` for a 5xx or 429. */
  unreachableBy: Record<string, number>;
  resolved: number;
  inFlight: number;
  /** Wall milliseconds during which at least one provider call was in flight. */
  fetchMs: number;
}

/**
 * The coordinator's side of policies: answers worker requests from a bounded LRU, asks the provider
 * once per origin at a time (single flight), and never lets a provider failure stop the run.
 */
export class PolicyBroker {
  private readonly cache: Lru<WirePolicy> | null;
  private readonly pending = new Map<string, Promise<WirePolicy>>();
  private busySince = 0;
  readonly stats: BrokerStats = {
    outcomes: { parsed: 0, unavailable: 0, unreachable: 0, not_cached: 0 },
    sources: {},
    failures: {},
    unreachableBy: {},
    resolved: 0,
    inFlight: 0,
    fetchMs: 0,
  };

  /**
   * `keep`: whether answers are kept for repeats (BROKER_BODY_BUDGET). A provider that reads the local
   * cache file answers a repeat with one indexed read: kept copies would only be promoted garbage (a
   * run as of a time held ≈ 15 MiB more for them). `evidence`: whether rows show where their policy came
   * from; without, a version goes to the workers without its URL, fetch time and source.
   */
  constructor(
    private readonly provider: PolicyProvider,
    keep = true,
    private readonly evidence = true,
  ) {
    this.cache = keep ? new Lru<WirePolicy>(BROKER_BODY_BUDGET, BROKER_MAX_ORIGINS) : null;
  }

  /** Counts policy files the workers read themselves (`--robots-dir`), as if they had come through here. */
  addTally(t: PolicyTally | null): void {
    if (t === null) return;
    const s = this.stats;
    s.resolved += t.resolved;
    s.outcomes.parsed += t.parsed;
    s.outcomes.unavailable += t.unavailable;
    s.outcomes.unreachable += t.unreachable;
    // A robots-dir origin is unreachable only when its file exists but cannot be read.
    if (t.unreachable > 0) this.countUnreachable('ERR_ROBOTS_FILE', t.unreachable);
    if (t.file > 0) s.sources.file = (s.sources.file ?? 0) + t.file;
    if (t.missing > 0) s.sources.missing = (s.sources.missing ?? 0) + t.missing;
    s.fetchMs += t.ms;
  }

  private countUnreachable(cause: string, n = 1): void {
    const by = this.stats.unreachableBy;
    by[cause] = (by[cause] ?? 0) + n;
  }

  resolve(req: PolicyRequest): Promise<WirePolicy[]> {
    const p = this.provider;
    if (isHistoryProvider(p)) {
      // Read at once from a local file: no promise, nor version object to convert, per origin.
      const out = new Array<WirePolicy>(req.keys.length);
      for (let i = 0; i < out.length; i++) out[i] = this.readHistory(p, req.keys[i]!);
      return Promise.resolve(out);
    }
    return Promise.all(req.keys.map((key, i) => this.one(key, req.origins[i]!)));
  }

  /** `fetch` for a provider of histories, read at once (HistoryProvider's `wireHistory`). */
  private readHistory(provider: HistoryProvider, key: string): WirePolicy {
    const hit = this.cache?.get(key);
    if (hit !== undefined) return hit;
    const s = this.stats;
    const t0 = performance.now();
    let wire: WirePolicy;
    try {
      wire = this.historyWire(key, provider.wireHistory(key, this.evidence));
    } catch (err) {
      wire = this.failed(key, err);
    }
    s.fetchMs += performance.now() - t0;
    this.keep(key, wire);
    return wire;
  }

  private one(key: string, origin: Origin): Promise<WirePolicy> {
    const hit = this.cache?.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.pending.get(key);
    if (p === undefined) {
      p = this.fetch(key, origin);
      this.pending.set(key, p);
    }
    return p;
  }

  private async fetch(key: string, origin: Origin): Promise<WirePolicy> {
    const s = this.stats;
    if (s.inFlight++ === 0) this.busySince = performance.now();
    let wire: WirePolicy;
    try {
      wire = await this.policy(key, origin);
    } catch (err) {
      wire = this.failed(key, err);
    } finally {
      if (--s.inFlight === 0) s.fetchMs += performance.now() - this.busySince;
      this.pending.delete(key);
    }
    this.keep(key, wire);
    return wire;
  }

  /** Counts an answer, and keeps it for repeats when answers are kept. */
  private keep(key: string, wire: WirePolicy): void {
    this.stats.resolved++;
    if (this.cache !== null) {
      let bytes = 256 + (wire.body?.length ?? 0);
      for (const v of wire.history ?? []) bytes += 256 + (v.body?.length ?? 0);
      this.cache.set(key, wire, bytes);
    }
  }

  /** A provider failure, counted and turned into an unreachable policy: it never stops the run. */
  private failed(key: string, err: unknown): WirePolicy {
    const s = this.stats;
    const uncoded: PolicyCode = 'ERR_PROVIDER';
    const code =
      typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : uncoded;
    s.failures[code] = (s.failures[code] ?? 0) + 1;
    s.outcomes.unreachable++;
    this.countUnreachable(code);
    return {
      key,
      outcome: 'unreachable',
      status: code,
      body: null,
      sha256: null,
      robotsUrl: `${key}/robots.txt`,
      fetchedAt: new Date().toISOString(),
      truncated: false,
      // As of a time the workers judge by histories only: a failed read leaves none.
      history: isHistoryProvider(this.provider) ? [] : undefined,
    };
  }

  private async policy(key: string, origin: Origin): Promise<WirePolicy> {
    const s = this.stats;
    const policy = await this.provider.get(origin);
    s.outcomes[policy.outcome]++;
    s.sources[policy.source] = (s.sources[policy.source] ?? 0) + 1;
    if (policy.outcome === 'unreachable') {
      this.countUnreachable(
        policy.errorCode ?? (policy.status === null ? 'unknown' : `HTTP ${policy.status}`),
      );
    }
    return toWire(key, policy);
  }

  /** The policy carrying an origin's stored versions, oldest first (counted by whether it has any). */
  private historyWire(key: string, history: WireVersion[]): WirePolicy {
    const source = history.length > 0 ? 'history' : 'none';
    this.stats.sources[source] = (this.stats.sources[source] ?? 0) + 1;
    // Bodies sent so far (a few per origin: an array, not a set).
    const sent: string[] = [];
    for (const w of history) {
      // A body seen in an earlier version (a change reverted) is compiled from that one: sent once.
      if (w.sha256 !== null && w.body !== null) {
        if (sent.includes(w.sha256)) w.body = null;
        else sent.push(w.sha256);
      }
    }
    const last = history.at(-1);
    // The origin's own entry matches nothing (its versions do): its body would only be copied.
    if (last !== undefined) {
      const { outcome, status, sha256, robotsUrl, fetchedAt, truncated } = last;
      return { key, outcome, status, body: null, sha256, robotsUrl, fetchedAt, truncated, history };
    }
    return {
      key,
      outcome: 'not_cached',
      status: '',
      body: null,
      sha256: null,
      robotsUrl: `${key}/robots.txt`,
      fetchedAt: '',
      truncated: false,
      history,
    };
  }
}
