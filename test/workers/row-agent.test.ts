import { describe, expect, it } from 'vitest';
import { RowAgentTally } from '../../src/pipeline/figures/row-agent-summary.js';
import { V_NOT_A_CRAWLER, VERDICTS, verdictColumns } from '../../src/rows/verdict-format.js';
import { OTHER_TOKEN, type WorkerConfig } from '../../src/workers/protocol.js';
import { RowAgents } from '../../src/workers/row-agent.js';

const CONFIG: WorkerConfig = {
  agents: [],
  delimiter: ',',
  urlIndex: 1,
  hostIndex: 0,
  columns: 3,
  scheme: 'https',
  eol: '\n',
  evidence: false,
  compiledBudget: 1 << 20,
  originBudget: 100,
  robotsDir: null,
  agentIndex: 2,
};

describe('verdictColumns with a row agent', () => {
  it('puts agent and its unsuffixed columns first, and suffixes every --agent agent', () => {
    expect(verdictColumns([], false, false, true)).toEqual([
      'agent',
      'allowed',
      'verdict',
      'rule_line',
      'rule',
      'robots_status',
      'error_code',
    ]);
    expect(verdictColumns(['GPTBot'], false, true, true)).toEqual([
      ...['agent', 'allowed', 'verdict', 'rule_line', 'rule', 'grace'],
      ...['allowed:GPTBot', 'verdict:GPTBot', 'rule_line:GPTBot', 'rule:GPTBot', 'grace:GPTBot'],
      'robots_status',
      'error_code',
    ]);
    expect(verdictColumns(['GPTBot'], false)).toEqual([
      'allowed',
      'verdict',
      'rule_line',
      'rule',
      'robots_status',
      'error_code',
    ]);
  });
});

describe('RowAgents', () => {
  it('maps cells to one crawler per token, and browsers to none', () => {
    const ra = new RowAgents(CONFIG);
    const a = ra.resolve('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)');
    const b = ra.resolve('GPTBot/1.1');
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(a!.cell).toBe(',GPTBot');
    expect(ra.resolve('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBeNull();
    expect(ra.resolve('-')).toBeNull();
  });

  it('writes and counts rows that are not judged', () => {
    const ra = new RowAgents(CONFIG);
    const gpt = ra.resolve('GPTBot');
    expect(ra.invalidText(null)).toBe(',,,not_a_crawler,,');
    expect(ra.invalidText(gpt)).toBe(',GPTBot,,invalid_input,,');
    expect(ra.invalidText(undefined)).toBe(',,,invalid_input,,');
    const s = ra.collect();
    expect(s.unread).toBe(1);
    const byToken = new Map(s.tokens.map(([t, , c]) => [t, c]));
    expect(byToken.get('')![V_NOT_A_CRAWLER]).toBe(1);
    expect(byToken.get('GPTBot')![VERDICTS.indexOf('invalid_input')]).toBe(1);
    expect(ra.collect()).toEqual({ tokens: [], unread: 0 });
  });
});

describe('RowAgentTally', () => {
  it('keeps at most 1000 tokens and adds up the rest under (other)', () => {
    const t = new RowAgentTally();
    const counts = (v: number) => VERDICTS.map((_, i) => (i === v ? 1 : 0));
    const tokens: [string, boolean, number[]][] = Array.from({ length: 1005 }, (_, i) => [
      `Bot${i}`,
      false,
      counts(1),
    ]);
    t.add({ tokens: [...tokens, ['', false, [...counts(-1), 3]]], unread: 2 });
    const s = t.build();
    expect(Object.keys(s.rowAgents).length).toBe(1001);
    expect(s.rowAgents[OTHER_TOKEN]!.rows).toBe(5);
    expect(s.rowAgentsExact).toBe(false);
    expect(s.notACrawler).toBe(3);
    expect(s.rowAgentUnread).toBe(2);
  });
});
