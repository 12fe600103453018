import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROW_AGENT_VERDICTS } from '../src/rows/verdict-format.js';

const README = readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The rows of the table under `### What the verdicts mean`: verdict, allowed, meaning. */
function verdictTable(): string[][] {
  const at = README.indexOf('\n### What the verdicts mean\n');
  expect(at, 'README.md has a "What the verdicts mean" section').toBeGreaterThanOrEqual(0);
  const lines = README.slice(at).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  // Row 0 is the header, row 1 the |---| line.
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim().replace(/^`|`$/g, '')),
    );
  }
  return rows;
}

describe("README's verdict table", () => {
  it('lists every verdict a row can have, once, and only those', () => {
    expect(
      verdictTable()
        .map((r) => r[0])
        .sort(),
    ).toEqual([...ROW_AGENT_VERDICTS].sort());
  });

  it('gives each its allowed value: true for allowed_*, false for disallowed_*, empty otherwise', () => {
    for (const [verdict, allowed] of verdictTable()) {
      const want = verdict!.startsWith('allowed_')
        ? 'true'
        : verdict!.startsWith('disallowed_')
          ? 'false'
          : 'empty';
      expect(allowed, verdict).toBe(want);
    }
  });
});
