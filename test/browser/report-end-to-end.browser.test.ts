import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HtmlValidate } from 'html-validate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { launchChromium, openPage } from './open-page.js';

const ON = process.env.ROBOTS_AUDIT_BROWSER_TESTS === '1';
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'data', 'sample');
const DOCS_SCREENSHOT = path.join(ROOT, 'docs', 'report.png');
const AGENTS = ['Googlebot', 'GPTBot', 'ClaudeBot'];

interface ClassifySummary {
  rowsWritten: number;
  verdicts: Record<string, Record<string, number>>;
}

describe.runIf(ON)('classify, then report, then the page in Chromium (the sample crawl log)', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  let summary: ClassifySummary;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-e2e-'));
    // Relative names, run in the temp dir: the page names its input as given.
    const verdicts = 'verdicts.csv';
    const classify = await runCli(
      [
        'classify',
        path.join(SAMPLE, 'crawl.csv'),
        '--robots-dir',
        path.join(SAMPLE, 'robots'),
        ...AGENTS.flatMap((a) => ['--agent', a]),
        '--summary',
        path.join(dir, 'summary.json'),
        '-o',
        verdicts,
        '--quiet',
      ],
      { cwd: dir },
    );
    expect(classify.stderr).toBe('');
    expect(classify.code).toBe(0);
    summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as ClassifySummary;
    const report = await runCli(
      [
        'report',
        verdicts,
        '--robots-dir',
        path.join(SAMPLE, 'robots'),
        '--at-column',
        'fetched_at',
        '-o',
        'report.html',
        '--quiet',
      ],
      { cwd: dir },
    );
    expect(report.stderr).toBe('');
    expect(report.code).toBe(0);
    url = pathToFileURL(path.join(dir, 'report.html')).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the rows and violations classify counted, and one bar per agent', async () => {
    const { page, log } = await openPage(browser, url);
    const figures = (await page.locator('ul.figures li').allInnerTexts()).map((f) =>
      f.replace(/\s+/g, ' ').trim(),
    );
    // Violations as classify's own summary counts them: each agent's disallowed rows.
    let violations = 0;
    for (const a of AGENTS) {
      const v = summary.verdicts[a]!;
      violations += (v.disallowed_explicit ?? 0) + (v.disallowed_unreachable ?? 0);
    }
    expect(violations).toBeGreaterThan(0);
    expect(figures).toEqual(
      expect.arrayContaining([
        `${summary.rowsWritten.toLocaleString('en-US')} rows`,
        `${AGENTS.length} agents`,
        `${violations.toLocaleString('en-US')} violations`,
      ]),
    );
    const labels = await page.locator('#headline svg.chart g.bar text.bar-label').allTextContents();
    expect([...labels].sort()).toEqual([...AGENTS].sort());
    expect(log.requests).toEqual([url]);
    expect(log.errors).toEqual([]);
  });

  it('is valid HTML (html-validate, recommended preset)', async () => {
    const report = await new HtmlValidate({ extends: ['html-validate:recommended'] }).validateString(
      readFileSync(path.join(dir, 'report.html'), 'utf8'),
    );
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
  });

  it('sorts the violations by site numerically both ways', async () => {
    const { page, log } = await openPage(browser, url);
    const table = page.locator('#violations table', { has: page.locator('caption', { hasText: 'By site' }) });
    const counts = () =>
      table
        .locator('tbody td:nth-child(2)')
        .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
    const before = await counts();
    expect(before.length).toBeGreaterThan(3);
    const head = table.locator('thead th', { hasText: /^violations/ });
    await head.click();
    expect(await counts()).toEqual([...before].sort((a, b) => a - b));
    await expect(head.getAttribute('aria-sort')).resolves.toBe('ascending');
    await head.click();
    expect(await counts()).toEqual([...before].sort((a, b) => b - a));
    await expect(head.getAttribute('aria-sort')).resolves.toBe('descending');
    expect(log.errors).toEqual([]);
  });

  it('shows the same figures for the merged reports of two host shards', async () => {
    for (const k of [1, 2]) {
      const shard = await runCli(
        [
          'classify',
          path.join(SAMPLE, 'crawl.csv'),
          '--robots-dir',
          path.join(SAMPLE, 'robots'),
          ...AGENTS.flatMap((a) => ['--agent', a]),
          '--shard',
          `${k}/2`,
          '-o',
          `part-${k}.csv`,
          '--quiet',
        ],
        { cwd: dir },
      );
      expect(shard.code).toBe(0);
      const part = await runCli(['report', `part-${k}.csv`, '--json', `part-${k}.json`, '--quiet'], {
        cwd: dir,
      });
      expect(part.stderr).toBe('');
    }
    const merged = await runCli(
      ['report', '--merge', 'part-1.json', 'part-2.json', '-o', 'merged.html', '--quiet'],
      {
        cwd: dir,
      },
    );
    expect(merged.stderr).toBe('');
    const { page: whole } = await openPage(browser, url);
    const { page, log } = await openPage(browser, pathToFileURL(path.join(dir, 'merged.html')).href);
    const figures = async (p: typeof page) =>
      (await p.locator('ul.figures li').allInnerTexts()).map((f) => f.replace(/\s+/g, ' ').trim());
    expect(await figures(page)).toEqual(await figures(whole));
    expect(await page.locator('#headline svg.chart g.bar').count()).toBe(AGENTS.length);
    expect(await page.locator('p.meta').innerText()).toContain('merged from 2 reports');
    expect(log.errors).toEqual([]);
  });

  it('takes the README screenshot: the first screen, 1200 px wide (docs/report.png with UPDATE_SCREENSHOT=1)', async () => {
    const { page } = await openPage(browser, url, { width: 1200 });
    const shot = path.join(dir, 'report.png');
    await page.screenshot({ path: shot });
    const png = readFileSync(shot);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
    if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(shot, DOCS_SCREENSHOT);
  });
});
