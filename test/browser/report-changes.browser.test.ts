import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { observation, seedCache } from '../pipeline/cache/cache-fixtures.js';
import { launchChromium, openPage } from './open-page.js';

const ON = process.env.ROBOTS_AUDIT_BROWSER_TESTS === '1';
const HOUR = 3_600_000;

// news.example closed itself to GPTBot an hour ago (line 5); shop.example has not changed for ten days.
const NEWS_BEFORE = 'User-agent: *\nDisallow: /tmp\n\nUser-agent: GPTBot\nAllow: /\n';
const NEWS_NOW = 'User-agent: *\nDisallow: /tmp\n\nUser-agent: GPTBot\nDisallow: /\n';
const SHOP = 'User-agent: *\nDisallow: /cart\n';
const NEWS_ROWS = ['/a', '/tmp/x', '/b'];

function rowOf(page: Page, caption: string, firstCell: string) {
  return page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody tr', { has: page.locator('td:first-child', { hasText: firstCell }) });
}

describe.runIf(ON)('a report with a cache: the crawler access and changes sections in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-changes-'));
    const now = Date.now();
    seedCache(path.join(dir, 'cache.sqlite'), [
      observation('https://news.example', NEWS_BEFORE, now - 240 * HOUR),
      observation('https://shop.example', SHOP, now - 240 * HOUR),
      observation('https://news.example', NEWS_NOW, now - HOUR),
    ]);
    const rows = [
      ...NEWS_ROWS.map((p) => `news.example,https://news.example${p}`),
      'shop.example,https://shop.example/cart/1',
      'shop.example,https://shop.example/p',
    ];
    writeFileSync(path.join(dir, 'crawl.csv'), `host,url\n${rows.join('\n')}\n`);
    const classify = await runCli(
      [
        'classify',
        'crawl.csv',
        '--offline',
        '--cache',
        'cache.sqlite',
        '--agent',
        'GPTBot',
        '--agent',
        'Googlebot',
        '-o',
        'verdicts.csv',
        '--quiet',
      ],
      { cwd: dir },
    );
    expect(classify.stderr).toBe('');
    const report = await runCli(
      ['report', 'verdicts.csv', '--cache', 'cache.sqlite', '--since', '24h', '-o', 'report.html', '--quiet'],
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

  it('shows the changed group as rule lines added and removed', async () => {
    const { page, log } = await openPage(browser, url);
    const changes = page.locator('#changes');
    await expect(changes.locator('li.diff-add').allInnerTexts()).resolves.toEqual(['+ Disallow: /']);
    await expect(changes.locator('li.diff-del').allInnerTexts()).resolves.toEqual(['− Allow: /']);
    const site = rowOf(page, 'Changed sites', 'https://news.example');
    await expect(site.locator('td').nth(1).innerText()).resolves.toBe(String(NEWS_ROWS.length));
    await expect(rowOf(page, 'Changed sites', 'https://shop.example').count()).resolves.toBe(0);
    expect(log.requests).toEqual([url]);
    expect(log.errors).toEqual([]);
  });

  it('counts every GPTBot row of the changed site as a flip to disallowed, with the new rule', async () => {
    const { page } = await openPage(browser, url);
    const flip = rowOf(page, 'Flips per site and agent', 'https://news.example');
    const cells = await flip.locator('td').allInnerTexts();
    expect(cells.slice(0, 5)).toEqual([
      'https://news.example',
      'GPTBot',
      String(NEWS_ROWS.length),
      '0',
      'new line 5: Disallow: /',
    ]);
  });

  it('shows each site’s access for each agent as a word and a colour', async () => {
    const { page } = await openPage(browser, url);
    const table = page.locator('table', {
      has: page.locator('caption', { hasText: 'Access per site and agent' }),
    });
    const heads = await table.locator('thead th').allInnerTexts();
    const column = (agent: string) => heads.findIndex((h) => h.replace(/\s*[↕↑↓]$/, '') === agent);
    expect(column('GPTBot')).toBeGreaterThan(0);
    const news = table.locator('tbody tr', { hasText: 'https://news.example' });
    const gpt = news.locator('td').nth(column('GPTBot'));
    await expect(gpt.innerText()).resolves.toBe('blocked · line 5');
    await expect(gpt.getAttribute('class')).resolves.toBe('access-full');
    const google = news.locator('td').nth(column('Googlebot'));
    await expect(google.innerText()).resolves.toBe('partly · line 2');
    await expect(google.getAttribute('class')).resolves.toBe('access-partial');
  });
});
