import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, signalExitCode } from '../src/cli/exit.js';
import { ERROR_CODES, type ErrorCode, FOREIGN_CODES, POLICY_CODES } from '../src/core/error-codes.js';
import { FETCH_ERROR_CODES, UNAVAILABLE_CODES } from '../src/pipeline/fetch/error-codes.js';
import { ROW_ERROR_CODES } from '../src/rows/row-error-codes.js';

const root = path.resolve(import.meta.dirname, '..');

/** The `## Error codes` section of README.md, up to the next `## ` heading. */
function section(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Error codes\n');
  expect(start, 'README.md has a `## Error codes` section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The rows of the table under the paragraph that starts with `**<title>**`: code, then the other cells. */
function table(title: string): [string, ...string[]][] {
  const text = section();
  const at = text.indexOf(`**${title}**`);
  expect(at, `README's Error codes section has a "${title}" table`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(at).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: [string, ...string[]][] = [];
  // Row 0 is the header, row 1 the |---| line.
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim());
    const code = /^`([^`]+)`$/.exec(cells[0]!)?.[1];
    expect(code, `first cell of README row ${JSON.stringify(line)} is one code in backticks`).toBeDefined();
    rows.push([code!, ...cells.slice(1)]);
  }
  return rows;
}

const sorted = (codes: Iterable<string>) => [...codes].sort();

function expectSameCodes(title: string, catalog: Iterable<string>): [string, ...string[]][] {
  const rows = table(title);
  const listed = rows.map((r) => r[0]);
  expect(new Set(listed).size, `"${title}" lists each code once`).toBe(listed.length);
  const want = new Set(catalog);
  expect(
    sorted(listed.filter((c) => !want.has(c))),
    `"${title}" lists codes that are not in its catalog`,
  ).toEqual([]);
  expect(
    sorted([...want].filter((c) => !listed.includes(c))),
    `catalogued codes missing from README's "${title}" table`,
  ).toEqual([]);
  return rows;
}

/** Every `.ts`/`.cts` file under src/. */
function sources(dir = path.join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.c?ts$/.test(e.name) ? [full] : [];
  });
}

describe('README Error codes: every catalogued code is documented, and only those', () => {
  it('the library errors table is ERROR_CODES, with the exit code the CLI gives each', () => {
    for (const [code, , exit] of expectSameCodes('Library errors', Object.keys(ERROR_CODES))) {
      const want =
        code === 'ERR_ABORTED'
          ? [signalExitCode('SIGINT'), signalExitCode('SIGTERM')]
          : [exitCodeFor(code as ErrorCode)];
      expect((exit ?? '').match(/\d+/g)?.map(Number), `CLI exit of ${code}`).toEqual(want);
    }
  });

  it('the policy codes table is FETCH_ERROR_CODES and POLICY_CODES, with the outcome each gives', () => {
    const catalog = [...FETCH_ERROR_CODES, ...Object.keys(POLICY_CODES)];
    for (const [code, , outcome] of expectSameCodes('Policy codes', catalog)) {
      const want = Object.hasOwn(UNAVAILABLE_CODES, code) ? 'unavailable' : 'unreachable';
      expect(outcome, `outcome of ${code}`).toBe(want);
    }
  });

  it('the row codes table is ROW_ERROR_CODES', () => {
    expectSameCodes('Row codes', Object.keys(ROW_ERROR_CODES));
  });

  it('every ERR_ code README names anywhere is catalogued', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const known = new Set([...Object.keys(ERROR_CODES), ...Object.keys(POLICY_CODES), ...FETCH_ERROR_CODES]);
    const named = new Set(readme.match(/\bERR_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);
    expect(named.size, 'the scan finds the codes README names').toBeGreaterThan(20);
    expect([...named].filter((c) => !known.has(c))).toEqual([]);
  });

  it('every catalogued meaning is one line of text', () => {
    for (const catalog of [ERROR_CODES, POLICY_CODES, FOREIGN_CODES, ROW_ERROR_CODES]) {
      for (const [code, meaning] of Object.entries(catalog)) {
        expect(meaning, code).toMatch(/^[^\n]{10,}$/);
      }
    }
  });
});

describe('source code uses catalogued codes only', () => {
  it("every 'ERR_…' string literal in src/ is in a catalog", () => {
    const known = new Set([
      ...Object.keys(ERROR_CODES),
      ...Object.keys(POLICY_CODES),
      ...FETCH_ERROR_CODES,
      ...Object.keys(FOREIGN_CODES),
    ]);
    const unknown: string[] = [];
    let seen = 0;
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      // A literal ending in `_` (`'ERR_TLS_'`) is a prefix of Node's codes, matched with startsWith, not a code.
      for (const m of text.matchAll(/(['"`])(ERR_[A-Z0-9_]*[A-Z0-9])\1/g)) {
        seen++;
        if (!known.has(m[2]!)) unknown.push(`${path.relative(root, file)}: ${m[2]}`);
      }
    }
    expect(seen, 'the scan finds the codes src/ uses').toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });
});
