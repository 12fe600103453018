/**
 * The live provider: single flight per origin, the global concurrency limit, fresh cache hits without
 * network, conditional revalidation (304 renews), history of versions, and stale-if-unreachable.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { PolicyCache } from '../../../src/pipeline/cache/policy-cache.js';
import {
  createLivePolicyProvider,
  type FetchEvent,
} from '../../../src/pipeline/fetch/live-policy-provider.js';
import type { Options } from '../../../src/pipeline/options.js';
import { ok } from '../../helpers/multi-host-server.js';
import { at, FAST, liveOptions, sha256, useServerAndTempDir } from './harness.js';

const env = useServerAndTempDir();
let cachePath: string;
let n = 0;
const DAY = 24 * 3600 * 1000;

beforeEach(() => {
  cachePath = join(env.tmp.dir, `c${++n}.sqlite`);
  env.srv.resetCounts();
});

/** One "run": a provider over the shared cache file, closed afterwards. */
async function run(hosts: string[], extra: Partial<Options> = {}, events: FetchEvent[] = []) {
  const provider = createLivePolicyProvider(liveOptions(env.srv, cachePath, extra), {
    ...FAST,
    onEvent: (e) => events.push(e),
  });
  try {
    const policies = await Promise.all(hosts.map((h) => provider.get(at(env.srv, h))));
    return { policies, stats: provider.stats() };
  } finally {
    await provider.close();
  }
}

/** Ages every stored version by `ms`, as if the last run happened that long ago. */
function age(ms: number): void {
  const db = new Database(cachePath);
  db.prepare(
    'UPDATE versions SET fetched_at = fetched_at - ?, expires_at = expires_at - ?, valid_from = valid_from - ?',
  ).run(ms, ms, ms);
  db.prepare('UPDATE versions SET valid_to = valid_to - ? WHERE valid_to IS NOT NULL').run(ms);
  db.close();
}

function history(origin: string) {
  const cache = new PolicyCache(cachePath);
  try {
    return cache.history(origin);
  } finally {
    cache.close();
  }
}

describe('single flight and the concurrency limit', () => {
  it('each origin is fetched exactly once however many rows name it', async () => {
    const hosts = Array.from({ length: 300 }, (_, i) => `sf${i}.test`);
    for (const h of hosts)
      env.srv.set(h, { kind: 'respond', body: `User-agent: *\nDisallow: /${h}\n`, delayMs: 5 });
    const rows = Array.from({ length: 3000 }, (_, i) => hosts[(i * 7919) % hosts.length]!);
    const { policies, stats } = await run(rows, { concurrency: 16 });
    for (const h of hosts) expect(env.srv.hits(h)).toBe(1);
    expect(env.srv.totalHits()).toBe(300);
    expect(policies.every((p) => p.outcome === 'parsed')).toBe(true);
    expect(policies[0]!.sha256).toBe(sha256(`User-agent: *\nDisallow: /${rows[0]}\n`));
    expect(stats).toMatchObject({ answered: 3000, fetched: 300 });
  });

  it('never more fetches in flight than --concurrency', async () => {
    const hosts = Array.from({ length: 60 }, (_, i) => `cc${i}.test`);
    for (const h of hosts) env.srv.set(h, { kind: 'respond', body: 'User-agent: *\n', delayMs: 40 });
    await run(hosts, { concurrency: 7 });
    expect(env.srv.peakConcurrency()).toBe(7);
  });

  it('a second run answers from the fresh cache without any request', async () => {
    env.srv.set('warm.test', ok('User-agent: *\nDisallow: /w\n'));
    await run(['warm.test']);
    env.srv.resetCounts();
    const { policies, stats } = await run(['warm.test', 'warm.test']);
    expect(env.srv.hits('warm.test')).toBe(0);
    expect(policies[0]).toMatchObject({
      outcome: 'parsed',
      source: 'cache',
      sha256: sha256('User-agent: *\nDisallow: /w\n'),
    });
    expect(stats).toMatchObject({ fetched: 0, bySource: { cache: 2 } });
  });

  it('with --max-age 0, an origin is still fetched once per run', async () => {
    env.srv.set('zero.test', ok('User-agent: *\n'));
    const provider = createLivePolicyProvider(liveOptions(env.srv, cachePath, { maxAge: 0 }), FAST);
    await provider.get(at(env.srv, 'zero.test'));
    const again = await provider.get(at(env.srv, 'zero.test'));
    await provider.close();
    expect(again.source).toBe('cache');
    expect(env.srv.hits('zero.test')).toBe(1);
  });
});

describe('expiry and revalidation', () => {
  it('an entry older than --max-age is fetched again', async () => {
    env.srv.set('old.test', ok('User-agent: *\n'));
    await run(['old.test']);
    age(2 * 3600 * 1000);
    const { policies } = await run(['old.test'], { maxAge: 3600 });
    expect(env.srv.hits('old.test')).toBe(2);
    expect(policies[0]!.source).toBe('fetch');
  });

  it('sends If-None-Match / If-Modified-Since; a 304 renews the cached copy', async () => {
    const body = 'User-agent: *\nDisallow: /etag\n';
    const lastModified = 'Wed, 21 Oct 2015 07:28:00 GMT';
    env.srv.set('etag.test', { kind: 'conditional', body, etag: '"abc"', lastModified });
    const first = (await run(['etag.test'])).policies[0]!;
    expect(first).toMatchObject({ source: 'fetch', status: 200, etag: '"abc"', lastModified });
    age(DAY + 1000);
    const second = (await run(['etag.test'])).policies[0]!;
    const [, req] = env.srv.requests('etag.test');
    expect(req!.headers['if-none-match']).toBe('"abc"');
    expect(req!.headers['if-modified-since']).toBe(lastModified);
    expect(second).toMatchObject({
      outcome: 'parsed',
      source: 'revalidated',
      status: 304,
      sha256: sha256(body),
      bytes: body.length,
    });
    expect(Buffer.from(second.body!).toString()).toBe(body);
    expect(second.fetchedAt).toBeGreaterThan(first.fetchedAt - DAY);
    const versions = history(second.origin);
    expect(versions).toHaveLength(1);
    expect(versions[0]!.fetchedAt).toBe(second.fetchedAt);
    expect(versions[0]!.validTo).toBeNull();
  });

  it('a changed body starts a new version; the old one keeps the span it was in force', async () => {
    env.srv.set('change.test', ok('User-agent: *\nDisallow: /v1\n'));
    const v1 = (await run(['change.test'])).policies[0]!;
    age(DAY + 1000);
    env.srv.set('change.test', ok('User-agent: *\nDisallow: /v2\n'));
    const v2 = (await run(['change.test'])).policies[0]!;
    expect(v2).toMatchObject({ source: 'fetch', sha256: sha256('User-agent: *\nDisallow: /v2\n') });
    const versions = history(v2.origin);
    expect(versions.map((v) => v.sha256)).toEqual([v1.sha256, v2.sha256]);
    expect(versions[0]!.validFrom).toBe(v1.fetchedAt - DAY - 1000);
    expect(versions[0]!.validTo).toBe(v2.fetchedAt);
    expect(versions[1]).toMatchObject({ validFrom: v2.fetchedAt, validTo: null });
  });

  it('the same body again only confirms the version (no new history row)', async () => {
    env.srv.set('same.test', ok('User-agent: *\n'));
    await run(['same.test']);
    age(DAY + 1000);
    const again = (await run(['same.test'])).policies[0]!;
    const versions = history(again.origin);
    expect(versions).toHaveLength(1);
    expect(versions[0]!.fetchedAt).toBe(again.fetchedAt);
  });
});

describe('stale if unreachable', () => {
  it('an unreachable origin with a parsed copy younger than 30 days answers with that copy, marked stale', async () => {
    const body = 'User-agent: *\nDisallow: /kept\n';
    env.srv.set('down.test', ok(body));
    const good = (await run(['down.test'])).policies[0]!;
    age(10 * DAY);
    env.srv.set('down.test', { kind: 'respond', status: 503 });
    const stale = (await run(['down.test'])).policies[0]!;
    expect(stale).toMatchObject({
      outcome: 'parsed',
      source: 'stale',
      stale: true,
      sha256: sha256(body),
      fetchedAt: good.fetchedAt - 10 * DAY,
      staleCause: { status: 503, errorCode: null },
    });
    // The failure is recorded as the version now in force; the parsed one is history.
    const versions = history(stale.origin);
    expect(versions.map((v) => v.outcome)).toEqual(['parsed', 'unreachable']);
    // A run within max-age answers the same from the cache, without a request.
    env.srv.resetCounts();
    const cached = (await run(['down.test'])).policies[0]!;
    expect(env.srv.hits('down.test')).toBe(0);
    expect(cached).toMatchObject({ source: 'stale', stale: true, sha256: sha256(body) });
  });

  it('a network failure is stale too, with its error code as the cause', async () => {
    env.srv.set('gone.test', ok('User-agent: *\n'));
    await run(['gone.test']);
    age(2 * DAY);
    env.srv.set('gone.test', { kind: 'close-without-response' });
    const p = (await run(['gone.test'])).policies[0]!;
    expect(p).toMatchObject({
      source: 'stale',
      staleCause: { status: null, errorCode: 'ERR_CONNECTION_CLOSED' },
    });
  });

  it('a parsed copy older than 30 days is not used: unreachable', async () => {
    env.srv.set('ancient.test', ok('User-agent: *\n'));
    await run(['ancient.test']);
    age(31 * DAY);
    env.srv.set('ancient.test', { kind: 'respond', status: 500 });
    const p = (await run(['ancient.test'])).policies[0]!;
    expect(p).toMatchObject({
      outcome: 'unreachable',
      source: 'fetch',
      stale: false,
      status: 500,
      body: null,
    });
  });

  it('an unavailable (4xx) answer is not stale: it replaces the copy', async () => {
    env.srv.set('removed.test', ok('User-agent: *\nDisallow: /\n'));
    await run(['removed.test']);
    age(2 * DAY);
    env.srv.set('removed.test', { kind: 'respond', status: 404 });
    const p = (await run(['removed.test'])).policies[0]!;
    expect(p).toMatchObject({ outcome: 'unavailable', source: 'fetch', status: 404, stale: false });
  });
});

describe('events', () => {
  it('reports fetch, retry and policy events', async () => {
    env.srv.set('ev.test', {
      kind: 'sequence',
      steps: [{ kind: 'respond', status: 502 }, ok('User-agent: *\n')],
    });
    const events: FetchEvent[] = [];
    await run(['ev.test'], { retries: 1 }, events);
    expect(events.map((e) => e.type)).toEqual(['fetch', 'retry', 'policy']);
    expect(events[1]).toMatchObject({ type: 'retry', attempt: 1, status: 502 });
    expect(events[2]).toMatchObject({ type: 'policy', attempts: 2 });
  });
});
