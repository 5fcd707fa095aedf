// Shared by the console suites: a runtime with the services the console browses (manual clock, a payment merchant
// without 3-D Secure), and where screenshots go.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { CLIENT, LICENCE } from '../payments/support.ts';

export const MERCHANT = 46001;
export const START = Date.parse('2026-05-04T09:00:00Z');

export function startConsoleRuntime(database: 'sqlite' | 'postgres'): Promise<TestRuntime> {
  return startTestRuntime({
    services: ['secrets', 'payments', 'bidding', 'errorreporting', 'entities'],
    database,
    clock: 'manual',
    clockStart: START,
    settings: {
      payments: { dev_licence_key: LICENCE, merchants: [{ merchantid: MERCHANT, clientid: CLIENT, name: 'Console Shop', currency: 'GBP', three_d_secure: false }] },
    },
  });
}

/** Test artefacts (gitignored); TWINSTACK_CONSOLE_DOCS=1 also refreshes the screenshots the docs show. */
const ARTEFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'console');
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'console');

/** The screenshots docs/console.md shows. */
const DOC_SHOTS = new Set(['overview', 'secrets-entry', 'payments-timeline', 'requests', 'bidding-metrics', 'errorreporting-events', 'files', 'calendar']);

/** A console page, with the console errors and uncaught exceptions it raises collected for the test to assert on. */
export async function openConsolePage(browser: Browser, adminUrl: string, hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${adminUrl}/#/${hash}`);
  await page.waitForSelector('h1#page-title');
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
  if (process.env.TWINSTACK_CONSOLE_DOCS === '1' && DOC_SHOTS.has(name)) await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage: false });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * The axe-core WCAG 2 A and AA violations of each console page (`#/<name>`), once its data has loaded. The page's own
 * CSP admits no injected script, so the checker runs in a context of its own with CSP bypassed.
 */
export async function accessibilityViolations(browser: Browser, adminUrl: string, pages: string[]): Promise<Record<string, string[]>> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 860 } });
  const out: Record<string, string[]> = {};
  try {
    for (const name of pages) {
      const page = await context.newPage();
      await page.goto(`${adminUrl}/#/${name}`);
      await page.waitForSelector('h1#page-title');
      await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'));
      await page.addScriptTag({ path: AXE });
      out[name] = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] });
        return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
      });
      await page.close();
    }
  } finally {
    await context.close();
  }
  return out;
}
