// Every filter-set method the service serves, driven through the googleapis client at each level the client offers
// (bidders.filterSets, bidders.accounts.filterSets and buyers.filterSets): the request reaches the route with the
// client's own parameter and body names, lists page through `pageToken`, and each answer matches the `Schema$...`
// type the client declares for it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { clientShapes } from '../helpers/client-shapes.ts';
import { eventToJson } from '../../src/services/bidding/domain/events.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { TOKENS } from './helpers.ts';

const NOW = Date.parse('2026-01-10T20:30:00Z');
const EVENTS = [...simulate({ bidder: '1000', accounts: ['1000', '1001', '2001'], end: NOW, days: 2, rate: 60, seed: 31 })].map((e) => eventToJson(e));

/**
 * The spec (A2) shows `filterSetId` on every filter set the service answers, a field the client's current
 * `Schema$FilterSet` no longer declares: it is checked here (a numeric string), the rest against the type.
 */
function withoutFilterSetId(filterSet: Record<string, unknown>): Record<string, unknown> {
  const { filterSetId, ...rest } = filterSet;
  assert.match(String(filterSetId), /^\d+$/);
  assert.equal(typeof filterSetId, 'string');
  return rest;
}

const { assert: assertShape, allPages } = clientShapes('adexchangebuyer2', 'v2beta1', (schema, data) =>
  schema === 'FilterSet' ? withoutFilterSetId(data) : schema === 'ListFilterSetsResponse' ? { ...data, filterSets: data.filterSets?.map(withoutFilterSetId) } : data,
);

/** Each metrics collection of a filter set: the client's resource, its answer's schema and its rows field. */
const COLLECTIONS = [
  { resource: 'bidMetrics', schema: 'ListBidMetricsResponse', rows: 'bidMetricsRows' },
  { resource: 'bidResponseErrors', schema: 'ListBidResponseErrorsResponse', rows: 'calloutStatusRows' },
  { resource: 'bidResponsesWithoutBids', schema: 'ListBidResponsesWithoutBidsResponse', rows: 'bidResponseWithoutBidsStatusRows' },
  { resource: 'filteredBidRequests', schema: 'ListFilteredBidRequestsResponse', rows: 'calloutStatusRows' },
  { resource: 'filteredBids', schema: 'ListFilteredBidsResponse', rows: 'creativeStatusRows' },
  { resource: 'impressionMetrics', schema: 'ListImpressionMetricsResponse', rows: 'impressionMetricsRows' },
  { resource: 'losingBids', schema: 'ListLosingBidsResponse', rows: 'creativeStatusRows' },
  { resource: 'nonBillableWinningBids', schema: 'ListNonBillableWinningBidsResponse', rows: 'nonBillableWinningBidStatusRows' },
] as const;

type Client = ReturnType<typeof google.adexchangebuyer2>;
type Level = Client['bidders']['filterSets'] | Client['bidders']['accounts']['filterSets'] | Client['buyers']['filterSets'];

const LEVELS: Array<{ title: string; owner: string; level: (c: Client) => Level }> = [
  { title: 'bidders.filterSets', owner: 'bidders/1000', level: (c) => c.bidders.filterSets },
  { title: 'bidders.accounts.filterSets', owner: 'bidders/1000/accounts/1001', level: (c) => c.bidders.accounts.filterSets },
  { title: 'buyers.filterSets (bidder level)', owner: 'bidders/1000', level: (c) => c.buyers.filterSets },
  { title: 'buyers.filterSets (account level)', owner: 'bidders/1000/accounts/1000', level: (c) => c.buyers.filterSets },
];

for (const database of DATABASES) {
  describe(`bidding through the googleapis client, every filter-set method (${database})`, () => {
    let t: TestRuntime;
    const client = (token: string) => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: token });
      return google.adexchangebuyer2({ version: 'v2beta1', rootUrl: t.url('bidding') + '/', auth });
    };

    before(async () => {
      t = await startTestRuntime({ services: ['bidding'], database, clock: 'manual', clockStart: NOW });
      const res = await call(`${t.adminUrl}/services/bidding/events`, { body: EVENTS });
      assert.equal(res.status, 200, res.text);
    });
    after(async () => t.close());

    for (const [index, { title, owner, level }] of LEVELS.entries()) {
      it(`${title}: create, get, list with paging, every metrics collection with paging, delete`, async () => {
        const filterSets = level(client(TOKENS.bidder));
        const names = ['a', 'b', 'c'].map((id) => `${owner}/filterSets/sweep-${index}-${id}`);
        const created = await filterSets.create({ ownerName: owner, isTransient: false, requestBody: { name: names[0], relativeDateRange: { offsetDays: 0, durationDays: 3 }, timeSeriesGranularity: 'DAILY' } });
        assertShape('FilterSet', created.data);
        const plain = await filterSets.create({ ownerName: owner, isTransient: true, requestBody: { name: names[1], relativeDateRange: { durationDays: 3 }, timeSeriesGranularity: 'HOURLY', formats: ['NON_NATIVE_DISPLAY'], platforms: ['DESKTOP', 'MOBILE'], environment: 'WEB' } });
        assertShape('FilterSet', plain.data);
        await filterSets.create({ ownerName: owner, requestBody: { name: names[2], realtimeTimeRange: { startTimestamp: '2026-01-09T00:00:00Z' } } });

        const got = await filterSets.get({ name: names[0] });
        assertShape('FilterSet', got.data);
        assert.equal(got.data.name, names[0]);
        const listed = await allPages<{ name: string }>('ListFilterSetsResponse', 'filterSets', (pageToken) => filterSets.list({ ownerName: owner, pageSize: 2, pageToken }));
        assert.deepEqual(listed.items.map((f) => f.name), names);
        assert.equal(listed.pages, 2);

        for (const filterSetName of names.slice(0, 2)) {
          for (const { resource, schema, rows } of COLLECTIONS) {
            const list = (filterSets[resource] as { list(p: object): Promise<{ data: Record<string, any> }> }).list.bind(filterSets[resource]);
            const whole = await list({ filterSetName });
            assertShape(schema, whole.data);
            const expected = whole.data[rows] as unknown[];
            assert.ok(expected.length > 1, `${filterSetName} ${resource} has rows to page through`);
            const paged = await allPages(schema, rows, (pageToken) => list({ filterSetName, pageSize: 1, pageToken }));
            assert.deepEqual(paged.items, expected, `${filterSetName} ${resource}`);
          }
          for (const sub of ['creatives', 'details'] as const) {
            const schema = sub === 'creatives' ? 'ListCreativeStatusBreakdownByCreativeResponse' : 'ListCreativeStatusBreakdownByDetailResponse';
            const rows = sub === 'creatives' ? 'filteredBidCreativeRows' : 'filteredBidDetailRows';
            const list = (p: object) => (filterSets.filteredBids[sub] as { list(p: object): Promise<{ data: Record<string, any> }> }).list(p);
            const whole = await list({ filterSetName, creativeStatusId: 10 });
            assertShape(schema, whole.data);
            const paged = await allPages(schema, rows, (pageToken) => list({ filterSetName, creativeStatusId: 10, pageSize: 1, pageToken }));
            assert.deepEqual(paged.items, whole.data[rows]);
            assert.ok(paged.pages > 1, `${filterSetName} ${sub} has rows to page through`);
          }
        }

        for (const name of names) {
          const deleted = await filterSets.delete({ name });
          assertShape('Empty', deleted.data);
        }
        const emptied = await filterSets.list({ ownerName: owner });
        assertShape('ListFilterSetsResponse', emptied.data);
        assert.ok(!(emptied.data.filterSets ?? []).some((f) => names.includes(f.name!)));
      });
    }

    it('answers a filter set sent with nulls and proto3 JSON number forms in the client types', async () => {
      const filterSets = client(TOKENS.bidder).bidders.accounts.filterSets;
      const ownerName = 'bidders/1000/accounts/1001';
      // The client declares its scalar and list fields nullable; a message field sent as null is unset all the same.
      const noMessage = null as never;
      const unset = { format: null, formats: null, platforms: null, environment: null, timeSeriesGranularity: null, creativeId: null, publisherIdentifiers: null, breakdownDimensions: null, realtimeTimeRange: noMessage };
      // The client types int32 fields as numbers and int64 fields as strings; proto3 JSON also accepts the other form.
      const relative = { name: `${ownerName}/filterSets/forms-relative`, ...unset, absoluteDateRange: noMessage, sellerNetworkIds: [], dealId: 90002 as unknown as string, relativeDateRange: { durationDays: '3' as unknown as number, offsetDays: null } };
      const absolute = { name: `${ownerName}/filterSets/forms-absolute`, dealId: null, relativeDateRange: noMessage, absoluteDateRange: { startDate: { year: '2026' as unknown as number, month: 1, day: 5 }, endDate: { year: 2026, month: '01' as unknown as number, day: 9 } } };
      const expected = {
        [relative.name]: { name: relative.name, sellerNetworkIds: [], dealId: '90002', relativeDateRange: { durationDays: 3 } },
        [absolute.name]: { name: absolute.name, absoluteDateRange: { startDate: { year: 2026, month: 1, day: 5 }, endDate: { year: 2026, month: 1, day: 9 } } },
      };
      for (const requestBody of [relative, absolute]) {
        const created = await filterSets.create({ ownerName, requestBody });
        assertShape('FilterSet', created.data);
        const { filterSetId, ...answered } = created.data as Record<string, unknown>;
        assert.deepEqual(answered, expected[requestBody.name]);
        const got = await filterSets.get({ name: requestBody.name });
        assert.deepEqual(got.data, { ...expected[requestBody.name], filterSetId });
      }
      const listed = await allPages<{ name: string }>('ListFilterSetsResponse', 'filterSets', (pageToken) => filterSets.list({ ownerName, pageSize: 1, pageToken }));
      assert.deepEqual(listed.items.map((f) => f.name), [relative.name, absolute.name]);
      // The stored form still reads as the filter set it was: the deal filter counts that deal's bids only.
      const metrics = await filterSets.bidMetrics.list({ filterSetName: relative.name });
      assertShape('ListBidMetricsResponse', metrics.data);
      const dealBids = EVENTS.filter((e) => e.account === '1001' && e.dealId === '90002' && e.bid).length;
      assert.ok(dealBids > 0);
      assert.equal(metrics.data.bidMetricsRows![0].bids!.value, String(dealBids));
    });

    it('refuses a value no form of its type reads, storing nothing', async () => {
      const filterSets = client(TOKENS.bidder).bidders.accounts.filterSets;
      const ownerName = 'bidders/1000/accounts/1001';
      const name = `${ownerName}/filterSets/forms-bad`;
      const before = await filterSets.list({ ownerName });
      const refused = [
        { relativeDateRange: { durationDays: '3.5' }, field: 'duration_days', value: '"3.5"' },
        { relativeDateRange: { durationDays: 3, offsetDays: '1e1' }, field: 'offset_days', value: '"1e1"' },
      ];
      for (const { relativeDateRange, field, value } of refused) {
        const message = `Invalid value at 'filter_set.relative_date_range.${field}' (TYPE_INT32), ${value}`;
        await assert.rejects(filterSets.create({ ownerName, requestBody: { name, relativeDateRange: relativeDateRange as never } }), (err: any) => {
          assert.deepEqual(err.response.data.error, { code: 400, message, status: 'INVALID_ARGUMENT', errors: [{ message, domain: 'global', reason: 'invalid' }] });
          return true;
        });
      }
      await assert.rejects(filterSets.create({ ownerName, requestBody: { name, relativeDateRange: { durationDays: 3 }, dealId: -5 as unknown as string } }), (err: any) => err.response.data.error.message === `Invalid value at 'filter_set.deal_id' (TYPE_INT64), -5`);
      await assert.rejects(filterSets.get({ name }), (err: any) => Number(err.code) === 404);
      assert.deepEqual((await filterSets.list({ ownerName })).data, before.data);
    });
  });
}
