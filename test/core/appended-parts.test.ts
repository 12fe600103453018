// appendedPart: the compiled part of appended groups is shared by files that appended the same rules.

import { describe, expect, it } from 'vitest';
import { appendedPart } from '../../src/core/appended-parts.js';
import { parseBinary } from '../../src/core/parse.js';

/** The groups of `body` from its `from`th on. */
const groupsOf = (body: string, from: number) => parseBinary(body).groups.slice(from);

describe('appendedPart', () => {
  it('gives files that appended the same rules one compiled part, with their own line shift', () => {
    const block = 'User-agent: *\nDisallow: /search\nAllow: /search/about\n';
    const a = appendedPart('Googlebot', groupsOf(`User-agent: *\nDisallow: /a\n${block}`, 1));
    const b = appendedPart(
      'Googlebot',
      groupsOf(`# a comment\n\nUser-agent: *\nDisallow: /b\n\n${block}`, 1),
    );
    expect(b.part).toBe(a.part);
    expect(b.shift - a.shift).toBe(3);
    expect(a.part.extra.lineAt(a.part.extra.decide('/search/x')) + a.shift).toBe(4);
    expect(b.part.extra.lineAt(b.part.extra.decide('/search/x')) + b.shift).toBe(7);
  });

  it('compiles apart what differs: a value, a kind, a line between rules, the agent', () => {
    const base = 'User-agent: *\nDisallow: /a\n';
    const part = (tail: string, agent = 'Googlebot') => appendedPart(agent, groupsOf(base + tail, 1)).part;
    const first = part('User-agent: *\nDisallow: /q\nDisallow: /r\n');
    expect(part('User-agent: *\nDisallow: /q\nDisallow: /r\n')).toBe(first);
    expect(part('User-agent: *\nDisallow: /q\nDisallow: /s\n')).not.toBe(first);
    expect(part('User-agent: *\nDisallow: /q\nAllow: /r\n')).not.toBe(first);
    expect(part('User-agent: *\nDisallow: /q\n# note\nDisallow: /r\n')).not.toBe(first);
    expect(part('User-agent: *\nDisallow: /q\nDisallow: /r\n', 'Bingbot')).not.toBe(first);
  });
});
