import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHistoryProvider } from '../../../src/pipeline/policy/history-provider.js';
import type { Origin, Policy, PolicyProvider } from '../../../src/pipeline/policy/policy.js';
import { PolicyBroker, statusText } from '../../../src/pipeline/policy/policy-broker.js';
import { createDirPolicyProvider } from '../../../src/pipeline/policy/robots-dir-provider.js';
import type { WireVersion } from '../../../src/workers/protocol.js';
import { robotsDir } from '../../workers/classify-fixtures.js';
import { observation, seedCache } from '../cache/cache-fixtures.js';

const dir = robotsDir({ 'a.example.txt': 'User-agent: *\nDisallow: /\n' });
const a: Origin = { scheme: 'https', host: 'a.example', port: 443 };

/** The real directory provider, counting calls and optionally failing for one host. */
function counted(failHost?: string) {
  const inner = createDirPolicyProvider(dir);
  const calls: string[] = [];
  const provider: PolicyProvider = {
    async get(o) {
      calls.push(o.host);
      await new Promise((r) => setTimeout(r, 5));
      if (o.host === failHost) throw Object.assign(new Error('disk on fire'), { code: 'ERR_TEST' });
      return inner.get(o);
    },
    close: () => inner.close(),
  };
  return { provider, calls };
}

describe('PolicyBroker', () => {
  it('asks the provider once per origin however many requests name it at once (single flight)', async () => {
    const { provider, calls } = counted();
    const b = new PolicyBroker(provider);
    const req = { keys: ['https://a.example'], origins: [a] };
    const [x, y] = await Promise.all([b.resolve(req), b.resolve(req)]);
    expect(calls).toEqual(['a.example']);
    expect(x[0]).toBe(y[0]);
    expect(x[0]!.outcome).toBe('parsed');
    await b.resolve(req);
    expect(calls).toHaveLength(1);
    expect(b.stats.outcomes.parsed).toBe(1);
    expect(b.stats.sources).toEqual({ file: 1 });
  });

  it('keeps no answers for repeats when told not to (a provider of the local cache file), still one flight at a time', async () => {
    const { provider, calls } = counted();
    const b = new PolicyBroker(provider, false);
    const req = { keys: ['https://a.example'], origins: [a] };
    const [x, y] = await Promise.all([b.resolve(req), b.resolve(req)]);
    expect(x[0]).toBe(y[0]);
    expect(calls).toEqual(['a.example']);
    await b.resolve(req);
    expect(calls).toEqual(['a.example', 'a.example']);
  });

  it('turns a provider failure into an unreachable policy with the error code', async () => {
    const { provider } = counted('bad.example');
    const b = new PolicyBroker(provider);
    const [w] = await b.resolve({ keys: ['https://bad.example'], origins: [{ ...a, host: 'bad.example' }] });
    expect([w!.outcome, w!.status]).toEqual(['unreachable', 'ERR_TEST']);
    expect(b.stats.failures).toEqual({ ERR_TEST: 1 });
  });

  it("sends a cache's histories as the workers judge them, with URL, fetch time and source only when rows show evidence", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'broker-')), 'cache.sqlite');
    const o = 'https://h.example';
    // Parsed, reverted (a body sent once), redirected elsewhere, unreachable with no status, a 404.
    seedCache(path, [
      observation(o, 'User-agent: *\nDisallow: /a\n', 1_000, {
        finalUrl: 'https://www.h.example/robots.txt',
      }),
      observation(o, 'User-agent: *\nDisallow: /b\n', 2_000),
      // Seen again: the same version, last seen later than first.
      observation(o, 'User-agent: *\nDisallow: /b\n', 2_500),
      observation(o, 'User-agent: *\nDisallow: /a\n', 3_000),
      observation(o, null, 4_000, { status: null, errorCode: 'ERR_DNS' }),
      observation(o, null, 5_000, { outcome: 'unavailable', status: 404 }),
    ]);
    const cache = createHistoryProvider({ cache: path });
    const req = {
      keys: [o, 'https://none.example'],
      origins: [
        { ...a, host: 'h.example' },
        { ...a, host: 'none.example' },
      ],
    };
    const [withEvidence, without] = [
      await new PolicyBroker(cache, false, true).resolve(req),
      await new PolicyBroker(cache, false, false).resolve(req),
    ];
    for (const sent of [withEvidence, without]) {
      expect(sent[0]!.history!.map((v) => [v.status, v.body === null])).toEqual([
        ['200', false],
        ['200', false],
        ['200', true],
        ['ERR_DNS', true],
        ['404', true],
      ]);
      expect(sent[1]!.history).toEqual([]);
    }
    const [shown, again] = withEvidence[0]!.history!;
    expect([shown!.robotsUrl, shown!.source]).toEqual(['https://www.h.example/robots.txt', 'fetch']);
    expect(shown!.fetchedAt).not.toBe('');
    expect([again!.validFrom, again!.lastSeen]).toEqual([2_000, 2_500]);
    const hidden = without[0]!.history![0]!;
    expect([hidden.source, hidden.robotsUrl, hidden.fetchedAt]).toEqual(['', '', '']);
    // What rows are judged by is the same either way.
    const judged = (v: WireVersion) => [
      v.outcome,
      v.status,
      v.sha256,
      v.validFrom,
      v.lastSeen,
      v.errorCode,
      v.body,
    ];
    expect(without[0]!.history!.map(judged)).toEqual(withEvidence[0]!.history!.map(judged));
    await cache.close();
  });

  it('writes robots_status as the HTTP status, else the error code, else file/missing', () => {
    const base = { status: null, errorCode: null, source: 'fetch' } as unknown as Policy;
    expect(statusText({ ...base, status: 503 })).toBe('503');
    expect(statusText({ ...base, errorCode: 'ERR_DNS' })).toBe('ERR_DNS');
    expect(statusText({ ...base, source: 'missing' })).toBe('missing');
    expect(statusText({ ...base, source: 'none' })).toBe('');
  });
});
