/**
 * SSRF defaults end to end: without --allow-private nothing on loopback/private ranges is ever contacted,
 * whether the address comes from a pin, an IP literal, the system resolver, or a redirect hop.
 * A refused address is `unreachable` / ERR_BLOCKED_ADDRESS (disallow all), so no URL is wrongly allowed.
 */
import { BlockList } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLivePolicyProvider,
  type LiveProviderHooks,
} from '../../../src/pipeline/fetch/live-policy-provider.js';
import type { Options } from '../../../src/pipeline/options.js';
import type { Origin } from '../../../src/pipeline/policy/policy.js';
import { type MultiHostServer, ok, startMultiHostServer } from '../../helpers/multi-host-server.js';
import { at, liveOptions, tempDir } from './harness.js';

let srv: MultiHostServer;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  // 127.0.0.2 plays a "public" address in the redirect test below.
  srv = await startMultiHostServer({ alsoListenOn: ['127.0.0.2'] });
  tmp = tempDir();
});
afterAll(async () => {
  await srv.close();
  tmp.cleanup();
});

async function fetchAt(origin: Origin, extra: Partial<Options>, hooks: LiveProviderHooks = {}) {
  const provider = createLivePolicyProvider(liveOptions(srv, join(tmp.dir, `c${++n}.sqlite`), extra), hooks);
  try {
    return await provider.get(origin);
  } finally {
    await provider.close();
  }
}

const refused = { outcome: 'unreachable', errorCode: 'ERR_BLOCKED_ADDRESS', status: null, body: null };

describe('refused by default', () => {
  it('a host pinned to 127.0.0.1 is not contacted', async () => {
    srv.set('pinned.test', ok('User-agent: *\nAllow: /\n'));
    const p = await fetchAt(at(srv, 'pinned.test'), { allowPrivate: false, retries: 2 });
    expect(p).toMatchObject({ ...refused, finalUrl: null });
    expect(srv.hits('pinned.test')).toBe(0);
  });

  it('an IP-literal origin on loopback is not contacted', async () => {
    const p = await fetchAt(
      { scheme: 'http', host: '127.0.0.1', port: srv.httpPort },
      { allowPrivate: false },
    );
    expect(p).toMatchObject(refused);
    expect(srv.hits('127.0.0.1')).toBe(0);
  });

  it('an IPv6 loopback literal is not contacted', async () => {
    const p = await fetchAt({ scheme: 'http', host: '[::1]', port: srv.httpPort }, { allowPrivate: false });
    expect(p).toMatchObject(refused);
  });

  it('a name the system resolver maps to loopback (like a DNS rebinding) is refused', async () => {
    const p = await fetchAt(
      { scheme: 'http', host: 'localhost', port: srv.httpPort },
      { allowPrivate: false, resolve: [] },
    );
    expect(p).toMatchObject(refused);
    expect(srv.hits('localhost')).toBe(0);
  });

  it('each redirect hop is checked: a "public" host redirecting to a refused one stops there', async () => {
    // Only 127.0.0.1 is refused here, so 127.0.0.2 stands in for a public address.
    const blockList = new BlockList();
    blockList.addAddress('127.0.0.1');
    srv.set('public.test', { kind: 'redirect', location: `${srv.origin('internal.test')}/robots.txt` });
    srv.set('internal.test', ok('User-agent: *\nAllow: /\n'));
    const p = await fetchAt(
      at(srv, 'public.test'),
      { allowPrivate: false, resolve: ['public.test=127.0.0.2', 'internal.test=127.0.0.1'] },
      { tuning: { blockList } },
    );
    expect(p).toMatchObject({ ...refused, finalUrl: `http://internal.test:${srv.httpPort}/robots.txt` });
    expect(srv.hits('public.test')).toBe(1);
    expect(srv.hits('internal.test')).toBe(0);
  });

  it('the same redirect is followed with --allow-private', async () => {
    srv.set('public2.test', { kind: 'redirect', location: `${srv.origin('internal2.test')}/robots.txt` });
    srv.set('internal2.test', ok('User-agent: *\nAllow: /\n'));
    const p = await fetchAt(at(srv, 'public2.test'), { allowPrivate: true });
    expect(p).toMatchObject({
      outcome: 'parsed',
      finalUrl: `http://internal2.test:${srv.httpPort}/robots.txt`,
    });
  });
});
