// The web console in headless Chromium: every page loads without console errors, data written through the services'
// APIs shows up in their browsers, the clock moved from the UI expires a transient filter set, the request inspector
// follows requests live with their secrets redacted, and the markup is usable by keyboard and labelled.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSuite, launchChromium } from '../helpers/browser.ts';
import { call, DATABASES, DEV_API_KEY, type TestRuntime } from '../helpers/runtime.ts';
import { authRequest, caller, VISA } from '../payments/support.ts';
import { accessibilityViolations, openConsolePage, MERCHANT, screenshot, startConsoleRuntime } from './support.ts';

const PAGES = ['overview', 'secrets', 'payments', 'errorreporting', 'bidding', 'entities', 'requests', 'outbox', 'jobs', 'clock', 'principals'];
const BIDDER_TOKEN = 'bidding-demo-child-token';
const OWNER = 'bidders/1000/accounts/1001';

for (const database of DATABASES) {
  browserSuite(`web console in a browser (${database})`, () => {
    let t: TestRuntime;
    let browser: Browser;
    let rootToken: string;

    before(async () => {
      t = await startConsoleRuntime(database);
      browser = await launchChromium();
      const overview = await call(`${t.adminUrl}/console/api/overview`);
      rootToken = overview.body.services.find((s: { id: string }) => s.id === 'secrets').credentials[0].value;
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    /** A page that fails the test on any console error or uncaught exception. */
    const open = (hash: string) => openConsolePage(browser, t.adminUrl, hash);
    const vault = (method: string, path: string, body?: unknown) =>
      call(`${t.url('secrets')}/v1/${path}`, { method, body, headers: { 'x-vault-token': rootToken } });

    it('loads every page without a console error', async () => {
      for (const name of PAGES) {
        const { page, errors } = await open(name);
        try {
          await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'));
          assert.deepEqual(errors, [], `console errors on ${name}`);
          assert.equal(await page.getAttribute(`nav a[href="#/${name}"]`, 'aria-current'), 'page');
          await screenshot(page, name);
        } finally {
          await page.close();
        }
      }
    });

    it('shows every service with its URL and credentials on the overview', async () => {
      const { page, errors } = await open('overview');
      try {
        await page.waitForSelector('.card');
        const text = (await page.textContent('main'))!;
        for (const id of ['secrets', 'payments', 'bidding', 'errorreporting', 'entities'] as const) assert.ok(text.includes(t.url(id)), `${id} URL`);
        assert.ok(text.includes(rootToken));
        assert.ok(text.includes(DEV_API_KEY));
        // Each service links its OpenAPI document, and the Google-style ones their discovery document.
        const card = (id: string) => page.locator('.card', { has: page.locator('h2', { hasText: new RegExp(`^${id}`) }) });
        assert.equal(await card('errorreporting').getByRole('link', { name: 'OpenAPI' }).getAttribute('href'), `${t.url('errorreporting')}/openapi.json`);
        assert.equal(await card('errorreporting').getByRole('link', { name: 'Discovery' }).getAttribute('href'), `${t.url('errorreporting')}/$discovery/rest`);
        const openapi = await call(`${t.url('payments')}/openapi.json`);
        assert.equal(openapi.status, 200);
        assert.equal(await card('payments').getByRole('link', { name: 'OpenAPI' }).count(), 1);
        assert.equal(await card('payments').getByRole('link', { name: 'Discovery' }).count(), 0);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('shows a secret written through the API in the KV tree, with its versions', async () => {
      assert.equal((await vault('POST', 'secret/data/console/db', { data: { password: 'first' } })).status, 200);
      assert.equal((await vault('POST', 'secret/data/console/db', { data: { password: 'second', user: 'app' } })).status, 200);
      const { page, errors } = await open('secrets');
      try {
        // The tree is worked from the keyboard: Tab to a folder, Enter opens it.
        await page.getByRole('button', { name: /secret\/ \(kv v2\)/ }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('button', { name: /console\// }).click();
        assert.equal(await page.getByRole('button', { name: /console\// }).getAttribute('aria-expanded'), 'true');
        await page.getByRole('button', { name: 'db', exact: true }).click();
        await page.waitForSelector('article table');
        assert.equal(await page.textContent('article h3'), 'secret/console/db');
        const versions = await page.locator('article table tbody tr').allTextContents();
        assert.equal(versions.length, 2);
        assert.match(versions[0], /^2/);
        // Values stay hidden until asked for.
        assert.ok(!(await page.textContent('article'))!.includes('second'));
        await page.getByRole('button', { name: 'Show values' }).click();
        await page.getByRole('button', { name: 'Hide values' }).waitFor();
        assert.ok((await page.textContent('article'))!.includes('"second"'));
        await screenshot(page, 'secrets-entry');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it("shows a payment's timeline through its states", async () => {
      const c = caller(t);
      const sale = await c.post('/v6/authorise', authRequest({ merchantid: MERCHANT, amount: 4200 }));
      assert.equal(sale.status, 200, sale.text);
      const transno = sale.body.AuthResponse.transno;
      assert.equal((await call(`${t.adminUrl}/services/payments/merchants/${MERCHANT}/close-batch`, { method: 'POST' })).status, 200);
      const { page, errors } = await open('payments');
      try {
        const row = page.locator('tr', { hasText: String(transno) }).first();
        await row.getByRole('button', { name: 'Show timeline' }).click();
        const timeline = page.getByRole('list', { name: `Timeline of transaction ${transno}` });
        await timeline.waitFor();
        const steps = await timeline.locator('li .state').allTextContents();
        assert.equal(steps[0], 'open for settlement');
        assert.match(steps[1], /^assigned to a batch \d+/);
        await screenshot(page, 'payments-timeline');
        // A Paylink token shows its own timeline and the hosted page it is paid on.
        const paylink = await call(`${t.url('payments')}/paylink/create`, { body: { amount: 990, identifier: 'console-paylink', merchantid: MERCHANT }, headers: { 'pay-api-key': c.key() } });
        assert.equal(paylink.status, 200, paylink.text);
        await page.getByRole('button', { name: 'Refresh' }).click();
        const link = page.locator('tr', { hasText: 'console-paylink' });
        await link.waitFor();
        assert.equal(await link.getByRole('link', { name: 'open' }).getAttribute('href'), paylink.body.url);
        await link.getByRole('button', { name: 'Show timeline' }).click();
        const created = page.getByRole('list', { name: 'Timeline of Paylink console-paylink' });
        await created.waitFor();
        assert.ok((await created.locator('li').count()) >= 1);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('expires a transient filter set when the clock is moved from the UI', async () => {
      const name = `${OWNER}/filterSets/console-transient`;
      const created = await call(`${t.url('bidding')}/v2beta1/${OWNER}/filterSets?isTransient=true`, {
        body: { name, relativeDateRange: { durationDays: 7 } },
        headers: { authorization: `Bearer ${BIDDER_TOKEN}` },
      });
      assert.equal(created.status, 200, created.text);
      const { page, errors } = await open('bidding');
      try {
        await page.waitForSelector(`code:text-is("${name}")`);
        assert.ok((await page.textContent('main'))!.includes('transient'));
        await page.getByRole('link', { name: 'Clock' }).click();
        await page.getByLabel('Advance by (90s, 2h, 3d)').fill('61m');
        await page.getByRole('button', { name: 'Advance' }).click();
        await page.waitForSelector('p[role="status"]:has-text("job(s) ran")');
        await page.getByRole('link', { name: 'Bidding' }).click();
        await page.waitForSelector('caption:text("Filter sets"), p:text("No filter sets.")');
        assert.ok(!(await page.textContent('main'))!.includes(name));
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
      assert.equal((await call(`${t.url('bidding')}/v2beta1/${name}`, { headers: { authorization: `Bearer ${BIDDER_TOKEN}` } })).status, 404);
    });

    it('charts daily bid metrics from the events ingested', async () => {
      const base = { bidder: '1000', account: '1001', format: 'NON_NATIVE_DISPLAY', environment: 'WEB', platform: 'DESKTOP' };
      const events = [
        { ...base, time: '2026-05-03T10:00:00Z', bid: true, inAuction: true, won: true, billed: true },
        { ...base, time: '2026-05-03T11:30:00Z', bid: true, inAuction: true, won: true, billed: true },
        { ...base, time: '2026-05-04T08:00:00Z', bid: true },
      ];
      const res = await call(`${t.adminUrl}/services/bidding/events`, { body: events });
      assert.equal(res.status, 200, res.text);
      const { page, errors } = await open('bidding');
      try {
        await page.getByRole('img', { name: /Daily bid metrics of bidder 1000/ }).waitFor();
        await page.getByText('Numbers').click();
        const rows = page.locator('table', { has: page.locator('caption', { hasText: 'Bidder 1000 per day' }) }).locator('tbody tr');
        const byDay = Object.fromEntries((await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)))).map((cells) => [cells[0], cells.slice(1).join(' ')]));
        assert.equal(byDay['2026-05-03'], '2 2 2 2');
        assert.equal(byDay['2026-05-04'], '1 0 0 0');
        assert.equal(byDay['2026-05-02'], '0 0 0 0');
        await screenshot(page, 'bidding-metrics');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('shows error groups with their counts and an event with its stack trace', async () => {
      const trace = 'TypeError: console went wrong\n    at render (/srv/app/view.js:12:5)\n    at main (/srv/app/index.js:3:1)';
      for (let i = 0; i < 2; i++) {
        const res = await call(`${t.url('errorreporting')}/v1beta1/projects/console-project/events:report?key=${DEV_API_KEY}`, { body: { serviceContext: { service: 'web', version: 'v7' }, message: trace } });
        assert.equal(res.status, 200, res.text);
      }
      const { page, errors } = await open('errorreporting');
      try {
        const row = page.locator('tr', { hasText: 'console-project' });
        await row.waitFor();
        const cells = await row.locator('td').allTextContents();
        assert.equal(cells[4], '2');
        await row.getByRole('button', { name: 'Events' }).click();
        await page.waitForSelector('pre.stack');
        assert.ok((await page.locator('pre.stack').first().textContent())!.includes('at render (/srv/app/view.js:12:5)'));
        assert.equal(await page.locator('pre.stack').count(), 2);
        await screenshot(page, 'errorreporting-events');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('follows requests live in the inspector, redacting card data and credentials', async () => {
      const { page, errors } = await open('requests/payments');
      try {
        await page.waitForSelector('p[role="status"]:has-text("Live")');
        const authorisations = page.locator('tbody tr', { hasText: '/v6/authorise' });
        const before = await authorisations.count();
        // Not a run of 13 digits: a millisecond timestamp passes the Luhn check one time in ten and is masked as a card.
        const identifier = `live-${Date.now().toString(36)}`;
        const sale = await caller(t).post('/v6/authorise', authRequest({ merchantid: MERCHANT, identifier }));
        assert.equal(sale.status, 200, sale.text);
        // The new request arrives through the event stream, at the top.
        await page.waitForFunction((n) => Array.from(document.querySelectorAll('tbody tr')).filter((tr) => tr.textContent?.includes('/v6/authorise')).length > n, before);
        const row = page.locator(`tbody tr[data-request-id="${sale.headers.get('x-request-id')}"]`);
        await row.getByRole('button', { name: 'Bodies' }).click();
        await page.waitForSelector('tr.bodies');
        const bodies = (await page.textContent('tr.bodies'))!;
        assert.ok(bodies.includes(identifier), 'the request body is shown');
        assert.ok(!bodies.includes(VISA), 'the card number is not');
        assert.ok(bodies.includes('[redacted]'));
        await screenshot(page, 'requests');
        // The filter narrows what is shown.
        await page.getByLabel('Status').selectOption('5xx');
        await page.waitForSelector('p[role="status"]:has-text("0 shown")');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
      const kept = await call(`${t.adminUrl}/console/api/requests?limit=5000`);
      assert.equal(kept.status, 200);
      for (const secret of [VISA, rootToken, 'second']) assert.ok(!kept.text.includes(secret), `the inspector keeps no ${secret === VISA ? 'card number' : 'secret'}`);
    });

    it('issues and revokes a credential from the principals page', async () => {
      const { page, errors } = await open('principals');
      try {
        await page.getByLabel('Principal', { exact: true }).selectOption('developer');
        await page.getByLabel('Label', { exact: true }).fill('console key');
        await page.getByRole('button', { name: 'Issue' }).click();
        const value = await page.locator('.issued code').textContent();
        assert.ok(value && value.length > 10);
        const listed = await call(`${t.url('entities')}/v1/entities:search?query=paris&key=${value}`);
        assert.equal(listed.status, 200, 'the issued key works');
        page.once('dialog', (d) => void d.accept());
        await page.getByRole('button', { name: 'Revoke api_key console key' }).click();
        await page.waitForSelector('p[role="status"]:has-text("Revoked.")');
        const revoked = await call(`${t.url('entities')}/v1/entities:search?query=paris&key=${value}`);
        assert.notEqual(revoked.status, 200, 'the revoked key is refused');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('passes the axe-core WCAG 2 A and AA checks on every page', async () => {
      const violations = await accessibilityViolations(browser, t.adminUrl, PAGES);
      assert.deepEqual(violations, Object.fromEntries(PAGES.map((name) => [name, []])));
    });

    it('resets one service from the overview and leaves the others', async () => {
      const before = await call(`${t.adminUrl}/console/api/bidding/metrics`);
      assert.ok(before.body.bidders.length > 0, 'bid events from an earlier test');
      const { page, errors } = await open('overview');
      try {
        page.once('dialog', (d) => void d.accept());
        await page.getByRole('button', { name: 'Reset bidding' }).click();
        await page.waitForSelector('p[role="status"]:has-text("bidding was reset.")');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
      assert.deepEqual((await call(`${t.adminUrl}/console/api/bidding/metrics`)).body.bidders, []);
      assert.ok((await call(`${t.adminUrl}/console/api/payments/transactions`)).body.transactions.length > 0);
    });

    it('labels every form control and works from the keyboard', async () => {
      for (const name of ['requests', 'clock', 'principals', 'entities']) {
        const { page } = await open(name);
        try {
          const unlabelled = await page.evaluate(() =>
            Array.from(document.querySelectorAll('input, select, textarea')).filter((el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute('aria-label')).map((el) => el.outerHTML),
          );
          assert.deepEqual(unlabelled, [], `unlabelled controls on ${name}`);
        } finally {
          await page.close();
        }
      }
      const { page } = await open('overview');
      try {
        // The first Tab reaches the skip link, the next ones the navigation; Enter follows a link and the new page's
        // heading takes the focus.
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Secrets');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'page-title' && document.activeElement.textContent === 'Secrets');
        // Entity search from the keyboard: type, Enter submits.
        await page.goto(`${t.adminUrl}/#/entities`);
        await page.getByLabel('Search entities').focus();
        await page.keyboard.type('Paris');
        await page.keyboard.press('Enter');
        await page.getByRole('list', { name: 'Search results' }).waitFor();
        assert.ok((await page.getByRole('list', { name: 'Search results' }).textContent())!.includes('Paris'));
      } finally {
        await page.close();
      }
    });
  });
}
