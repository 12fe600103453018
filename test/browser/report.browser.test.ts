import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../src/pipeline/report/html/render-report.js';
import { fixtureModel } from '../pipeline/report/html/fixture-model.js';
import { launchChromium, openPage } from './open-page.js';

const ON = process.env.ROBOTS_AUDIT_BROWSER_TESTS === '1';

/** The texts of one column of a table's body, top to bottom, as the reader sees them. */
function columnTexts(page: Page, caption: string, column: number): Promise<string[]> {
  return page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator(`tbody tr td:nth-child(${column + 1})`)
    .allInnerTexts();
}

function header(page: Page, caption: string, label: string) {
  return page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('thead th', { hasText: new RegExp(`^${label}`) });
}

describe.runIf(ON)('the report page in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  const model = fixtureModel();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-page-'));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, renderReportHtml(model));
    url = pathToFileURL(file).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads with no request but the page itself and no console error', async () => {
    const { page, log } = await openPage(browser, url);
    await page.locator('th button.sort').first().click();
    expect(log.requests).toEqual([url]);
    expect(log.errors).toEqual([]);
  });

  it('shows the headline figures of the model', async () => {
    const { page } = await openPage(browser, url);
    const figures = await page.locator('ul.figures li').allInnerTexts();
    const en = (n: number) => n.toLocaleString('en-US');
    expect(figures.map((f) => f.replace(/\s+/g, ' ').trim())).toEqual(
      expect.arrayContaining([
        `${en(model.headline.rows)} rows`,
        `${en(model.headline.sites)} sites`,
        `${model.headline.agents.length} agents`,
      ]),
    );
  });

  it('draws one bar per agent in the verdict chart, each segment titled with its agent', async () => {
    const { page } = await openPage(browser, url);
    const chart = page.locator('#headline svg.chart');
    await expect(chart.locator('g.bar').count()).resolves.toBe(model.headline.agents.length);
    const labels = await chart.locator('g.bar text.bar-label').allTextContents();
    expect([...labels].sort()).toEqual([...model.headline.agents].sort());
    const titles = await chart.locator('rect title').allTextContents();
    const segments = Object.values(model.headline.verdicts).flatMap((v) =>
      Object.values(v).filter((n) => n > 0),
    );
    expect(titles).toHaveLength(segments.length);
  });

  it('sorts a table by the clicked header, text and numbers, and toggles the direction', async () => {
    const { page } = await openPage(browser, url);
    const caption = 'Rows by verdict, per agent';
    const agents = await columnTexts(page, caption, 0);
    expect(agents).toHaveLength(model.headline.agents.length);

    await header(page, caption, 'agent').click();
    expect(await columnTexts(page, caption, 0)).toEqual([...agents].sort((a, b) => a.localeCompare(b)));
    await expect(header(page, caption, 'agent').getAttribute('aria-sort')).resolves.toBe('ascending');

    await header(page, caption, 'agent').click();
    expect(await columnTexts(page, caption, 0)).toEqual([...agents].sort((a, b) => b.localeCompare(a)));
    await expect(header(page, caption, 'agent').getAttribute('aria-sort')).resolves.toBe('descending');

    // Numbers sort by value, not as text: ClaudeBot's 1,000 rows come after 400 and 500.
    const rowsOf = (a: string) => Object.values(model.headline.verdicts[a]!).reduce((x, y) => x + y, 0);
    await header(page, caption, 'rows').click();
    const ascending = [...model.headline.agents].sort((a, b) => rowsOf(a) - rowsOf(b));
    expect(await columnTexts(page, caption, 0)).toEqual(ascending);
    await expect(header(page, caption, 'agent').getAttribute('aria-sort')).resolves.toBeNull();
  });

  it('leaves columns of example URLs unsortable: no button in their header', async () => {
    const { page } = await openPage(browser, url);
    const heads = page
      .locator('#violations table', { has: page.locator('caption', { hasText: 'By site' }) })
      .locator('thead th');
    await expect(heads.nth(1).locator('button').count()).resolves.toBe(1);
    await expect(heads.nth(2).innerText()).resolves.toBe('example URLs');
    await expect(heads.nth(2).locator('button').count()).resolves.toBe(0);
  });

  it('reads without JavaScript: the tables and charts are in the page itself', async () => {
    const { page, log } = await openPage(browser, url, { javaScriptEnabled: false });
    expect(await page.locator('th button').count()).toBe(0);
    expect(await columnTexts(page, 'By agent', 0)).toEqual(
      model.violations.byAgent.entries.map((e) => e.agent),
    );
    expect(await page.locator('#over-time svg g.bar').count()).toBe(Object.keys(model.overTime!.rows).length);
    expect(log.requests).toEqual([url]);
  });

  it('shows hostile text as text: no script of the model runs, and no dialog opens', async () => {
    const { page, log } = await openPage(browser, url);
    expect(await page.locator('script').count()).toBe(1);
    await expect(page.locator('#violations').innerText()).resolves.toContain('<script>alert("x")</script>');
    expect(log.dialogs).toEqual([]);
    expect(log.errors).toEqual([]);
  });

  it('prints: the navigation is hidden and a PDF is made', async () => {
    const { page } = await openPage(browser, url);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('nav').isVisible()).resolves.toBe(false);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('renders the whole page 1200 px wide, every section in it', async () => {
    const { page } = await openPage(browser, url, { width: 1200 });
    const png = await page.screenshot({ fullPage: true });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
    const sections = await page.locator('main > section h2').allTextContents();
    expect(sections).toEqual([
      'Headline',
      'Violations',
      'robots.txt outcomes',
      'Crawler access',
      'Changes',
      'Violations per day',
    ]);
  });
});
