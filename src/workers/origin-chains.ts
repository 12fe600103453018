import type { OriginEntry } from './origin-entry.js';

/** What tells an origin apart within its host's chain. */
interface SchemePort {
  scheme: string;
  port: number;
}

/**
 * A worker's origin entries by host: one Map entry per host, its origins (other schemes or ports)
 * chained through `next`, so that a row's lookup is one Map probe and mostly one comparison. Keeps the
 * count of entries; which to evict, and when, is the store's.
 */
export class OriginChains {
  private readonly byHost = new Map<string, OriginEntry>();
  /** Entries in every chain. */
  size = 0;

  /** The first entry of a host's chain. */
  head(host: string): OriginEntry | undefined {
    return this.byHost.get(host);
  }

  /** Puts `entry` first in its host's chain (`head`: the chain now), in place of its origin's entry if any. */
  link(entry: OriginEntry, head: OriginEntry | undefined, origin: SchemePort): void {
    entry.next = this.unlinked(head, origin);
    this.byHost.set(entry.host, entry);
    this.size++;
  }

  /** Takes the entry of `origin`, if the chain `head` of `host` has one, out of it. */
  drop(host: string, head: OriginEntry | undefined, origin: SchemePort): void {
    const rest = this.unlinked(head, origin);
    if (rest === head) return;
    if (rest === undefined) this.byHost.delete(host);
    else this.byHost.set(host, rest);
  }

  /** Takes `e` out of its host's chain. */
  remove(e: OriginEntry): void {
    const head = this.byHost.get(e.host);
    if (head === e) {
      if (e.next === undefined) this.byHost.delete(e.host);
      else this.byHost.set(e.host, e.next);
    } else {
      let p = head;
      while (p !== undefined && p.next !== e) p = p.next;
      if (p !== undefined) p.next = e.next;
    }
    this.size--;
  }

  /** Calls `f` with every entry. forEach, not for-of: an iterator result per host was garbage on every pass. */
  forEach(f: (e: OriginEntry) => void): void {
    this.byHost.forEach((head) => {
      for (let e: OriginEntry | undefined = head; e; e = e.next) f(e);
    });
  }

  /** The chain `head` without the entry of this origin, if it has one (one lookup per install). */
  private unlinked(head: OriginEntry | undefined, o: SchemePort): OriginEntry | undefined {
    if (head === undefined) return undefined;
    if (head.port === o.port && head.scheme === o.scheme) {
      this.size--;
      return head.next;
    }
    for (let q = head; q.next !== undefined; q = q.next) {
      if (q.next.port === o.port && q.next.scheme === o.scheme) {
        q.next = q.next.next;
        this.size--;
        break;
      }
    }
    return head;
  }
}

/** The entry of an origin in its host's chain `head`, if any. */
export function inChain(
  head: OriginEntry | undefined,
  scheme: string,
  port: number,
): OriginEntry | undefined {
  let e = head;
  while (e !== undefined && (e.port !== port || e.scheme !== scheme)) e = e.next;
  return e;
}
