// The published compliance suite github.com/google/robotstxt-spec-test (src/main/resources/CTC/...),
// transcribed as JSON in test/fixtures/conformance/robotstxt-spec-test/ (each file names its source path
// and commit). The suite states only ALLOWED/DISALLOWED, so that is what is asserted, through every
// public check path. Cases we decide differently are listed in DIFFERENCES and asserted as our behaviour.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Body, type Difference, decodeEscapedBytes, expectOutcome } from './conformance-helpers.js';

const ROOT = fileURLToPath(new URL('../../fixtures/conformance/robotstxt-spec-test/', import.meta.url));

interface FixtureExpectation {
  url: string;
  agent: string;
  expected: 'ALLOWED' | 'DISALLOWED';
  googleSpecific?: boolean;
}

interface Fixture {
  source: { repo: string; path: string; commit: string };
  tests: { robotstxt: string; bodyEncoding?: 'escaped-bytes'; expectations: FixtureExpectation[] }[];
}

interface SpecCase {
  name: string;
  file: string;
  /** 1-based index of the robots.txt body within its file. */
  test: number;
  robots: Body;
  url: string;
  agent: string;
  allowed: boolean;
}

function loadDir(dir: string): SpecCase[] {
  const out: SpecCase[] = [];
  for (const name of readdirSync(join(ROOT, dir)).sort()) {
    if (!name.endsWith('.json')) continue;
    const file = `${dir}/${name}`;
    const fixture = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Fixture;
    expect(fixture.source.repo).toBe('google/robotstxt-spec-test');
    fixture.tests.forEach((t, ti) => {
      const robots = t.bodyEncoding === 'escaped-bytes' ? decodeEscapedBytes(t.robotstxt) : t.robotstxt;
      t.expectations.forEach((x, xi) => {
        const tag = x.googleSpecific ? ' (GOOGLE_SPECIFIC)' : '';
        out.push({
          name: `${file} test ${ti + 1}.${xi + 1}: ${x.agent || '(empty agent)'} ${x.url || '(empty url)'} ${x.expected}${tag}`,
          file,
          test: ti + 1,
          robots,
          url: x.url,
          agent: x.agent,
          allowed: x.expected === 'ALLOWED',
        });
      });
    });
  }
  return out;
}

/** Cases whose expectation we do not follow, keyed by fixture file, body index, agent and URL. */
const DIFFERENCES: (Difference & {
  file: string;
  test: number;
  agent: string;
  url: string;
  ours: boolean;
})[] = [
  ...(
    [
      [2, '\\xEF\\xBB'],
      [3, '\\xEF'],
    ] as const
  ).map(([test, prefix]) => ({
    file: 'correctness/BOM-characters.json',
    test,
    agent: 'foo',
    url: 'http://example.com/AnyValue',
    ours: false,
    source: `ALLOWED for a body starting with a partial BOM ${prefix}`,
    reason:
      'the reference skips partial BOM prefixes (robots_test.cc ID_UTF8ByteOrderMarkIsSkipped: ' +
      'kUtf8FilePartial2BOM/kUtf8FilePartial1BOM give 2 valid directives), so Disallow: /AnyValue applies',
  })),
  ...[
    ['stress/327748.json', 'asdfbot'],
    ['stress/369883.json', 'BarBot'],
    ['stress/369883.json', 'AB'],
    ['stress/860237.json', 'XYZ'],
  ].map(([file, agent]) => ({
    file: file!,
    test: 1,
    agent: agent!,
    url: file === 'stress/327748.json' ? 'http://m.example.com/robots.txt' : 'http://example.com/robots.txt',
    ours: true,
    source: 'DISALLOWED for /robots.txt under Disallow: /',
    reason: 'our one exception to the reference: /robots.txt is always allowed (RFC 9309 §2.2.2)',
  })),
];

function differenceFor(c: SpecCase) {
  return DIFFERENCES.find(
    (d) => d.file === c.file && d.test === c.test && d.agent === c.agent && d.url === c.url,
  );
}

const GROUPS = ['correctness', 'stress', 'earlier'] as const;
const CASES = Object.fromEntries(GROUPS.map((g) => [g, loadDir(g)])) as Record<
  (typeof GROUPS)[number],
  SpecCase[]
>;

describe.each(GROUPS)('google/robotstxt-spec-test CTC %s', (group) => {
  const cases = CASES[group];
  const followed = cases.filter((c) => differenceFor(c) === undefined);
  const differing = cases.flatMap((c) => {
    const d = differenceFor(c);
    return d === undefined ? [] : [{ ...c, d }];
  });

  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(followed)('$name', (c) => {
    expectOutcome(c.robots, c.agent, c.url, c.allowed);
  });

  if (differing.length > 0) {
    it.each(differing)('[differs: $d.reason] $name', (c) => {
      expect(c.allowed).not.toBe(c.d.ours); // the source really says otherwise
      expectOutcome(c.robots, c.agent, c.url, c.d.ours);
    });
  }
});

describe('google/robotstxt-spec-test: every listed difference names a transcribed case', () => {
  const all = Object.values(CASES).flat();
  it.each(DIFFERENCES)('$file test $test: $agent $url', (d) => {
    expect(all.filter((c) => differenceFor(c) === d)).toHaveLength(1);
  });
});
