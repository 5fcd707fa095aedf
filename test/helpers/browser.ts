// Headless Chromium for the suites that drive pages in a real browser: Debian's /usr/bin/chromium through
// playwright-core. Suites skip with a note where it is not installed.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** false when Chromium is installed, else the reason a browser suite is skipped. */
export const SKIP_WITHOUT_CHROMIUM: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
