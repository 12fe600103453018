import type { WireVersion } from '../../workers/protocol.js';
import { PolicyCache } from '../cache/policy-cache.js';
import type { Options } from '../options.js';
import type { HistoryProvider } from './history-source.js';
import type { Policy } from './policy.js';
import { wireTime } from './wire-time.js';

export { type HistoryProvider, isHistoryProvider } from './history-source.js';

/**
 * As of a time: every stored version of an origin, oldest first, from the cache alone (the answer must
 * not depend on when the audit runs, so nothing is fetched). The cache file must exist.
 */
export function createHistoryProvider(options: Pick<Options, 'cache'>): HistoryProvider {
  const cache = new PolicyCache(options.cache, { mustExist: true });
  return {
    wireHistory(key: string, evidence: boolean): WireVersion[] {
      const rows = cache.judgedHistory(key);
      const out = new Array<WireVersion>(rows.length);
      for (let v = 0; v < rows.length; v++) {
        const [
          outcome,
          robotsUrl,
          finalUrl,
          status,
          errorCode,
          sha256,
          truncated,
          validFrom,
          fetchedAt,
          source,
          body,
        ] = rows[v]!;
        const parsed = outcome === 'parsed';
        // toWire's fields for the policy `history` makes of the row (source `cache`: statusText's status
        // or error code).
        out[v] = {
          key,
          outcome,
          status: status !== null ? String(status) : (errorCode ?? ''),
          body: parsed ? (body ?? new Uint8Array(0)) : null,
          sha256: parsed ? sha256 : null,
          robotsUrl: evidence ? (finalUrl ?? robotsUrl) : '',
          fetchedAt: evidence ? wireTime(fetchedAt) : '',
          truncated: truncated === 1,
          validFrom,
          lastSeen: fetchedAt,
          source: evidence ? (source ?? 'fetch') : '',
          errorCode: errorCode ?? '',
        };
      }
      return out;
    },
    async get(): Promise<Policy> {
      throw new Error('an as-of run asks for histories, not policies');
    },
    async close() {
      cache.close();
    },
  };
}
