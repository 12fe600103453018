import { describe, expect, it } from 'vitest';
import { diffGroups, groupsOf, ruleAtLine } from '../../src/core/group-diff.js';

describe('diffGroups', () => {
  it('lists rules added and removed per group, groups added and removed', () => {
    const before = 'User-agent: *\nDisallow: /private\nDisallow: /tmp\n\nUser-agent: OldBot\nDisallow: /\n';
    const after =
      'User-agent: *\nDisallow: /tmp\nDisallow: /admin\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n';
    expect(diffGroups(before, after)).toEqual([
      {
        group: ['*'],
        change: 'changed',
        added: ['Disallow: /admin'],
        removed: ['Disallow: /private'],
        addedCount: 1,
        removedCount: 1,
      },
      {
        group: ['GPTBot', 'CCBot'],
        change: 'added',
        added: ['Disallow: /'],
        removed: [],
        addedCount: 1,
        removedCount: 0,
      },
      {
        group: ['OldBot'],
        change: 'removed',
        added: [],
        removed: ['Disallow: /'],
        addedCount: 0,
        removedCount: 1,
      },
    ]);
  });

  it('ignores order, comments, case of user-agents and blank lines; the same file is no change', () => {
    const a = 'User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /a\nAllow: /b\n';
    const b = '# new comment\nuser-agent: ccbot\n\nUSER-AGENT: gptbot\nAllow: /b # why\nDisallow: /a\n';
    expect(diffGroups(a, b)).toEqual([]);
    expect(diffGroups(a, a)).toEqual([]);
  });

  it('keys groups by product token, as crawlers match them, and shows the values as written', () => {
    const a = 'User-agent: MJ12bot\nUser-agent: * (everyone)\nDisallow: /a\n';
    const b = 'User-agent: mj/2.0\nUser-agent: *\nDisallow: /b\n';
    expect(diffGroups(a, b)).toEqual([
      {
        group: ['mj/2.0', '*'],
        change: 'changed',
        added: ['Disallow: /b'],
        removed: ['Disallow: /a'],
        addedCount: 1,
        removedCount: 1,
      },
    ]);
  });

  it('joins groups that name the same agents, and counts a rule written twice', () => {
    const a = 'User-agent: X\nDisallow: /a\n\nUser-agent: X\nDisallow: /a\n';
    const b = 'User-agent: X\nDisallow: /a\n';
    expect(groupsOf(a).get('x')!.rules.get('Disallow: /a')).toBe(2);
    expect(diffGroups(a, b)).toEqual([
      {
        group: ['X'],
        change: 'changed',
        added: [],
        removed: ['Disallow: /a'],
        addedCount: 0,
        removedCount: 1,
      },
    ]);
  });

  it('keeps at most maxRules per list with exact counts; rules before any user-agent are no group', () => {
    const rules = Array.from({ length: 30 }, (_, i) => `Disallow: /p${i}`).join('\n');
    const [change] = diffGroups('Disallow: /orphan\nUser-agent: *\n', `User-agent: *\n${rules}\n`, 5);
    expect(change!.added).toEqual([
      'Disallow: /p0',
      'Disallow: /p1',
      'Disallow: /p2',
      'Disallow: /p3',
      'Disallow: /p4',
    ]);
    expect(change!.addedCount).toBe(30);
    expect(change!.change).toBe('changed');
  });

  it('reads bytes as UTF-8 and an outcome with no body as an empty file', () => {
    const after = new TextEncoder().encode('User-agent: *\nDisallow: /café\n');
    expect(diffGroups(new Uint8Array(0), after)).toEqual([
      {
        group: ['*'],
        change: 'added',
        added: ['Disallow: /café'],
        removed: [],
        addedCount: 1,
        removedCount: 0,
      },
    ]);
  });
});

describe('ruleAtLine', () => {
  it('gives the Allow/Disallow rule of a line as verdicts write it, else empty', () => {
    const body = 'User-agent: *\r\nDisallow: /a # note\r\n\r\nallow:/b\nSitemap: /s\n';
    expect(ruleAtLine(body, 2)).toBe('Disallow: /a');
    expect(ruleAtLine(body, 4)).toBe('Allow: /b');
    expect(ruleAtLine(body, 1)).toBe('');
    expect(ruleAtLine(body, 5)).toBe('');
    expect(ruleAtLine(body, 9)).toBe('');
  });
});
