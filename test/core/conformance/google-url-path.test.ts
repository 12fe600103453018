// Conformance with the reference's integrity tests of its helpers (github.com/google/robotstxt,
// robots_test.cc, commit c8ac4b1d): TestGetPathParamsQuery (our `pathFromUrl`), TestMaybeEscapePattern
// (not exported here; observed through matching), and ID_VerifyValidUserAgentsToObey (no equivalent API;
// our documented agent normalisation is asserted instead).

import { describe, expect, it } from 'vitest';
import { normalizeAgent, parseRobotsTxt, pathFromUrl } from '../../../src/core/index.js';
import type { Difference } from './conformance-helpers.js';
import { GET_PATH_PARAMS_QUERY } from './google-robots-test.cases.js';

describe('google/robotstxt TestGetPathParamsQuery → pathFromUrl', () => {
  it.each(GET_PATH_PARAMS_QUERY)('pathFromUrl(%j) === %j', (url, path) => {
    expect(pathFromUrl(url)).toBe(path);
  });
});

// TestMaybeEscapePattern: [pattern, escaped]. Each pattern is put in `Allow:` (with a leading "/" when it
// has none, so that a path can reach it) under `Disallow: /`: the escaped form must match, and where
// escaping changes the pattern, the unescaped spelling in the URL must not.
const MAYBE_ESCAPE_PATTERN: [string, string][] = [
  ['http://www.example.com', 'http://www.example.com'],
  ['/a/b/c', '/a/b/c'],
  ['á', '%C3%A1'],
  ['%aa', '%AA'],
];

describe('google/robotstxt TestMaybeEscapePattern, observed through matching', () => {
  it.each(MAYBE_ESCAPE_PATTERN)('Allow: %s is matched as %s', (pattern, escaped) => {
    const slash = (s: string) => (s.startsWith('/') ? s : `/${s}`);
    const robots = parseRobotsTxt(`User-agent: FooBot\nDisallow: /\nAllow: ${slash(pattern)}\n`);
    expect(robots.check(slash(escaped), 'FooBot')).toMatchObject({ verdict: 'allowed_explicit', line: 3 });
    if (escaped !== pattern) {
      expect(robots.check(slash(pattern), 'FooBot')).toMatchObject({
        verdict: 'disallowed_explicit',
        line: 2,
      });
    }
  });
});

// ID_VerifyValidUserAgentsToObey asserts RobotsMatcher::IsValidUserAgentToObey, a validity check a
// crawler may run on its own product token. We have no such predicate: `check` takes any agent and
// normalises it (drops a `/version` suffix and surrounding whitespace). Asserted as that documented behaviour.
const AGENT_DIFFERENCES: (Difference & { agent: string; normalized: string })[] = [
  { agent: 'Foobot', normalized: 'Foobot', source: 'valid', reason: 'valid token, unchanged' },
  { agent: 'Foobot-Bar', normalized: 'Foobot-Bar', source: 'valid', reason: 'valid token, unchanged' },
  { agent: 'Foo_Bar', normalized: 'Foo_Bar', source: 'valid', reason: 'valid token, unchanged' },
  { agent: '', normalized: '', source: 'invalid', reason: 'no validity check; empty stays empty' },
  { agent: 'ツ', normalized: 'ツ', source: 'invalid', reason: 'no validity check; kept as given' },
  { agent: 'Foobot*', normalized: 'Foobot*', source: 'invalid', reason: 'no validity check; kept as given' },
  { agent: ' Foobot ', normalized: 'Foobot', source: 'invalid', reason: 'surrounding whitespace dropped' },
  { agent: 'Foobot/2.1', normalized: 'Foobot', source: 'invalid', reason: 'a /version suffix is dropped' },
  {
    agent: 'Foobot Bar',
    normalized: 'Foobot Bar',
    source: 'invalid',
    reason: 'no validity check; kept as given',
  },
];

describe('google/robotstxt ID_VerifyValidUserAgentsToObey (no equivalent API: documented normalisation)', () => {
  it.each(AGENT_DIFFERENCES)(
    'IsValidUserAgentToObey($agent) is $source there; here normalizeAgent gives $normalized ($reason)',
    ({ agent, normalized }) => {
      expect(normalizeAgent(agent)).toBe(normalized);
    },
  );

  it('a crawler agent with /version and whitespace selects its group (derived from the normalisation)', () => {
    const robots = parseRobotsTxt('User-agent: *\nAllow: /\n\nUser-agent: Foobot\nDisallow: /\n');
    expect(robots.check('/x', ' Foobot/2.1 ')).toMatchObject({ allowed: false, line: 5 });
    expect(robots.check('/x', 'Foobot Bar')).toMatchObject({ allowed: true, line: 2 });
  });
});
