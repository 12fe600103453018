// Conformance with Google's reference unit tests (github.com/google/robotstxt, robots_test.cc): every
// IsUserAgentAllowed assertion, with its deciding line, through every public check path.

import { describe, it } from 'vitest';
import { expectCheck, flatten } from './conformance-helpers.js';
import {
  DOCUMENTATION_CASES,
  LINE_TOO_LONG_CASES,
  MATCHING_CASES,
  SYNTAX_CASES,
} from './google-robots-test.cases.js';

describe.each([
  ['syntax, groups and user-agents', SYNTAX_CASES],
  ['longest match, encoding, special characters, index.html', MATCHING_CASES],
  ['documentation checks', DOCUMENTATION_CASES],
  ['line length cap', LINE_TOO_LONG_CASES],
])('google/robotstxt robots_test.cc: %s', (_title, cases) => {
  it.each(flatten(cases))('$name', ({ robots, e }) => {
    expectCheck(robots, e);
  });
});
