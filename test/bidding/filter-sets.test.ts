// Filter sets through HTTP: the access matrix cell by cell, validation, duplicates, transient expiry, pagination.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { TOKENS, apiClient } from './helpers.ts';

const NOW = Date.parse('2026-01-10T20:30:00Z');
const range = { relativeDateRange: { durationDays: 7 } };

for (const database of DATABASES) {
  describe(`bidding filter sets (${database})`, () => {
    let t: TestRuntime;
    let otherBidder: string;
    let otherChild: string;
    const api = apiClient(() => t.url('bidding'));

    before(async () => {
      t = await startTestRuntime({
        services: ['bidding'],
        database,
        clock: 'manual',
        clockStart: NOW,
        settings: { bidding: { accounts: [{ accountId: '3000', name: 'Other bidder', token: 'other-bidder-token' }] } },
      });
      otherBidder = 'other-bidder-token';
      const res = await call(`${t.adminUrl}/services/bidding/accounts`, { body: { accountId: '3001', parentBidderId: '3000' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.role, 'child');
      otherChild = res.body.token;
    });
    after(async () => t.close());

    const names = async (token: string, owner: string) => {
      const res = await api(token, 'GET', `${owner}/filterSets`);
      assert.equal(res.status, 200, res.text);
      return (res.body.filterSets ?? []).map((f: { name: string }) => f.name);
    };

    it('creates, gets, lists and deletes at bidder level; create answers the filter set as get does, with its id', async () => {
      const body = { name: 'bidders/1000/filterSets/weekly', ...range, format: 'DISPLAY', platforms: ['MOBILE', 'TABLET'], timeSeriesGranularity: 'DAILY' };
      // filterSetId is output only: a value sent on create is ignored.
      let res = await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { ...body, filterSetId: '999' });
      assert.equal(res.status, 200, res.text);
      const created = res.body;
      assert.match(created.filterSetId, /^\d+$/);
      assert.notEqual(created.filterSetId, '999');
      assert.deepEqual(created, { ...body, filterSetId: created.filterSetId });
      res = await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/weekly');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, created);
      res = await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets');
      assert.deepEqual(res.body.filterSets.map((f: { name: string }) => f.name), ['bidders/1000/filterSets/weekly']);
      assert.match(res.body.filterSets[0].filterSetId, /^\d+$/);
      res = await api(TOKENS.bidder, 'DELETE', 'bidders/1000/filterSets/weekly');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      res = await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/weekly');
      assert.equal(res.status, 404);
      assert.deepEqual(res.body.error, {
        code: 404,
        message: 'Requested entity was not found.',
        status: 'NOT_FOUND',
        errors: [{ domain: 'global', reason: 'notFound', message: 'Requested entity was not found.' }],
      });
      assert.equal((await api(TOKENS.bidder, 'DELETE', 'bidders/1000/filterSets/weekly')).status, 404);
    });

    it('keeps bidder-level and account-level filter sets apart: each is reachable only where it was created', async () => {
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name: 'bidders/1000/filterSets/b1', ...range })).status, 200);
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/accounts/1000/filterSets', { name: 'bidders/1000/accounts/1000/filterSets/a1', ...range })).status, 200);
      assert.deepEqual(await names(TOKENS.bidder, 'bidders/1000'), ['bidders/1000/filterSets/b1']);
      assert.deepEqual(await names(TOKENS.bidder, 'bidders/1000/accounts/1000'), ['bidders/1000/accounts/1000/filterSets/a1']);
      // The same last segment at the other level is another resource.
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/a1')).status, 404);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/accounts/1000/filterSets/b1')).status, 404);
      assert.equal((await api(TOKENS.bidder, 'DELETE', 'bidders/1000/accounts/1000/filterSets/b1')).status, 404);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/b1/bidMetrics')).status, 200);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/accounts/1000/filterSets/a1/bidMetrics')).status, 200);
    });

    it('shares account-level filter sets between the bidder and its child, in both directions', async () => {
      let res = await api(TOKENS.bidder, 'POST', 'bidders/1000/accounts/1001/filterSets', { name: 'bidders/1000/accounts/1001/filterSets/by-bidder', ...range });
      assert.equal(res.status, 200);
      res = await api(TOKENS.child, 'POST', 'bidders/1000/accounts/1001/filterSets', { name: 'bidders/1000/accounts/1001/filterSets/by-child', ...range });
      assert.equal(res.status, 200);
      const expected = ['bidders/1000/accounts/1001/filterSets/by-bidder', 'bidders/1000/accounts/1001/filterSets/by-child'];
      assert.deepEqual(await names(TOKENS.child, 'bidders/1000/accounts/1001'), expected);
      assert.deepEqual(await names(TOKENS.bidder, 'bidders/1000/accounts/1001'), expected);
      assert.equal((await api(TOKENS.child, 'GET', 'bidders/1000/accounts/1001/filterSets/by-bidder')).status, 200);
      assert.equal((await api(TOKENS.child, 'GET', 'bidders/1000/accounts/1001/filterSets/by-bidder/bidMetrics')).status, 200);
      assert.equal((await api(TOKENS.bidder, 'DELETE', 'bidders/1000/accounts/1001/filterSets/by-child')).status, 200);
      assert.equal((await api(TOKENS.child, 'DELETE', 'bidders/1000/accounts/1001/filterSets/by-bidder')).status, 200);
      assert.deepEqual(await names(TOKENS.child, 'bidders/1000/accounts/1001'), []);
    });

    it('refuses every bidder-level operation to a child account, a delegating account and another bidder', async () => {
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name: 'bidders/1000/filterSets/guarded', ...range })).status, 200);
      const calls: Array<[string, string, unknown?]> = [
        ['POST', 'bidders/1000/filterSets', { name: 'bidders/1000/filterSets/intruder', ...range }],
        ['GET', 'bidders/1000/filterSets'],
        ['GET', 'bidders/1000/filterSets/guarded'],
        ['GET', 'bidders/1000/filterSets/guarded/bidMetrics'],
        ['DELETE', 'bidders/1000/filterSets/guarded'],
      ];
      for (const token of [TOKENS.child, TOKENS.delegate, otherBidder, otherChild]) {
        for (const [method, path, body] of calls) {
          const res = await api(token, method, path, body);
          assert.equal(res.status, 403, `${token} ${method} ${path}`);
          assert.equal(res.body.error.status, 'PERMISSION_DENIED');
          assert.equal(res.body.error.code, 403);
        }
      }
      const child = await api(TOKENS.child, 'GET', 'bidders/1000/filterSets');
      assert.match(child.body.error.message, /not a bidder account/);
      assert.deepEqual(await names(TOKENS.bidder, 'bidders/1000'), ['bidders/1000/filterSets/b1', 'bidders/1000/filterSets/guarded']);
    });

    it('limits child and delegating accounts to their own account-level path', async () => {
      for (const [token, own] of [
        [TOKENS.child, 'bidders/1000/accounts/1001'],
        [TOKENS.delegate, 'bidders/1000/accounts/2001'],
      ]) {
        assert.equal((await api(token, 'GET', `${own}/filterSets`)).status, 200);
        for (const path of ['bidders/1000/accounts/1000/filterSets', 'bidders/3000/accounts/3001/filterSets', 'bidders/1000/accounts/9999/filterSets']) {
          assert.equal((await api(token, 'GET', path)).status, 403, `${token} ${path}`);
        }
      }
      // The child cannot read the bidder's own account-level set, another bidder cannot reach 1000's accounts.
      assert.equal((await api(TOKENS.child, 'GET', 'bidders/1000/accounts/1000/filterSets/a1')).status, 403);
      assert.equal((await api(otherBidder, 'GET', 'bidders/1000/accounts/1001/filterSets')).status, 403);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/3000/accounts/3001/filterSets')).status, 403);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/accounts/3001/filterSets')).status, 403);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/accounts/2001/filterSets')).status, 200);
    });

    it('keeps the bidder-only metrics from delegating accounts and serves the others to them', async () => {
      assert.equal((await api(TOKENS.delegate, 'POST', 'bidders/1000/accounts/2001/filterSets', { name: 'bidders/1000/accounts/2001/filterSets/d', ...range })).status, 200);
      assert.equal((await api(TOKENS.delegate, 'GET', 'bidders/1000/accounts/2001/filterSets/d/bidMetrics')).status, 200);
      for (const collection of ['impressionMetrics', 'filteredBids', 'bidResponseErrors', 'bidResponsesWithoutBids']) {
        const res = await api(TOKENS.delegate, 'GET', `bidders/1000/accounts/2001/filterSets/d/${collection}`);
        assert.equal(res.status, 403, collection);
        assert.equal(res.body.error.status, 'PERMISSION_DENIED');
      }
      // The spec's filteredBidResponses is filteredBids, and the per-status breakdowns belong to it.
      for (const path of ['filteredBidResponses', 'filteredBids/10/creatives', 'filteredBids/10/details']) {
        assert.equal((await api(TOKENS.delegate, 'GET', `bidders/1000/accounts/2001/filterSets/d/${path}`)).status, 403, path);
      }
      for (const collection of ['losingBids', 'nonBillableWinningBids', 'filteredBidRequests']) {
        assert.equal((await api(TOKENS.delegate, 'GET', `bidders/1000/accounts/2001/filterSets/d/${collection}`)).status, 200, collection);
      }
      const res = await api(TOKENS.child, 'GET', 'bidders/1000/accounts/1001/filterSets/x/impressionMetrics');
      assert.equal(res.status, 404);
      assert.equal(res.body.error.status, 'NOT_FOUND');
    });

    it('authenticates: no token 401, unknown token 401, a token of no bidding account 403', async () => {
      let res = await api(undefined, 'GET', 'bidders/1000/filterSets');
      assert.equal(res.status, 401);
      assert.equal(res.body.error.status, 'UNAUTHENTICATED');
      res = await api('nonsense', 'GET', 'bidders/1000/filterSets');
      assert.equal(res.status, 401);
      res = await api(DEV_TOKEN, 'GET', 'bidders/1000/filterSets');
      assert.equal(res.status, 403);
      assert.match(res.body.error.message, /not a bidding account/);
    });

    it('refuses invalid filter sets with INVALID_ARGUMENT and stores nothing', async () => {
      const before = await names(TOKENS.bidder, 'bidders/1000/accounts/1001');
      const owner = 'bidders/1000/accounts/1001';
      const n = `${owner}/filterSets/bad`;
      const cases: Array<[unknown, RegExp]> = [
        [{ ...range }, /name is required/],
        [{ name: 'bidders/1000/filterSets/bad', ...range }, /does not belong/],
        [{ name: `${owner}/filterSets/a/b`, ...range }, /must match/],
        [{ name: n }, /time range is required/],
        [{ name: n, ...range, absoluteDateRange: { startDate: { year: 2026, month: 1, day: 1 }, endDate: { year: 2026, month: 1, day: 2 } } }, /Only one time range/],
        [{ name: n, absoluteDateRange: { startDate: { year: 2026, month: 13, day: 1 }, endDate: { year: 2026, month: 1, day: 2 } } }, /not a valid date/],
        [{ name: n, absoluteDateRange: { startDate: { year: 2026, month: 1, day: 1 } } }, /endDate is required/],
        [{ name: n, realtimeTimeRange: { startTimestamp: '2026-01-10 25:00' } }, /start_timestamp/],
        [{ name: n, relativeDateRange: { durationDays: -1 } }, /positive/],
        [{ name: n, ...range, format: 'AUDIO' }, /Invalid value at 'filter_set.format' \(TYPE_ENUM\), "AUDIO"/],
        [{ name: n, ...range, environment: 'TV' }, /filter_set.environment/],
        [{ name: n, ...range, platforms: ['MOBILE', 'CAR'] }, /filter_set.platforms\[1\]/],
        [{ name: n, ...range, timeSeriesGranularity: 'MINUTELY' }, /time_series_granularity/],
        [{ name: n, ...range, formats: ['NATIVE_VIDEO', 'NATIVE_DISPLAY'] }, /Only one format/],
        [{ name: n, ...range, unknownField: 1 }, /Unknown name "unknownField"/],
        [{ name: n, ...range, sellerNetworkIds: ['net'] }, /Invalid value at 'filter_set.seller_network_ids\[0\]' \(TYPE_INT32\), "net"/],
        [{ name: n, ...range, publisherIdentifiers: [7] }, /Invalid value at 'filter_set.publisher_identifiers\[0\]' \(TYPE_STRING\), 7/],
        [{ name: n, ...range, breakdownDimensions: ['COUNTRY'] }, /Invalid value at 'filter_set.breakdown_dimensions\[0\]' \(TYPE_ENUM\), "COUNTRY"/],
        [{ name: n, ...range, breakdownDimensions: ['PUBLISHER_IDENTIFIER'] }, /breakdownDimensions is not supported/],
        [{ name: n, ...range, sellerNetworkIds: [12] }, /sellerNetworkIds is not supported/],
        [[1, 2], /Expected a filter set object/],
      ];
      for (const [body, pattern] of cases) {
        const res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
        assert.equal(res.body.error.code, 400);
        assert.match(res.body.error.message, pattern);
        assert.equal(res.body.error.errors[0].message, res.body.error.message);
      }
      // Creative and deal filters: refused at bidder level, accepted at account level.
      for (const extra of [{ creativeId: 'cr1' }, { dealId: '90001' }]) {
        const res = await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name: 'bidders/1000/filterSets/bad', ...range, ...extra });
        assert.equal(res.status, 400);
        assert.match(res.body.error.message, /account-level/);
      }
      let res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets?isTransient=maybe`, { name: n, ...range });
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /is_transient/);
      res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets?colour=red`, { name: n, ...range });
      assert.equal(res.status, 400);
      res = await call(`${t.url('bidding')}/v2beta1/${owner}/filterSets`, { method: 'POST', raw: '{"name":', headers: { authorization: `Bearer ${TOKENS.bidder}`, 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
      assert.deepEqual(await names(TOKENS.bidder, owner), before);
      assert.deepEqual(await names(TOKENS.bidder, 'bidders/1000'), ['bidders/1000/filterSets/b1', 'bidders/1000/filterSets/guarded']);
    });

    it('accepts breakdownDimensions that break down nothing and empty dimension lists, and echoes them', async () => {
      const body = { name: 'bidders/1000/filterSets/unspecified-breakdown', ...range, breakdownDimensions: ['BREAKDOWN_DIMENSION_UNSPECIFIED'], sellerNetworkIds: [], publisherIdentifiers: [] };
      const res = await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', body);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { ...body, filterSetId: res.body.filterSetId });
      assert.equal((await api(TOKENS.bidder, 'GET', `${body.name}/bidMetrics`)).status, 200);
      assert.equal((await api(TOKENS.bidder, 'DELETE', body.name)).status, 200);
    });

    it('refuses relative date ranges reaching back more than 30 days, as the real API, and stores nothing', async () => {
      const owner = 'bidders/1000/accounts/1001';
      const before = await names(TOKENS.bidder, owner);
      for (const relativeDateRange of [{ durationDays: 31 }, { durationDays: 20, offsetDays: 11 }, { durationDays: 1, offsetDays: 30 }]) {
        const res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, { name: `${owner}/filterSets/too-far`, relativeDateRange });
        assert.equal(res.status, 400, JSON.stringify(relativeDateRange));
        const message = 'relativeDateRange must lie within the last 30 days: offsetDays + durationDays must be at most 30.';
        assert.deepEqual(res.body, { error: { code: 400, message, status: 'INVALID_ARGUMENT', errors: [{ domain: 'global', reason: 'invalid', message }] } });
      }
      assert.deepEqual(await names(TOKENS.bidder, owner), before);
      const edge = { name: `${owner}/filterSets/edge`, relativeDateRange: { durationDays: 10, offsetDays: 20 } };
      assert.equal((await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, edge)).status, 200);
      assert.equal((await api(TOKENS.bidder, 'DELETE', edge.name)).status, 200);
    });

    it('refuses absolute ranges outside the 30 days up to today and realtime ranges starting later than now, and stores nothing', async () => {
      // Now is 2026-01-10 12:30 in Pacific time: the window runs from 2025-12-11 to 2026-01-10.
      const owner = 'bidders/1000/accounts/1001';
      const before = await names(TOKENS.bidder, owner);
      const day = (year: number, month: number, d: number) => ({ year, month, day: d });
      const windowMessage = 'absoluteDateRange must lie within the 30 days up to today: from 2025-12-11 to 2026-01-10.';
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ absoluteDateRange: { startDate: day(2025, 12, 10), endDate: day(2025, 12, 20) } }, windowMessage],
        [{ absoluteDateRange: { startDate: day(2026, 1, 9), endDate: day(2026, 1, 11) } }, windowMessage],
        [{ absoluteDateRange: { startDate: day(2025, 1, 1), endDate: day(2025, 1, 31) } }, windowMessage],
        [{ realtimeTimeRange: { startTimestamp: '2026-01-10T20:31:00Z' } }, 'realtimeTimeRange.startTimestamp must not be in the future.'],
      ];
      for (const [range, message] of refusals) {
        const res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, { name: `${owner}/filterSets/out-of-window`, ...range });
        assert.equal(res.status, 400, JSON.stringify(range));
        assert.deepEqual(res.body, { error: { code: 400, message, status: 'INVALID_ARGUMENT', errors: [{ domain: 'global', reason: 'invalid', message }] } });
      }
      assert.deepEqual(await names(TOKENS.bidder, owner), before);
      for (const [id, range] of [
        ['window-edges', { absoluteDateRange: { startDate: day(2025, 12, 11), endDate: day(2026, 1, 10) } }],
        ['realtime-now', { realtimeTimeRange: { startTimestamp: '2026-01-10T20:30:00Z' } }],
      ] as const) {
        const res = await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, { name: `${owner}/filterSets/${id}`, ...range });
        assert.equal(res.status, 200, res.text);
        assert.equal((await api(TOKENS.bidder, 'DELETE', `${owner}/filterSets/${id}`)).status, 200);
      }
    });

    it('refuses a duplicate name with ALREADY_EXISTS and keeps the first', async () => {
      const first = { name: 'bidders/1000/filterSets/dup', ...range, environment: 'WEB' };
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', first)).status, 200);
      const res = await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { ...first, environment: 'APP' });
      assert.equal(res.status, 409);
      assert.equal(res.body.error.status, 'ALREADY_EXISTS');
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/dup')).body.environment, 'WEB');
      // Names are global: the same name races at once, one wins.
      const race = await Promise.all([0, 1, 2].map(() => api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name: 'bidders/1000/filterSets/race', ...range })));
      assert.deepEqual(race.map((r) => r.status).sort(), [200, 409, 409]);
      await api(TOKENS.bidder, 'DELETE', 'bidders/1000/filterSets/dup');
      await api(TOKENS.bidder, 'DELETE', 'bidders/1000/filterSets/race');
    });

    it('accepts names with %2F-encoded slashes as the same resources', async () => {
      const res = await call(`${t.url('bidding')}/v2beta1/bidders%2F1000%2FfilterSets%2Fb1`, { headers: { authorization: `Bearer ${TOKENS.bidder}` } });
      assert.equal(res.status, 200);
      assert.equal(res.body.name, 'bidders/1000/filterSets/b1');
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/nothing')).status, 404);
      assert.equal((await api(TOKENS.bidder, 'PUT', 'bidders/1000/filterSets/b1', {})).status, 404);
    });

    it('finds no metrics collection named like an Object.prototype member', async () => {
      const name = 'bidders/1000/filterSets/inherited';
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name, ...range })).status, 200);
      assert.equal((await api(TOKENS.bidder, 'GET', `${name}/bidMetrics`)).status, 200);
      for (const collection of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
        const path = `/v2beta1/${name}/${collection}`;
        const res = await api(TOKENS.bidder, 'GET', `${name}/${collection}`);
        assert.equal(res.status, 404, `${collection}: ${res.text}`);
        const message = `The requested URL ${path} was not found on this server.`;
        assert.deepEqual(res.body, { error: { code: 404, message, status: 'NOT_FOUND', errors: [{ domain: 'global', reason: 'notFound', message }] } });
      }
      await api(TOKENS.bidder, 'DELETE', name);
    });

    it('paginates the list with pageSize and pageToken', async () => {
      const owner = 'bidders/1000/accounts/1000';
      for (const id of ['p1', 'p2', 'p3', 'p4']) {
        assert.equal((await api(TOKENS.bidder, 'POST', `${owner}/filterSets`, { name: `${owner}/filterSets/${id}`, ...range })).status, 200);
      }
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const res = await api(TOKENS.bidder, 'GET', `${owner}/filterSets?pageSize=2${token ? `&pageToken=${token}` : ''}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.filterSets.length <= 2);
        seen.push(...res.body.filterSets.map((f: { name: string }) => f.name.split('/').pop()));
        token = res.body.nextPageToken;
        pages++;
      } while (token);
      assert.deepEqual(seen, ['a1', 'p1', 'p2', 'p3', 'p4']);
      assert.equal(pages, 3);
      let res = await api(TOKENS.bidder, 'GET', `${owner}/filterSets?pageToken=garbage`);
      assert.equal(res.status, 400);
      res = await api(TOKENS.bidder, 'GET', `${owner}/filterSets?pageSize=-1`);
      assert.equal(res.status, 400);
      // pageSize is an int32: the largest one is capped to the page limit, one past it is refused.
      assert.equal((await api(TOKENS.bidder, 'GET', `${owner}/filterSets?pageSize=2147483647`)).status, 200);
      res = await api(TOKENS.bidder, 'GET', `${owner}/filterSets?pageSize=2147483648`);
      assert.deepEqual([res.status, res.body.error.message], [400, 'Invalid value for pageSize: 2147483648']);
    });

    it('removes a transient filter set after an hour, through the durable job, and keeps persisted ones', async () => {
      const owner = 'bidders/1000/accounts/1001';
      let res = await api(TOKENS.child, 'POST', `${owner}/filterSets?isTransient=true`, { name: `${owner}/filterSets/short`, ...range });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { name: `${owner}/filterSets/short`, ...range, filterSetId: res.body.filterSetId });
      assert.equal((await api(TOKENS.child, 'POST', `${owner}/filterSets?isTransient=false`, { name: `${owner}/filterSets/kept`, ...range })).status, 200);
      const jobs = await call(`${t.adminUrl}/jobs`);
      if (jobs.status === 200) assert.ok(JSON.stringify(jobs.body).includes('short'));
      await call(`${t.adminUrl}/clock`, { body: { advance: '59m' } });
      assert.equal((await api(TOKENS.child, 'GET', `${owner}/filterSets/short`)).status, 200);
      res = await call(`${t.adminUrl}/clock`, { body: { advance: '2m' } });
      assert.equal(res.status, 200);
      assert.ok(res.body.jobsRun >= 1);
      assert.equal((await api(TOKENS.child, 'GET', `${owner}/filterSets/short`)).status, 404);
      assert.deepEqual(await names(TOKENS.child, owner), [`${owner}/filterSets/kept`]);
      // The name is free again.
      assert.equal((await api(TOKENS.child, 'POST', `${owner}/filterSets`, { name: `${owner}/filterSets/short`, ...range })).status, 200);
    });

    it('manages accounts and tokens through the admin API', async () => {
      const admin = `${t.adminUrl}/services/bidding/accounts`;
      let res = await call(admin, { body: { accountId: '3001', parentBidderId: '3000' } });
      assert.equal(res.status, 409);
      for (const body of [{ accountId: '4001', parentBidderId: '9999' }, { accountId: '4001', parentBidderId: '1001' }, { accountId: '4001', parentBidderId: '1000', delegatesTo: '1000' }, { accountId: 'a b' }]) {
        res = await call(admin, { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.error.message, 'string');
      }
      assert.equal((await call(`${admin}/4001`)).status, 404);
      res = await call(admin, { body: { accountId: '4001', delegatesTo: '3000', name: 'Agency' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.role, 'delegate');
      const first = res.body.token;
      res = await call(`${admin}/4001/tokens`, { body: {} });
      assert.equal(res.status, 201);
      for (const token of [first, res.body.token]) assert.equal((await api(token, 'GET', 'bidders/3000/accounts/4001/filterSets')).status, 200);
      assert.equal((await call(`${admin}/3000`, { method: 'DELETE' })).status, 409);
      assert.equal((await call(`${admin}/4001`, { method: 'DELETE' })).status, 204);
      assert.equal((await api(first, 'GET', 'bidders/3000/accounts/4001/filterSets')).status, 401);
      assert.equal((await call(`${admin}/4001`, { method: 'DELETE' })).status, 404);
    });

    it('survives a restart', async () => {
      await t.restart();
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/b1')).status, 200);
      assert.equal((await api(otherChild, 'GET', 'bidders/3000/accounts/3001/filterSets')).status, 200);
    });

    it('answers 404 for a filter set read just before a reset of the service', async () => {
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/b1')).status, 200);
      const reset = await call(`${t.adminUrl}/reset`, { body: { service: 'bidding' } });
      assert.equal(reset.status, 200, reset.text);
      const res = await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets/b1');
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.status, 'NOT_FOUND');
    });

    // Last: it moves the clock by a day.
    it('answers FAILED_PRECONDITION for the metrics of an absolute range once today is more than 30 days after its start', async () => {
      const name = 'bidders/1000/filterSets/aging';
      const body = { name, absoluteDateRange: { startDate: { year: 2025, month: 12, day: 11 }, endDate: { year: 2025, month: 12, day: 12 } } };
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', body)).status, 200);
      assert.equal((await api(TOKENS.bidder, 'GET', `${name}/bidMetrics`)).status, 200, 'on the 30th day after its start');
      assert.equal((await call(`${t.adminUrl}/clock`, { body: { advance: '1d' } })).status, 200);
      const res = await api(TOKENS.bidder, 'GET', `${name}/bidMetrics`);
      const message = "The filter set's absoluteDateRange starts more than 30 days before today; metrics cover only the last 30 days.";
      assert.deepEqual([res.status, res.body.error.status, res.body.error.message], [400, 'FAILED_PRECONDITION', message]);
      assert.equal((await api(TOKENS.bidder, 'GET', name)).status, 200, 'the filter set itself stays readable');
    });
  });
}
