import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../../src/pipeline/report/build-report.js';
import { asReport, mergeReports } from '../../../src/pipeline/report/merge-reports.js';
import type { ReportModel } from '../../../src/pipeline/report/report-model.js';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'merge-reports-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const HEADER = 'time,url,verdict:A,rule_line:A,rule:A,verdict:B,rule_line:B,rule:B,robots_status,error_code';

/** Per site: the robots_status its rows carry. */
const SITES: Record<string, string> = {
  'https://s0.example': '200',
  'https://s1.example': '200',
  'http://s2.example:8080': 'file',
  'https://s3.example': '404',
  'https://s4.example': '503',
  'https://s5.example': 'ERR_DNS',
};

const JUDGED = [
  ['allowed_implicit', '', ''],
  ['allowed_explicit', '3', 'Allow: /a'],
  ['disallowed_explicit', '2', 'Disallow: /'],
  ['disallowed_explicit', '4', 'Disallow: /b'],
] as const;

interface Row {
  site: string;
  line: string;
}

function row(site: string, path: number, day: number, a: number, b: number): Row {
  const status = SITES[site]!;
  const judged = (k: number) => {
    if (status === '404') return ['allowed_unavailable', '', ''];
    if (status === '503' || status === 'ERR_DNS') return ['disallowed_unreachable', '', ''];
    return JUDGED[k]!;
  };
  const [va, la, ra] = judged(a);
  const [vb, lb, rb] = judged(b);
  const time = day < 3 ? `2026-11-2${day}T12:00:00Z` : 'not a time';
  return { site, line: `${time},${site}/p${path},${va},${la},${ra},${vb},${lb},${rb},${status},` };
}

const rowArb = fc
  .tuple(
    fc.constantFrom(...Object.keys(SITES)),
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 0, max: JUDGED.length - 1 }),
    fc.integer({ min: 0, max: JUDGED.length - 1 }),
  )
  .map(([s, p, d, a, b]) => row(s, p, d, a, b));

async function report(rows: readonly Row[]): Promise<ReportModel> {
  const p = path.join(dir, `part-${n++}.csv`);
  writeFileSync(p, [HEADER, ...rows.map((r) => r.line)].join('\n'));
  return buildReport({ files: [p], atColumn: 'time', now: new Date(0) });
}

/** What a merge must reproduce: everything but where the rows came from. */
function figures(m: ReportModel): Omit<ReportModel, 'inputs' | 'mergedReports' | 'generatedAt'> {
  const { inputs: _i, mergedReports: _m, generatedAt: _g, ...rest } = m;
  return rest;
}

describe('mergeReports', () => {
  it('merges the reports of host shards into the report of the whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.func(fc.nat()),
        async (rows, parts, shardOf) => {
          const whole = await report(rows);
          const shards: Row[][] = Array.from({ length: parts }, () => []);
          for (const r of rows) shards[shardOf(r.site) % parts]!.push(r);
          const reports = await Promise.all(shards.map(report));
          const merged = reports.reduce((a, b) => mergeReports(a, b));
          expect(figures(merged)).toEqual(figures(whole));
          expect(merged.mergedReports).toBe(parts);
          expect(merged.inputs.map((i) => i.rows)).toEqual(shards.map((s) => s.length));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps the examples of the whole whatever the order rows came in', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => row('https://s0.example', i, 0, 2, 2));
    const forward = await report(rows);
    const backward = await report([...rows].reverse());
    expect(backward.violations.bySite.entries).toEqual(forward.violations.bySite.entries);
    expect(forward.violations.bySite.entries[0]!.examples).toHaveLength(3);
  });

  it('refuses reports made with and without a time column', async () => {
    const a = await report([row('https://s0.example', 1, 0, 0, 0)]);
    const b = { ...a, options: { ...a.options, atColumn: null }, overTime: null };
    expect(() => mergeReports(a, b)).toThrow(expect.objectContaining({ code: 'ERR_USAGE' }));
  });
});

describe('asReport', () => {
  it.each([
    [{ schema: 'something-else', version: 1 }, /not a robots-audit report JSON/],
    [[1, 2], /not a robots-audit report JSON/],
    [{ schema: 'robots-audit-report', version: 2 }, /version 2 was written by a newer robots-audit/],
    [{ schema: 'robots-audit-report', version: 1, headline: {} }, /has no "violations"/],
  ])('refuses %j', (value, message) => {
    expect(() => asReport(value, 'x.json')).toThrow(
      expect.objectContaining({ code: 'ERR_REPORT_JSON', message: expect.stringMatching(message) }),
    );
  });
});
