import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OriginStore, ownString } from '../../src/workers/origin-store.js';
import type { WirePolicy } from '../../src/workers/protocol.js';
import { config } from './classify-fixtures.js';

// Test-only: a full GC on demand, so retained sizes can be compared.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function usedAfterGc(): number {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
}

/** Slices of `count` distinct 512 KiB strings (each slice long enough to be a V8 sliced string). */
function slicesOfBigStrings(count: number, own: boolean): string[] {
  const kept: string[] = [];
  for (let i = 0; i < count; i++) {
    const big = `${i}:${Buffer.alloc(512 * 1024, 97 + (i % 26)).toString('latin1')}`;
    const host = big.slice(10, 40);
    kept.push(own ? ownString(host) : host);
  }
  return kept;
}

function policy(body: string): WirePolicy {
  return {
    key: 'https://a-rather-long-host-name.example',
    outcome: 'parsed',
    status: '200',
    body: new TextEncoder().encode(body),
    sha256: body,
    robotsUrl: 'https://a-rather-long-host-name.example/robots.txt',
    fetchedAt: '',
    truncated: false,
  };
}

describe('ownString', () => {
  it('returns an equal string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(), fc.nat(), (s, a, b) => {
        const part = s.slice(Math.min(a, b) % (s.length + 1), Math.max(a, b) % (s.length + 1));
        expect(ownString(part)).toBe(part);
      }),
    );
  });

  it('does not keep alive the string it was sliced from (a host must not hold its whole batch)', () => {
    const base = usedAfterGc();
    const sliced = slicesOfBigStrings(40, false);
    const withParents = usedAfterGc() - base;
    sliced.length = 0;
    const base2 = usedAfterGc();
    const owned = slicesOfBigStrings(40, true);
    const withoutParents = usedAfterGc() - base2;
    expect(owned).toHaveLength(40);
    expect(withParents).toBeGreaterThan(40 * 400 * 1024); // the control: plain slices do retain
    expect(withoutParents).toBeLessThan(1024 * 1024);
  });
});

describe('OriginStore', () => {
  it('judges with the installed policy and finds the origin by an equal host', () => {
    const store = new OriginStore(config());
    const batch = `x,https://a-rather-long-host-name.example/${'p'.repeat(300_000)}`;
    const host = batch.slice(10, 10 + 'a-rather-long-host-name.example'.length);
    const e = store.install(policy('User-agent: *\nDisallow: /p\n'), { scheme: 'https', host, port: 443 }, 1);
    expect(e.host).toBe('a-rather-long-host-name.example');
    expect(store.find('https', 'a-rather-long-host-name.example', 443, 2)).toBe(e);
    expect(store.full(e, e.slot!.rules![0]!.decide('/p'))).toBe(
      ',false,disallowed_explicit,2,Disallow: /p,200,\n',
    );
  });

  it('gives the verdict text of every rule, low and high ranks alike, the same on every call', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `Disallow: /p${i}/`);
    const body = `User-agent: *\n${lines.join('\n')}\n`;
    const one = new OriginStore(config());
    const e = one.install(policy(body), { scheme: 'https', host: 'one.example', port: 443 }, 1);
    const two = new OriginStore(config({ agents: ['Googlebot', 'OtherBot'] }));
    const f = two.install(policy(body), { scheme: 'https', host: 'two.example', port: 443 }, 1);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 40; i++) {
        const rank = e.slot!.rules![0]!.decide(`/p${i}/x`);
        const part = `,false,disallowed_explicit,${i + 2},Disallow: /p${i}/`;
        expect(one.full(e, rank)).toBe(`${part},200,\n`);
        for (let a = 0; a < 2; a++) expect(two.part(f, a, f.slot!.rules![a]!.decide(`/p${i}/x`))).toBe(part);
      }
      expect(one.full(e, -1)).toBe(',true,allowed_implicit,,,200,\n');
      expect(two.part(f, 1, -1)).toBe(',true,allowed_implicit,,');
    }
  });

  it('does not keep alive the batch texts the hosts of its origins were sliced from', () => {
    const store = new OriginStore(config());
    const base = usedAfterGc();
    for (let i = 0; i < 40; i++) {
      const name = `host-number-${i}.example`;
      const batch = `0123456789${name},${Buffer.alloc(512 * 1024, 97 + (i % 26)).toString('latin1')}`;
      const host = batch.slice(10, 10 + name.length); // a V8 sliced string: points into the whole batch
      store.install(policy(`User-agent: *\nDisallow: /${i}\n`), { scheme: 'https', host, port: 443 }, 1);
    }
    expect(store.originCount).toBe(40);
    expect(usedAfterGc() - base).toBeLessThan(4 * 1024 * 1024);
  });
});
