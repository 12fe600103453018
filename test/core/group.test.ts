import { describe, expect, it } from 'vitest';
import { Group, RuleList } from '../../src/core/group.js';
import { parseBinary } from '../../src/core/parse.js';

function rulesOf(g: Group): [boolean, number, number, number][] {
  return Array.from({ length: g.ruleCount }, (_, k) => [
    g.allowedAt(k),
    g.lineAt(k),
    g.valueStart(k),
    g.valueEnd(k),
  ]);
}

describe('Group rules in a shared RuleList', () => {
  it('gives each group its own rules while the list grows under them', () => {
    const list = new RuleList([7, 7, 7, 7]);
    const a = new Group('', true, list);
    for (let k = 0; k < 40; k++) a.addRule(k % 2 === 0, k + 1, k, k + 2);
    const b = new Group('', true, list);
    b.addRule(false, 99, 7, 9);
    const c = new Group('', true, list);
    expect(rulesOf(a)).toEqual(Array.from({ length: 40 }, (_, k) => [k % 2 === 0, k + 1, k, k + 2]));
    expect(rulesOf(b)).toEqual([[false, 99, 7, 9]]);
    expect(c.ruleCount).toBe(0);
    const before = list.data;
    list.own();
    expect(list.data).toHaveLength(3 * 41);
    expect(list.data).not.toBe(before);
    expect(rulesOf(b)).toEqual([[false, 99, 7, 9]]);
  });

  it('keeps a parsed file’s rules per group when the next parses reuse the scratch list', () => {
    const body = 'User-agent: a\nDisallow: /x\nAllow: /y\nUser-agent: b\nUser-agent: c\nDisallow: /z\n';
    const groups = parseBinary(body).groups;
    parseBinary('User-agent: *\nAllow: /q\nAllow: /r\nAllow: /s\n');
    parseBinary('User-agent: *\nAllow: /q\n', ['q']);
    expect(groups.map((g) => g.rules.map((r) => `${r.line} ${r.info.rule}`))).toEqual([
      ['2 Disallow: /x', '3 Allow: /y'],
      ['6 Disallow: /z'],
    ]);
  });
});
