import { describe, expect, it } from 'vitest';
import { keyOf, type Origin } from '../../src/rows/row-url.js';
import { OriginStore } from '../../src/workers/origin-store.js';
import { PolicyInstaller } from '../../src/workers/policy-installer.js';
import type { PolicyRequest, WirePolicy } from '../../src/workers/protocol.js';
import { config } from './classify-fixtures.js';

const origin = (host: string): Origin => ({ scheme: 'https', host, port: 443 });

/** A parsed policy: an origin without a file has no entry of its own to compare. */
function parsed(key: string): WirePolicy {
  return {
    key,
    outcome: 'parsed',
    status: '200',
    body: new TextEncoder().encode('User-agent: *\nDisallow: /x\n'),
    sha256: 'one-body',
    robotsUrl: `${key}/robots.txt`,
    fetchedAt: '',
    truncated: false,
  };
}

describe('PolicyInstaller', () => {
  it('never asks twice for an origin whose policy is on its way, and gives both units its entry', async () => {
    const installer = new PolicyInstaller(new OriginStore(config()));
    const asked: string[][] = [];
    const answers: (() => void)[] = [];
    const fetch = (req: PolicyRequest) => {
      asked.push(req.keys);
      return new Promise<WirePolicy[]>((resolve) => answers.push(() => resolve(req.keys.map(parsed))));
    };
    const a = [origin('a.example'), origin('b.example')];
    const b = [origin('b.example'), origin('c.example'), origin('a.example')];
    const first = installer.ensure(a.map(keyOf), a, 1, fetch);
    const second = installer.ensure(b.map(keyOf), b, 2, fetch);
    expect(asked).toEqual([['https://a.example', 'https://b.example'], ['https://c.example']]);
    for (const answer of answers) answer();
    const [ea, eb] = await Promise.all([first, second]);
    expect(ea.map((e) => e.key)).toEqual(['https://a.example', 'https://b.example']);
    expect(eb.map((e) => e.key)).toEqual(['https://b.example', 'https://c.example', 'https://a.example']);
    expect(eb[0]).toBe(ea[1]);
    expect(eb[2]).toBe(ea[0]);
    // Once answered, nothing is on its way: the same origins are asked again if needed.
    await installer.ensure([keyOf(origin('d.example'))], [origin('d.example')], 3, async (req) => {
      asked.push(req.keys);
      return req.keys.map(parsed);
    });
    expect(asked).toHaveLength(3);
  });
});
