// Behaviour over time and over the network: conversion source expiry, program reviews, datafeeds fetched from a local
// server (now and on schedule), status notifications as webhooks, quotas, and reports over simulated performance.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DATABASES, call } from '../helpers/runtime.ts';
import { MCA, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const START = Date.parse('2026-03-02T08:00:00Z');

interface Local {
  server: Server;
  url: string;
  feed: string;
  received: Array<{ path: string; body: string }>;
}

async function startLocal(): Promise<Local> {
  const local = { feed: '', received: [] as Array<{ path: string; body: string }> } as Local;
  local.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/feed.tsv') {
        res.writeHead(200, { 'content-type': 'text/tab-separated-values' }).end(local.feed);
      } else if (req.method === 'POST') {
        local.received.push({ path: req.url ?? '', body });
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => local.server.listen(0, '127.0.0.1', r));
  local.url = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
  return local;
}

const TSV_HEADER = 'id\ttitle\tdescription\tlink\timage_link\tprice\tavailability\tcondition\tbrand\tgtin';
const tsvLine = (id: string, price = '10.00 USD') => `${id}\tFeed item ${id}\tA feed item\thttps://shop.example.com/${id}\thttps://shop.example.com/${id}.jpg\t${price}\tin stock\tnew\tAcme\t4006381333931`;

for (const database of DATABASES) {
  describe(`catalog lifecycle (${database})`, () => {
    let c: CatalogRuntime;
    let local: Local;
    const advance = (by: string) => call(`${c.t.adminUrl}/clock`, { body: { advance: by } });

    before(async () => {
      local = await startLocal();
      c = await startCatalog(database, { clock: 'manual', clockStart: START, settings: { quota: { methods: { 'regions.list': 3 } }, conversionSourceGraceDays: 30 } });
    });
    after(async () => {
      await c.close();
      await new Promise((r) => local.server.close(r));
    });

    it('conversion sources: delete archives, undelete restores, the grace period ends in removal', async () => {
      const content = c.client();
      const body = { merchantCenterDestination: { displayName: 'Checkout', currencyCode: 'USD', attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' } } };
      const a = await content.conversionsources.create({ merchantId: SUB, requestBody: body });
      assert.equal(a.data.state, 'ACTIVE');
      const id = a.data.conversionSourceId!;
      await content.conversionsources.delete({ merchantId: SUB, conversionSourceId: id });
      const archived = await content.conversionsources.get({ merchantId: SUB, conversionSourceId: id });
      assert.equal(archived.data.state, 'ARCHIVED');
      assert.equal(archived.data.expireTime, new Date(START + 30 * 86_400_000).toISOString());
      assert.equal((await content.conversionsources.list({ merchantId: SUB })).data.conversionSources, undefined);
      assert.equal((await content.conversionsources.list({ merchantId: SUB, showDeleted: true })).data.conversionSources!.length, 1);
      assert.equal((await c.api(`/${SUB}/conversionsources/${id}`, { method: 'PATCH', body: { merchantCenterDestination: { displayName: 'x' } } })).status, 404);
      await content.conversionsources.undelete({ merchantId: SUB, conversionSourceId: id, requestBody: {} });
      assert.equal((await content.conversionsources.get({ merchantId: SUB, conversionSourceId: id })).data.state, 'ACTIVE');
      assert.equal((await c.api(`/${SUB}/conversionsources/${id}:undelete`, { body: {} })).status, 400);
      await content.conversionsources.delete({ merchantId: SUB, conversionSourceId: id });
      await advance('29d');
      assert.equal((await c.api(`/${SUB}/conversionsources/${id}`)).status, 200);
      await advance('2d');
      assert.equal((await c.api(`/${SUB}/conversionsources/${id}`)).status, 404);
      for (const bad of [{}, { ...body, googleAnalyticsLink: { propertyId: '1' } }, { merchantCenterDestination: { ...body.merchantCenterDestination, currencyCode: 'usd' } }, { merchantCenterDestination: { ...body.merchantCenterDestination, attributionSettings: { attributionLookbackWindowInDays: 120, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' } } }]) {
        assert.equal((await c.api(`/${SUB}/conversionsources`, { body: bad })).status, 400, JSON.stringify(bad));
      }
    });

    it('datafeeds: fetchNow downloads the file, ingests products and records per-line errors', async () => {
      const content = c.client();
      local.feed = [TSV_HEADER, tsvLine('feed-1'), tsvLine('feed-2'), tsvLine('feed-3', 'free'), ''].join('\n');
      const feed = await content.datafeeds.insert({
        merchantId: SUB,
        requestBody: { name: 'Main feed', fileName: 'feed.tsv', contentType: 'products', targets: [{ country: 'US', language: 'en' }], fetchSchedule: { fetchUrl: `${local.url}/feed.tsv`, hour: 6, timeZone: 'UTC' } },
      });
      const id = feed.data.id!;
      assert.equal((await content.datafeedstatuses.get({ merchantId: SUB, datafeedId: id })).data.processingStatus, 'none');
      await content.datafeeds.fetchnow({ merchantId: SUB, datafeedId: id });
      await advance('1s');
      const status = (await content.datafeedstatuses.get({ merchantId: SUB, datafeedId: id, country: 'US', language: 'en' })).data;
      assert.equal(status.processingStatus, 'success');
      assert.equal(status.itemsTotal, '3');
      assert.equal(status.itemsValid, '2');
      assert.equal(status.errors![0].examples![0].lineNumber, '4');
      assert.equal((await content.products.get({ merchantId: SUB, productId: 'online:en:US:feed-1' })).data.source, 'feed');

      // The schedule fetches at 06:00 UTC: the new file drops feed-2.
      local.feed = [TSV_HEADER, tsvLine('feed-1', '12.00 USD'), ''].join('\n');
      await advance('1d');
      assert.equal((await content.products.get({ merchantId: SUB, productId: 'online:en:US:feed-1' })).data.price!.value, '12.00');
      assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:feed-2')}`)).status, 404);

      const unreachable = await content.datafeeds.insert({ merchantId: SUB, requestBody: { name: 'Missing', fileName: 'missing.tsv', contentType: 'products', targets: [{ country: 'US', language: 'en' }], fetchSchedule: { fetchUrl: `${local.url}/missing.tsv` } } });
      await content.datafeeds.fetchnow({ merchantId: SUB, datafeedId: unreachable.data.id! });
      await advance('1s');
      const failed = (await content.datafeedstatuses.list({ merchantId: SUB })).data.resources!.find((s) => s.datafeedId === unreachable.data.id)!;
      assert.equal(failed.processingStatus, 'failure');
      assert.match(failed.errors![0].code!, /fetch/);
      assert.match(failed.errors![0].examples![0].value!, /HTTP 404/);

      for (const bad of [{ name: 'x', fileName: 'feed.tsv', targets: [{ country: 'US', language: 'en' }] }, { name: 'x', fileName: 'b.tsv' }, { name: 'x', fileName: 'c.tsv', targets: [{ country: 'US', language: 'en' }], fetchSchedule: { fetchUrl: 'ftp://x', hour: 25 } }]) {
        assert.equal((await c.api(`/${SUB}/datafeeds`, { body: bad })).status, 400, JSON.stringify(bad));
      }
      const removed = await content.datafeeds.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'delete', datafeedId: unreachable.data.id }, { batchId: 2, merchantId: SUB, method: 'get', datafeedId: id }] } });
      assert.equal(removed.data.entries![0].errors, undefined);
      assert.equal(removed.data.entries![1].datafeed!.fetchSchedule!.fetchUrl, `${local.url}/feed.tsv`);
      assert.equal((await c.api(`/${SUB}/datafeeds/${unreachable.data.id}`)).status, 404);
    });

    it('a fetch schedule without a time zone runs at its hour in UTC', async () => {
      const content = c.client();
      const feed = await content.datafeeds.insert({
        merchantId: SUB,
        requestBody: { name: 'Zoneless feed', fileName: 'zoneless.tsv', contentType: 'products', targets: [{ country: 'US', language: 'en' }], fetchSchedule: { fetchUrl: `${local.url}/feed.tsv`, hour: 6 } },
      });
      assert.equal(feed.data.fetchSchedule!.timeZone, undefined);
      const jobs = (await call(`${c.t.adminUrl}/jobs?service=catalog`)).body.jobs as Array<{ key: string; runAt: string }>;
      const armed = jobs.find((j) => j.key === `catalog:datafeed-fetch:${SUB}:${feed.data.id}`)!;
      assert.match(armed.runAt, /T06:00:00\.000Z$/);
      await content.datafeeds.delete({ merchantId: SUB, datafeedId: feed.data.id! });
    });

    it('status changes are delivered as webhooks to the registered topic', async () => {
      const content = c.client();
      // Products live in sub-accounts: one of its own, so that only this test's products notify.
      const shop = (await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Notified shop' } })).data.id!;
      await content.pubsubnotificationsettings.update({ merchantId: shop, requestBody: { cloudTopicName: `${local.url}/push`, registeredEvents: ['productStatusChangeEvent'] } });
      assert.equal((await content.pubsubnotificationsettings.get({ merchantId: shop })).data.registeredEvents![0], 'productStatusChangeEvent');
      assert.equal((await c.api(`/${shop}/pubsubnotificationsettings`, { method: 'PUT', body: { cloudTopicName: 'topic', registeredEvents: ['everything'] } })).status, 400);
      await content.products.insert({ merchantId: shop, requestBody: product('notify-1') });
      await content.products.update({ merchantId: shop, productId: 'online:en:US:notify-1', updateMask: 'imageLink', requestBody: {} });
      // A delivery pass already running may have started before the second message: ask again until both arrived.
      for (let i = 0; i < 50 && local.received.filter((r) => r.path === '/push').length < 2; i++) {
        await call(`${c.t.adminUrl}/outbox/deliver`, { method: 'POST' });
        await new Promise((r) => setTimeout(r, 20));
      }
      const pushes = local.received.filter((r) => r.path === '/push').map((r) => JSON.parse(Buffer.from(JSON.parse(r.body).message.data, 'base64').toString()));
      // Deliveries may arrive in any order: one announces the new product, the other its disapproval.
      assert.equal(pushes.length, 2);
      assert.ok(pushes.every((p) => p.resource_id === 'online:en:US:notify-1'));
      assert.ok(pushes.some((p) => p.changes.every((ch: { old_value?: string; new_value: string }) => ch.old_value === undefined && ch.new_value === 'approved')));
      assert.ok(pushes.some((p) => p.changes.some((ch: { old_value: string; new_value: string }) => ch.old_value === 'approved' && ch.new_value === 'disapproved')));
    });

    it('quotas: usage per method, and 429 over the configured limit', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await c.api(`/${SUB}/regions`)).status, 200);
      const over = await c.api(`/${SUB}/regions`);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.errors[0].domain, 'usageLimits');
      const quotas = await c.client().quotas.list({ merchantId: SUB, pageSize: 1000 });
      const regions = quotas.data.methodQuotas!.find((q) => q.method === 'regions.list')!;
      assert.deepEqual({ usage: regions.quotaUsage, limit: regions.quotaLimit }, { usage: '3', limit: '3' });
      // A new quota day starts at 12:00 UTC.
      await advance('1d');
      assert.equal((await c.api(`/${SUB}/regions`)).status, 200);
    });

    it('reports.search over simulated performance; bad queries name the problem', async () => {
      const content = c.client();
      await content.products.insert({ merchantId: SUB, requestBody: product('report-2') });
      const sim = await call(`${c.t.adminUrl}/services/catalog/simulate`, { body: { merchantId: SUB, days: 14, seed: 'test' } });
      assert.equal(sim.status, 200, sim.text);
      const report = await content.reports.search({ merchantId: SUB, requestBody: { query: 'SELECT segments.offer_id, metrics.clicks, metrics.impressions FROM product_performance_view WHERE segments.date DURING LAST_7_DAYS ORDER BY metrics.impressions DESC' } });
      assert.ok(report.data.results!.length > 0);
      assert.ok(report.data.results!.every((r) => r.segments!.offerId && r.metrics!.impressions !== undefined));
      const view = await content.reports.search({ merchantId: SUB, requestBody: { query: "SELECT product_view.id, product_view.title FROM product_view WHERE product_view.offer_id = 'feed-1'" } });
      assert.equal(view.data.results![0].productView!.id, 'online:en:US:feed-1');
      const paged = await content.reports.search({ merchantId: SUB, requestBody: { pageSize: 1, query: 'SELECT product_view.id FROM product_view' } });
      assert.ok(paged.data.nextPageToken);
      for (const query of ['SELEC metrics.clicks FROM product_performance_view', 'SELECT metrics.clicks FROM nowhere', 'SELECT metrics.nothing FROM product_performance_view WHERE segments.date DURING LAST_7_DAYS']) {
        const bad = await c.api(`/${SUB}/reports/search`, { body: { query } });
        assert.equal(bad.status, 400, query);
        assert.match(bad.body.error.message, /^Invalid query: /);
      }
      assert.equal((await c.api(`/${SUB}/reports/search`, { body: {} })).status, 400);
    });

    it('program reviews are decided by a job a day later', async () => {
      const content = c.client();
      const shop = (await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Reviewed shop', websiteUrl: 'https://reviewed.example.com' } })).data.id!;
      await content.accounts.claimwebsite({ merchantId: MCA, accountId: shop });
      for (let i = 0; i < 3; i++) await content.products.insert({ merchantId: shop, requestBody: product(`review-${i}`, { imageLink: undefined }) });
      const before = await content.shoppingadsprogram.get({ merchantId: shop });
      assert.equal(before.data.regionStatuses![0].eligibilityStatus, 'DISAPPROVED');
      for (let i = 0; i < 3; i++) await content.products.update({ merchantId: shop, productId: `online:en:US:review-${i}`, requestBody: { imageLink: 'https://shop.example.com/i.jpg' } });
      // The fixed products serve again, but a disapproval stands until reviewed.
      await content.shoppingadsprogram.requestreview({ merchantId: shop, requestBody: { regionCode: 'US' } }).catch(() => undefined);
      const under = await content.shoppingadsprogram.get({ merchantId: shop });
      assert.ok(['UNDER_REVIEW', 'APPROVED'].includes(under.data.regionStatuses![0].eligibilityStatus!));
      await advance('25h');
      assert.equal((await content.shoppingadsprogram.get({ merchantId: shop })).data.regionStatuses![0].eligibilityStatus, 'APPROVED');
    });
  });
}
