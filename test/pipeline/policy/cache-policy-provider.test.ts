/** `--offline`: answers from the cache only; never touches the network. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../../src/pipeline/cache/cache-types.js';
import { resolveOptions } from '../../../src/pipeline/options.js';
import { createCachePolicyProvider } from '../../../src/pipeline/policy/cache-policy-provider.js';
import { observation, seedCache } from '../cache/cache-fixtures.js';
import { sha256, tempDir } from '../fetch/harness.js';

let tmp: ReturnType<typeof tempDir>;
let path: string;
const DAY = 24 * 3600 * 1000;
const now = Date.now();

beforeEach(() => {
  tmp = tempDir();
  path = join(tmp.dir, 'cache.sqlite');
});
afterEach(() => tmp.cleanup());

function seed(list: Observation[]): void {
  seedCache(path, list);
}

function obs(host: string, body: string | null, at: number, status = body === null ? 503 : 200): Observation {
  const outcome =
    body === null ? (status >= 500 || status === 429 ? 'unreachable' : 'unavailable') : 'parsed';
  return observation(`https://${host}`, body, at, { status, outcome, expiresAt: at + DAY });
}

const origin = (host: string) => ({ scheme: 'https' as const, host, port: 443 });

async function get(host: string) {
  const provider = createCachePolicyProvider(resolveOptions({ cache: path, offline: true }));
  try {
    return await provider.get(origin(host));
  } finally {
    await provider.close();
  }
}

describe('createCachePolicyProvider', () => {
  it('a fresh entry: source cache, not stale', async () => {
    seed([obs('a.test', 'User-agent: *\n', now - 1000)]);
    expect(await get('a.test')).toMatchObject({
      outcome: 'parsed',
      source: 'cache',
      stale: false,
      sha256: sha256('User-agent: *\n'),
    });
  });

  it('an entry older than max-age is still used, flagged stale', async () => {
    seed([obs('a.test', 'User-agent: *\n', now - 3 * DAY)]);
    expect(await get('a.test')).toMatchObject({ outcome: 'parsed', source: 'cache', stale: true });
  });

  it('an origin not in the cache: not_cached', async () => {
    seed([obs('a.test', 'x', now)]);
    expect(await get('other.test')).toMatchObject({
      origin: 'https://other.test',
      outcome: 'not_cached',
      source: 'none',
      robotsUrl: 'https://other.test/robots.txt',
      body: null,
    });
  });

  it('unreachable with a parsed copy from within 30 days before that attempt: the copy, source stale', async () => {
    seed([obs('a.test', 'Disallow: /x\n', now - 50 * DAY), obs('a.test', null, now - 40 * DAY)]);
    expect(await get('a.test')).toMatchObject({
      outcome: 'parsed',
      source: 'stale',
      stale: true,
      sha256: sha256('Disallow: /x\n'),
      staleCause: { status: 503, errorCode: null, at: now - 40 * DAY },
    });
  });

  it('unreachable with only an older copy: unreachable', async () => {
    seed([obs('a.test', 'Disallow: /x\n', now - 80 * DAY), obs('a.test', null, now - 40 * DAY)]);
    expect(await get('a.test')).toMatchObject({ outcome: 'unreachable', source: 'cache', status: 503 });
  });

  it('unavailable stays unavailable', async () => {
    seed([obs('a.test', null, now, 404)]);
    expect(await get('a.test')).toMatchObject({ outcome: 'unavailable', status: 404, stale: false });
  });

  it('a missing cache file is an error, not a run of not_cached', () => {
    expect(() => createCachePolicyProvider(resolveOptions({ cache: join(tmp.dir, 'nope.sqlite') }))).toThrow(
      expect.objectContaining({ code: 'ERR_CACHE_MISSING' }),
    );
  });
});
