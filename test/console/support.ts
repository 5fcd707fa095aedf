// Shared by the console suites: a runtime with the services the console browses (manual clock, a payment merchant
// without 3-D Secure), and where screenshots go.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
  if (process.env.TWINSTACK_CONSOLE_DOCS === '1' && DOC_SHOTS.has(name)) await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage: false });
}
