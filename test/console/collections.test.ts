// The console's browsers of files, calendar, catalog and books in headless Chromium: what was created through each
// service's API appears (a file with its preview and revision, a week with a single event and a recurring series
// expanded, a product with its status, a book search and a shelf), without console errors.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSuite, launchChromium } from '../helpers/browser.ts';
import { call, DATABASES, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { product, SUB } from '../catalog/helpers.ts';
import { accessibilityViolations, openConsolePage, screenshot, START } from './support.ts';

const auth = { authorization: `Bearer ${DEV_TOKEN}` };

for (const database of DATABASES) {
  browserSuite(`console browsers of files, calendar, catalog and books (${database})`, () => {
    let t: TestRuntime;
    let browser: Browser;

    before(async () => {
      t = await startTestRuntime({ services: ['files', 'calendar', 'catalog', 'books'], database, clock: 'manual', clockStart: START });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    const open = (hash: string) => openConsolePage(browser, t.adminUrl, hash);

    it('shows an uploaded file in the folder tree with its preview, revision and download', async () => {
      const res = await fetch(`${t.url('files')}/upload/storage/v2/files?uploadType=media`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hello from the console test' });
      assert.equal(res.status, 200, await res.clone().text());
      const { id } = (await res.json()) as { id: string };
      const { page, errors } = await open('files');
      try {
        await page.getByRole('button', { name: 'developer@twinstack.local: My Drive' }).click();
        assert.equal(await page.getByRole('button', { name: 'developer@twinstack.local: My Drive' }).getAttribute('aria-expanded'), 'true');
        await page.getByRole('button', { name: 'Untitled', exact: true }).click();
        await page.waitForSelector('pre.preview');
        assert.equal(await page.textContent('pre.preview'), 'hello from the console test');
        assert.equal(await page.locator('article table').first().locator('tbody tr').count(), 1);
        const href = await page.getByRole('link', { name: 'Download' }).first().getAttribute('href');
        const download = await call(`${t.adminUrl}${href}`);
        assert.equal(download.text, 'hello from the console test');
        assert.match(download.headers.get('content-disposition') ?? '', /^attachment/);
        assert.match(download.headers.get('content-security-policy') ?? '', /sandbox/);
        assert.ok(href!.includes(id));
        await screenshot(page, 'files');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
      // Sharing it sends an e-mail, which the outbox page shows.
      const shared = await call(`${t.url('files')}/storage/v2/files/${id}/permissions?sendNotificationEmails=true`, { body: { type: 'user', role: 'reader', value: 'reader@example.test' }, headers: auth });
      assert.equal(shared.status, 200, shared.text);
      const outbox = await open('outbox');
      try {
        const message = outbox.page.locator('ol.messages li', { hasText: 'reader@example.test' });
        await message.waitFor();
        assert.match((await message.textContent())!, /shared "Untitled" with you/);
        assert.deepEqual(outbox.errors, []);
      } finally {
        await outbox.page.close();
      }
    });

    it('shows a week with a single event and the instances of a recurring one', async () => {
      const api = (body: unknown) => call(`${t.url('calendar')}/calendar/v3/calendars/primary/events`, { body, headers: auth });
      assert.equal((await api({ summary: 'Console review', start: { dateTime: '2026-05-05T10:00:00Z' }, end: { dateTime: '2026-05-05T11:00:00Z' } })).status, 200);
      const series = await api({ summary: 'Standup', start: { dateTime: '2026-05-06T09:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2026-05-06T09:15:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
      assert.equal(series.status, 200, series.text);
      const { page, errors } = await open('calendar');
      try {
        const week = page.getByRole('list', { name: 'Week of 2026-05-04' });
        await week.waitFor();
        const days = await week.locator('li.day').allTextContents();
        assert.equal(days.length, 7);
        assert.ok(days[1].includes('Console review'));
        for (const d of [2, 3, 4]) assert.ok(days[d].includes('Standup'), `day ${d}`);
        assert.ok(!days[5].includes('Standup'));
        await screenshot(page, 'calendar');
        await page.getByRole('button', { name: 'Next week' }).click();
        await page.getByRole('list', { name: 'Week of 2026-05-11' }).waitFor();
        assert.ok(!(await page.textContent('main'))!.includes('Standup'));
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('shows a product with its destinations and issues', async () => {
      const res = await call(`${t.url('catalog')}/content/v2.1/${SUB}/products`, { body: product('console-1', { title: 'Console kettle' }), headers: auth });
      assert.equal(res.status, 200, res.text);
      const { page, errors } = await open('catalog');
      try {
        const row = page.locator('tr', { hasText: 'Console kettle' });
        await row.waitFor();
        assert.ok((await row.textContent())!.includes('online:en:US:console-1'));
        await screenshot(page, 'catalog');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    it('passes the axe-core WCAG 2 A and AA checks on these pages', async () => {
      const pages = ['files', 'calendar', 'catalog', 'books', 'outbox'];
      assert.deepEqual(await accessibilityViolations(browser, t.adminUrl, pages), Object.fromEntries(pages.map((name) => [name, []])));
    });

    it('searches books and shows the shelves in use', async () => {
      const found = await call(`${t.url('books')}/books/v1/volumes?q=whale`, { headers: auth });
      assert.equal(found.status, 200, found.text);
      const volumeId = found.body.items[0].id;
      assert.equal((await call(`${t.url('books')}/books/v1/mylibrary/bookshelves/0/addVolume?volumeId=${volumeId}`, { method: 'POST', headers: auth })).status, 204);
      const { page, errors } = await open('books');
      try {
        await page.getByLabel('Search books').fill('whale');
        await page.getByRole('button', { name: 'Search' }).click();
        const results = page.locator('table', { has: page.locator('caption', { hasText: 'Search results' }) });
        await results.waitFor();
        assert.ok((await results.textContent())!.includes(volumeId));
        const shelves = (await page.locator('table', { has: page.locator('caption', { hasText: 'Shelves per user' }) }).textContent())!;
        assert.ok(shelves.includes('Favorites') && shelves.includes(volumeId));
        await screenshot(page, 'books');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  });
}
