import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowOutcome, SiteOutcomes } from '../../../src/pipeline/report/site-outcomes.js';

const SITE = 'https://a.example';

describe('rowOutcome', () => {
  it.each([
    ['allowed_implicit', '200', '', '', 'parsed', ''],
    ['allowed_implicit', 'file', '', '', 'parsed', ''],
    ['allowed_implicit', '200', '', 'https://a.example/robots.txt', 'parsed', ''],
    ['allowed_implicit', '200', '', 'file:///robots/a.example.txt', 'parsed', ''],
    [
      'allowed_implicit',
      '200',
      '',
      'https://www.a.example/robots.txt',
      'redirect',
      'https://www.a.example/robots.txt',
    ],
    ['allowed_unavailable', '404', '', '', 'unavailable', '404'],
    ['allowed_unavailable', 'missing', '', '', 'unavailable', 'missing'],
    ['allowed_unavailable', 'ERR_TOO_MANY_REDIRECTS', '', '', 'unavailable', 'ERR_TOO_MANY_REDIRECTS'],
    ['disallowed_unreachable', '429', '', '', 'unreachable', '429'],
    ['disallowed_unreachable', '503', '', '', 'unreachable', '503'],
    ['disallowed_unreachable', 'ERR_DNS', '', '', 'unreachable', 'ERR_DNS'],
    ['disallowed_unreachable', 'ERR_ROBOTS_FILE', '', '', 'unreachable', 'ERR_ROBOTS_FILE'],
    ['not_cached', '', '', '', 'not_cached', ''],
    ['no_history', '', 'before_first_version', '', 'no_history', 'before_first_version'],
  ])(
    '%s with status %j (error %j, robots_url %j) is %s %j',
    (verdict, status, error, url, outcome, cause) => {
      expect(rowOutcome(verdict, status, error, url, SITE)).toMatchObject({ outcome, cause });
    },
  );

  it('says nothing for invalid rows and rows without a status', () => {
    expect(rowOutcome('invalid_input', '', 'bad_url', '', SITE)).toBeNull();
    expect(rowOutcome('not_a_crawler', '', '', '', SITE)).toBeNull();
  });
});

describe('SiteOutcomes', () => {
  it('counts each site once, and each outcome once per site', () => {
    const t = new SiteOutcomes();
    const parsed = rowOutcome('allowed_implicit', '200', '', '', SITE);
    const down = rowOutcome('disallowed_unreachable', '503', '', '', SITE);
    for (const [site, o] of [
      ['https://a.example', parsed],
      ['https://b.example', down],
      ['https://a.example', parsed],
      ['https://b.example', down],
      ['https://a.example', down],
      ['https://c.example', null],
    ] as const) {
      t.observe(site, o);
    }
    expect(t.sites).toBe(3);
    expect(t.exact).toBe(true);
    expect(t.byOutcome).toMatchObject({ parsed: 1, unreachable: 2 });
    expect(Object.fromEntries(t.unreachableBy)).toEqual({ '503': 2 });
  });

  it('counts distinct sites as a Set does, and starts over when full', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-d]{1,3}$/), { maxLength: 200 }), (names) => {
        const t = new SiteOutcomes();
        for (const n of names) t.observe(`https://${n}.example`, null);
        expect(t.sites).toBe(new Set(names).size);
        expect(t.exact).toBe(true);
      }),
    );
    const small = new SiteOutcomes(3);
    for (let i = 0; i < 10; i++) small.observe(`https://s${i}.example`, null);
    for (let i = 0; i < 10; i++) small.observe(`https://s${i}.example`, null);
    expect(small.exact).toBe(false);
    expect(small.sites).toBeGreaterThan(10);
  });
});
