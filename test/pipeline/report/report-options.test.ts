import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSince, resolveReportOptions } from '../../../src/pipeline/report/report-options.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

describe('parseSince', () => {
  it.each([
    ['24h', NOW - 24 * 3600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['90m', NOW - 90 * 60_000],
    ['2026-11-25T00:00:00Z', Date.UTC(2026, 10, 25)],
    ['2026-11-25', Date.UTC(2026, 10, 25)],
    ['1795564800', Date.UTC(2026, 10, 25)],
  ])('%s', (value, expected) => {
    expect(parseSince(value, NOW)).toBe(expected);
  });

  it.each(['', 'soon', '24 hours'])('refuses %j', (value) => {
    expect(() => parseSince(value, NOW)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
  });
});

describe('resolveReportOptions', () => {
  const base = { files: ['v.csv'], json: 'r.json' };

  it('fills the defaults', () => {
    expect(resolveReportOptions(base, NOW)).toMatchObject({
      files: ['v.csv'],
      output: undefined,
      json: 'r.json',
      merge: false,
      since: NOW - 24 * 3600_000,
      sinceGiven: false,
      agents: [],
      urlColumn: 'url',
      hostColumn: 'host',
      delimiter: ',',
      top: 20,
      quiet: false,
    });
  });

  it('reads agents as product tokens, once each, and tab as a delimiter', () => {
    const o = resolveReportOptions(
      { ...base, agent: ['GPTBot/1.0', 'GPTBot', 'ExampleBot'], delimiter: 'tab' },
      NOW,
    );
    expect(o.agents).toEqual(['GPTBot', 'ExampleBot']);
    expect(o.delimiter).toBe('\t');
  });

  it.each([
    [{ top: '0' }, 'Invalid option `top`: expected an integer from 1 to 1000, got "0" (string)'],
    [{ top: '' }, 'Invalid option `top`: expected an integer from 1 to 1000, got "" (string)'],
    [
      { delimiter: '"' },
      'Invalid option `delimiter`: expected one character other than a quote or line end (or "tab"), got "\\"" (string)',
    ],
    [{ agent: ['/1.0'] }, 'Invalid option `agent`: expected a non-empty product token, got "/1.0" (string)'],
    [{ cache: 'c', robotsDir: 'd' }, 'Invalid options: `cache` and `robots-dir` cannot be used together'],
    [{ merge: true, atColumn: 'time' }, 'Invalid options: `merge` and `at-column` cannot be used together'],
    [{ merge: true, since: '24h' }, 'Invalid options: `merge` and `since` cannot be used together'],
  ])('refuses %j', (extra, message) => {
    expect(() => resolveReportOptions({ ...base, ...extra }, NOW)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', message }),
    );
  });

  it('needs a file and an output', () => {
    expect(() => resolveReportOptions({ json: 'r.json' }, NOW)).toThrow(
      expect.objectContaining({ code: 'ERR_USAGE' }),
    );
    expect(() => resolveReportOptions({ files: ['v.csv'] }, NOW)).toThrow(
      expect.objectContaining({
        code: 'ERR_USAGE',
        message: 'report: give -o FILE.html, --json FILE.json, or both',
      }),
    );
  });
});

describe('the changes window from the previous report', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-since-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const made = '2026-11-25T02:30:00.000Z';
  const previous = path.join(dir, 'last-night.json');
  writeFileSync(previous, JSON.stringify({ schema: 'robots-audit-report', version: 1, generatedAt: made }));
  const notReport = path.join(dir, 'other.json');
  writeFileSync(notReport, JSON.stringify({ generatedAt: made }));

  it('--since FILE.json starts the window when that report was made', () => {
    expect(parseSince(previous, NOW)).toBe(Date.parse(made));
  });

  it.each([
    ['a JSON that is not a report', notReport],
    ['a missing file', path.join(dir, 'none.json')],
  ])('refuses %s', (_what, file) => {
    expect(() => parseSince(file, NOW)).toThrow(
      `Invalid option \`since\`: expected a report JSON file (robots-audit report --json), got ${JSON.stringify(file)} (string)`,
    );
  });

  it('without --since, a --json file that holds a report gives its time', () => {
    const o = resolveReportOptions({ files: ['v.csv'], json: previous }, NOW);
    expect(o.since).toBe(Date.parse(made));
    expect(o.sinceGiven).toBe(false);
  });

  it('without --since, a --json file that is not a report (or is missing) gives the last 24 hours', () => {
    for (const json of [notReport, path.join(dir, 'new.json'), '-']) {
      expect(resolveReportOptions({ files: ['v.csv'], json }, NOW).since).toBe(NOW - 24 * 3600_000);
    }
  });
});
