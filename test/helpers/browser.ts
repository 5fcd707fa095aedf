// Headless Chromium for the suites that drive pages in a real browser: Debian's /usr/bin/chromium through
// playwright-core. Suites skip with a note where it is not installed.
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** false when Chromium is installed, else the reason a browser suite is skipped. */
export const SKIP_WITHOUT_CHROMIUM: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;

/**
 * A suite that needs Chromium. Without it, one skipped test stands in its place: a skipped describe block shows a
 * note but is not counted in the runner's skipped total, and a skipped browser suite should be seen.
 */
export function browserSuite(name: string, body: () => void): void {
  if (SKIP_WITHOUT_CHROMIUM) it(name, { skip: SKIP_WITHOUT_CHROMIUM }, () => {});
  else describe(name, body);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
