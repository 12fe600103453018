import { type Browser, chromium, type Page } from 'playwright-core';

/** The system's Chromium, headless, with every background request it would make on its own turned off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page did: every request it made, console errors, uncaught exceptions and dialogs it opened. */
export interface PageLog {
  requests: string[];
  errors: string[];
  dialogs: string[];
}

/** Opens `url` in a new page of its own context, recording its requests and errors from the first one. */
export async function openPage(
  browser: Browser,
  url: string,
  options: { javaScriptEnabled?: boolean; width?: number } = {},
): Promise<{ page: Page; log: PageLog }> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1200, height: 900 },
  });
  const page = await context.newPage();
  const log: PageLog = { requests: [], errors: [], dialogs: [] };
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.errors.push(`exception: ${e.message}`));
  page.on('dialog', (d) => {
    log.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, log };
}
