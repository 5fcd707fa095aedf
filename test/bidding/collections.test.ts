// The metrics collections counted from event outcomes, at bidder and account level, over HTTP and through the
// googleapis client, checked against counts taken straight from the loaded events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { eventToJson } from '../../src/services/bidding/domain/events.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { BREAKDOWN_OF, ROW_SHAPE, TOKENS, apiClient, countBy, impressionTotals, type WireEvent } from './helpers.ts';

const NOW = Date.parse('2026-01-10T20:30:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PST = 8 * HOUR; // January: Pacific standard time, UTC-8

// Written the way events were before the funnel facts existed: no reason fields at all.
const base = { bidder: '1000', account: '1001', format: 'NON_NATIVE_DISPLAY', environment: 'WEB', platform: 'DESKTOP', creativeId: 'legacy-cr' };
const LEGACY: WireEvent[] = [
  { ...base, time: '2026-01-09T12:10:00Z' },
  { ...base, time: '2026-01-09T12:20:00Z', bid: true },
  { ...base, time: '2026-01-09T12:30:00Z', bid: true, inAuction: true },
  { ...base, time: '2026-01-09T12:40:00Z', bid: true, inAuction: true, won: true },
];
const EVENTS: WireEvent[] = [
  ...simulate({ bidder: '1000', accounts: ['1000', '1001', '2001'], end: NOW, days: 2, rate: 60, seed: 21 }),
  ...simulate({ bidder: '3000', accounts: ['3000'], end: NOW, days: 2, rate: 10, seed: 22 }),
]
  .map((e) => eventToJson(e) as unknown as WireEvent)
  .concat(LEGACY);

const LEVELS = [
  { owner: 'bidders/1000', events: EVENTS.filter((e) => e.bidder === '1000') },
  { owner: 'bidders/1000/accounts/1001', events: EVENTS.filter((e) => e.bidder === '1000' && e.account === '1001') },
];
const COLLECTIONS = Object.keys(ROW_SHAPE);
type Row = Record<string, any>;

/** Rows of a breakdown collection as {key: count}, checking each row's metric on the way. */
function countsOf(rows: Row[], collection: string): Record<string, number> {
  const { key, metric } = ROW_SHAPE[collection];
  const out: Record<string, number> = {};
  for (const r of rows) {
    assert.equal(r[metric].variance, '0');
    assert.match(r[metric].value, /^[1-9]\d*$/, 'zero rows are left out');
    out[r[key]] = (out[r[key]] ?? 0) + Number(r[metric].value);
  }
  return out;
}
const metricNumbers = (row: Row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'rowDimensions').map(([k, v]) => [k, Number(v.value ?? 0)]));
/** Rows with a time interval as {"<start ms>/<key>": count}. */
const timedCounts = (rows: Row[], collection: string) =>
  Object.fromEntries(rows.map((r) => [`${Date.parse(r.rowDimensions.timeInterval.startTime)}/${r[ROW_SHAPE[collection].key]}`, Number(r[ROW_SHAPE[collection].metric].value)]));
const pacificDay = (ms: number) => Math.floor((ms - PST) / DAY) * DAY + PST;

for (const database of DATABASES) {
  describe(`bidding outcome collections (${database})`, () => {
    let t: TestRuntime;
    const api = apiClient(() => t.url('bidding'));
    const client = (token: string) => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: token });
      return google.adexchangebuyer2({ version: 'v2beta1', rootUrl: t.url('bidding') + '/', auth });
    };
    const create = async (name: string, filters: Record<string, unknown>) => {
      const res = await api(TOKENS.bidder, 'POST', `${name.split('/filterSets/')[0]}/filterSets`, { name, relativeDateRange: { durationDays: 7 }, ...filters });
      assert.equal(res.status, 200, res.text);
    };
    const get = async (path: string) => {
      const res = await api(TOKENS.bidder, 'GET', path);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    before(async () => {
      t = await startTestRuntime({ services: ['bidding'], database, clock: 'manual', clockStart: NOW });
      const res = await call(`${t.adminUrl}/services/bidding/events`, {
        method: 'POST',
        raw: EVENTS.map((e) => JSON.stringify(e)).join('\n'),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      assert.equal(res.status, 200, res.text);
      for (const { owner } of LEVELS) await create(`${owner}/filterSets/all`, {});
    });
    after(async () => t.close());

    it('counts every breakdown collection at both levels over HTTP, by status id or status', async () => {
      for (const { owner, events } of LEVELS) {
        for (const collection of COLLECTIONS) {
          const expected = countBy(events, BREAKDOWN_OF[collection]);
          assert.ok(Object.keys(expected).length > 0, `${owner} ${collection} has data`);
          const body = await get(`${owner}/filterSets/all/${collection}`);
          const rows: Row[] = body[ROW_SHAPE[collection].rows];
          assert.deepEqual(countsOf(rows, collection), expected, `${owner} ${collection}`);
          assert.ok(rows.every((r) => r.rowDimensions === undefined));
          assert.equal(body.nextPageToken, undefined);
        }
      }
    });

    it('counts impressionMetrics at both levels as a narrowing funnel', async () => {
      for (const { owner, events } of LEVELS) {
        const rows = (await get(`${owner}/filterSets/all/impressionMetrics`)).impressionMetricsRows;
        assert.equal(rows.length, 1);
        const expected = impressionTotals(events);
        assert.deepEqual(metricNumbers(rows[0]), expected);
        assert.ok(expected.availableImpressions > expected.inventoryMatches && expected.successfulResponses > expected.responsesWithBids);
      }
    });

    it('serves every collection at both levels through the googleapis client', async () => {
      const gapi = client(TOKENS.bidder);
      for (const { owner, events } of LEVELS) {
        const level = owner.includes('/accounts/') ? gapi.bidders.accounts.filterSets : gapi.bidders.filterSets;
        const filterSetName = `${owner}/filterSets/all`;
        for (const collection of COLLECTIONS) {
          const res = await (level as any)[collection].list({ filterSetName, pageSize: 1000 });
          assert.deepEqual(countsOf(res.data[ROW_SHAPE[collection].rows], collection), countBy(events, BREAKDOWN_OF[collection]), `${owner} ${collection}`);
        }
        const impressions = await level.impressionMetrics.list({ filterSetName });
        assert.deepEqual(metricNumbers(impressions.data.impressionMetricsRows![0]), impressionTotals(events));
        const filtered = events.filter((e) => BREAKDOWN_OF.filteredBids(e) === 10);
        const creatives = await level.filteredBids.creatives.list({ filterSetName, creativeStatusId: 10 });
        assert.deepEqual(
          Object.fromEntries(creatives.data.filteredBidCreativeRows!.map((r) => [r.creativeId, Number(r.bidCount!.value)])),
          countBy(filtered, (e) => e.creativeId),
        );
        const details = await level.filteredBids.details.list({ filterSetName, creativeStatusId: 10 });
        assert.equal(details.data.detailType, 'DISAPPROVAL_REASON');
        assert.deepEqual(Object.fromEntries(details.data.filteredBidDetailRows!.map((r) => [r.detail, Number(r.bidCount!.value)])), countBy(filtered, (e) => e.detail));
        assert.ok(details.data.filteredBidDetailRows!.every((r) => r.detailId === Number(r.detail)));
      }
    });

    it('breaks one creative status down by creative and by detail, text details with detailId 0', async () => {
      const filtered = LEVELS[0].events.filter((e) => BREAKDOWN_OF.filteredBids(e) === 19);
      assert.ok(filtered.length > 0);
      const body = await get('bidders/1000/filterSets/all/filteredBids/19/details');
      assert.equal(body.detailType, 'VENDOR_DOMAIN');
      for (const r of body.filteredBidDetailRows) assert.equal(r.detailId, 0);
      assert.deepEqual(Object.fromEntries(body.filteredBidDetailRows.map((r: Row) => [r.detail, Number(r.bidCount.value)])), countBy(filtered, (e) => e.detail));
      // A status with no filtered bids has no rows; the spec's filteredBidResponses is filteredBids.
      assert.deepEqual((await get('bidders/1000/filterSets/all/filteredBids/999/creatives')).filteredBidCreativeRows, []);
      assert.deepEqual(await get('bidders/1000/filterSets/all/filteredBidResponses'), await get('bidders/1000/filterSets/all/filteredBids'));
    });

    it('applies the filter set filters and its DAILY and HOURLY granularity', async () => {
      await create('bidders/1000/filterSets/daily-display-mobile', { timeSeriesGranularity: 'DAILY', format: 'DISPLAY', platforms: ['MOBILE', 'TABLET'] });
      const selected = LEVELS[0].events.filter((e) => e.format.endsWith('DISPLAY') && (e.platform === 'MOBILE' || e.platform === 'TABLET'));
      const byDay = (events: WireEvent[], key: (e: WireEvent) => string | number | undefined) =>
        countBy(events, (e) => (key(e) === undefined ? undefined : `${pacificDay(Date.parse(e.time))}/${key(e)}`));
      const losing = (await get('bidders/1000/filterSets/daily-display-mobile/losingBids')).creativeStatusRows as Row[];
      const days = losing.map((r) => Date.parse(r.rowDimensions.timeInterval.startTime));
      assert.deepEqual(days, [...days].sort((a, b) => a - b), 'rows in time order');
      for (const r of losing) assert.equal(Date.parse(r.rowDimensions.timeInterval.endTime) - Date.parse(r.rowDimensions.timeInterval.startTime), DAY);
      assert.deepEqual(timedCounts(losing, 'losingBids'), byDay(selected, BREAKDOWN_OF.losingBids));
      const impressions = (await get('bidders/1000/filterSets/daily-display-mobile/impressionMetrics')).impressionMetricsRows as Row[];
      assert.ok(impressions.length >= 2);
      for (const r of impressions) {
        const day = Date.parse(r.rowDimensions.timeInterval.startTime);
        assert.deepEqual(metricNumbers(r), impressionTotals(selected.filter((e) => pacificDay(Date.parse(e.time)) === day)));
      }

      await create('bidders/1000/filterSets/hourly', { timeSeriesGranularity: 'HOURLY' });
      const errors = (await get('bidders/1000/filterSets/hourly/bidResponseErrors')).calloutStatusRows as Row[];
      assert.deepEqual(
        timedCounts(errors, 'bidResponseErrors'),
        countBy(LEVELS[0].events, (e) => (BREAKDOWN_OF.bidResponseErrors(e) === undefined ? undefined : `${Math.floor(Date.parse(e.time) / HOUR) * HOUR}/${BREAKDOWN_OF.bidResponseErrors(e)}`)),
      );

      // Account level with creative and deal filters.
      const account = LEVELS[1].events;
      await create('bidders/1000/accounts/1001/filterSets/creative', { creativeId: '1001-cr2' });
      assert.deepEqual(
        countsOf((await get('bidders/1000/accounts/1001/filterSets/creative/filteredBids')).creativeStatusRows, 'filteredBids'),
        countBy(account.filter((e) => e.creativeId === '1001-cr2'), BREAKDOWN_OF.filteredBids),
      );
      await create('bidders/1000/accounts/1001/filterSets/deal', { dealId: '90002', environment: 'APP' });
      const dealEvents = account.filter((e) => e.dealId === '90002' && e.environment === 'APP');
      assert.deepEqual(metricNumbers((await get('bidders/1000/accounts/1001/filterSets/deal/impressionMetrics')).impressionMetricsRows[0]), impressionTotals(dealEvents));
      assert.deepEqual(
        countsOf((await get('bidders/1000/accounts/1001/filterSets/deal/nonBillableWinningBids')).nonBillableWinningBidStatusRows, 'nonBillableWinningBids'),
        countBy(dealEvents, BREAKDOWN_OF.nonBillableWinningBids),
      );
    });

    it('paginates with pageSize and pageToken, tokens bound to their call', async () => {
      const path = 'bidders/1000/filterSets/hourly/filteredBids';
      const full = (await get(path)).creativeStatusRows;
      assert.ok(full.length > 12);
      const paged: Row[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const body = await get(`${path}?pageSize=5${token ? `&pageToken=${token}` : ''}`);
        assert.ok(body.creativeStatusRows.length <= 5);
        paged.push(...body.creativeStatusRows);
        token = body.nextPageToken;
        pages++;
      } while (token);
      assert.deepEqual(paged, full);
      assert.equal(pages, Math.ceil(full.length / 5));
      const first = await get(`${path}?pageSize=5`);
      const elsewhere = await api(TOKENS.bidder, 'GET', `bidders/1000/filterSets/hourly/losingBids?pageToken=${first.nextPageToken}`);
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.error.status, 'INVALID_ARGUMENT');
    });

    it('refuses bad requests with the API error and applies the access matrix', async () => {
      const expectError = async (token: string, path: string, status: number, rpc: string, message?: RegExp) => {
        const res = await api(token, 'GET', path);
        assert.equal(res.status, status, `${path}: ${res.text}`);
        assert.equal(res.body.error.status, rpc);
        if (message) assert.match(res.body.error.message, message);
      };
      await expectError(TOKENS.bidder, 'bidders/1000/filterSets/all/filteredBids/3/details', 400, 'INVALID_ARGUMENT', /only available for creative statuses 10, 14/);
      await expectError(TOKENS.bidder, 'bidders/1000/filterSets/all/filteredBids/abc/creatives', 400, 'INVALID_ARGUMENT', /creative_status_id/);
      await expectError(TOKENS.bidder, 'bidders/1000/filterSets/all/losingBids?pageSize=-1', 400, 'INVALID_ARGUMENT');
      await expectError(TOKENS.bidder, 'bidders/1000/filterSets/all/losingBids?view=FULL', 400, 'INVALID_ARGUMENT');
      await expectError(TOKENS.bidder, 'bidders/1000/filterSets/missing/losingBids', 404, 'NOT_FOUND');
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/all/filteredBids/10')).status, 404);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/all/impressionMetrics/x')).status, 404);
      // A child account may not use bidder level, nor another account's filter sets; a delegating account is refused
      // the spec's four collections at account level and served the others.
      await expectError(TOKENS.child, 'bidders/1000/filterSets/all/losingBids', 403, 'PERMISSION_DENIED');
      await expectError(TOKENS.child, 'bidders/1000/accounts/2001/filterSets/all/losingBids', 403, 'PERMISSION_DENIED');
      assert.equal((await api(TOKENS.child, 'GET', 'bidders/1000/accounts/1001/filterSets/all/impressionMetrics')).status, 200);
      await create('bidders/1000/accounts/2001/filterSets/all', {});
      for (const collection of ['impressionMetrics', 'filteredBids', 'filteredBids/10/creatives', 'bidResponseErrors', 'bidResponsesWithoutBids']) {
        await expectError(TOKENS.delegate, `bidders/1000/accounts/2001/filterSets/all/${collection}`, 403, 'PERMISSION_DENIED');
        assert.equal((await api(TOKENS.bidder, 'GET', `bidders/1000/accounts/2001/filterSets/all/${collection}`)).status, 200, collection);
      }
      const delegated = EVENTS.filter((e) => e.account === '2001');
      const losing = await api(TOKENS.delegate, 'GET', 'bidders/1000/accounts/2001/filterSets/all/losingBids');
      assert.deepEqual(countsOf(losing.body.creativeStatusRows, 'losingBids'), countBy(delegated, BREAKDOWN_OF.losingBids));
    });

    it('refuses events with inconsistent funnel or reason fields and stores none of the batch', async () => {
      const before = await get('bidders/1000/accounts/1001/filterSets/all/impressionMetrics');
      const good = { ...base, time: '2026-01-10T10:00:00Z', bid: true, creativeStatusId: 14, detail: 7 };
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...good, creativeStatusId: 'x' }, /"creativeStatusId" must be a positive int32/],
        [{ ...good, creativeStatusId: 3 }, /"detail" applies only to/],
        [{ ...good, inAuction: true }, /"detail" applies only to/],
        [{ ...base, time: good.time, calloutStatusId: 5 }, /"calloutStatusId" applies only to/],
        [{ ...base, time: good.time, inventoryMatch: false, bidRequest: true }, /"bidRequest" is true but "inventoryMatch" is not/],
        [{ ...base, time: good.time, successfulResponse: false, bid: true }, /"bid" is true but "successfulResponse"/],
        [{ ...base, time: good.time, noBidStatus: 'SOMETIMES' }, /"noBidStatus" must be one of/],
        [{ ...base, time: good.time, bid: true, inAuction: true, won: true, billed: true, nonBillableStatus: 'AD_NOT_RENDERED' }, /"nonBillableStatus" applies only to/],
      ];
      for (const [event, message] of bad) {
        const res = await call(`${t.adminUrl}/services/bidding/events`, { body: [good, event] });
        assert.equal(res.status, 400, JSON.stringify(event));
        assert.match(res.body.error.message, message);
      }
      assert.deepEqual(await get('bidders/1000/accounts/1001/filterSets/all/impressionMetrics'), before);
      const res = await call(`${t.adminUrl}/services/bidding/events`, { body: [good] });
      assert.equal(res.status, 200);
      const details = (await get('bidders/1000/accounts/1001/filterSets/all/filteredBids/14/details')).filteredBidDetailRows as Row[];
      // Generated details of status 14 are 1401 to 1404: detail 7 is the new event alone.
      assert.deepEqual(details.find((r) => r.detail === '7'), { detail: '7', detailId: 7, bidCount: { value: '1', variance: '0' } });
    });
  });
}
