// Ingestion under concurrency and across a restart: counters are additive upserts, so parallel loads add up exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import type { ServiceContext } from '../../src/core/service.ts';
import { biddingOf } from '../../src/services/bidding/bidding.ts';
import { eventToJson } from '../../src/services/bidding/domain/events.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { TOKENS, apiClient, rowTotals, totals, type WireEvent } from './helpers.ts';

const NOW = Date.parse('2026-02-01T12:00:00Z');

// Four loads of overlapping traffic (same hours, same dimension keys).
const LOADS: WireEvent[][] = [1, 2, 3, 4].map((seed) =>
  [...simulate({ bidder: '1000', accounts: ['1000', '1001'], end: NOW, days: 1, rate: 60, seed })].map((e) => eventToJson(e) as unknown as WireEvent),
);

for (const database of DATABASES) {
  describe(`bidding ingestion (${database})`, () => {
    let t: TestRuntime;
    const api = apiClient(() => t.url('bidding'));
    before(async () => {
      t = await startTestRuntime({ services: ['bidding'], database, clock: 'manual', clockStart: NOW });
    });
    after(async () => t.close());

    it('adds up parallel loads exactly and keeps them across a restart', async () => {
      const results = await Promise.all(
        LOADS.map((events) =>
          call(`${t.adminUrl}/services/bidding/events`, { method: 'POST', raw: events.map((e) => JSON.stringify(e)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } }),
        ),
      );
      for (const r of results) assert.equal(r.status, 200, r.text);
      const name = 'bidders/1000/filterSets/all';
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name, relativeDateRange: { durationDays: 3 } })).status, 200);
      const expected = totals(LOADS.flat());
      let res = await api(TOKENS.bidder, 'GET', `${name}/bidMetrics`);
      assert.deepEqual(rowTotals(res.body.bidMetricsRows[0]), expected);
      await t.restart();
      res = await api(TOKENS.bidder, 'GET', `${name}/bidMetrics`);
      assert.deepEqual(rowTotals(res.body.bidMetricsRows[0]), expected);
      const health = await call(`${t.adminUrl}/health`);
      assert.equal(health.body.services.bidding.filterSets, 1);
    });

    it('frees the name of an expired transient filter set at once', async () => {
      const name = 'bidders/1000/filterSets/brief';
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets?isTransient=true', { name, relativeDateRange: { durationDays: 1 } })).status, 200);
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name, relativeDateRange: { durationDays: 1 } })).status, 409);
      // Cancel the job so only the expiry time decides, then move past the hour.
      await t.rt.jobs.cancel(`bidding:transient:${name}`);
      await call(`${t.adminUrl}/clock`, { body: { advance: '61m' } });
      assert.equal((await api(TOKENS.bidder, 'GET', name)).status, 404);
      assert.equal((await api(TOKENS.bidder, 'POST', 'bidders/1000/filterSets', { name, relativeDateRange: { durationDays: 1 } })).status, 200);
      assert.equal((await api(TOKENS.bidder, 'GET', name)).status, 200);
    });
  });
}

describe('bidding settings', () => {
  it('refuses invalid settings', () => {
    // A bare context: settings are checked before anything touches the database.
    for (const settings of [{ timeZone: 'Mars/Olympus' }, { timeZone: 'Asia/Kolkata' }, { accounts: [{ accountId: 'a/b' }] }, { colour: 'red' }]) {
      const ctx = { settings, clock: { now: () => NOW } } as unknown as ServiceContext;
      assert.throws(() => biddingOf(ctx), /services\.bidding/, JSON.stringify(settings));
    }
  });

  it('seeds configured accounts, and none of the demo ones when demo is false', async () => {
    const t = await startTestRuntime({
      services: ['bidding'],
      database: 'sqlite',
      settings: { bidding: { demo: false, timeZone: 'UTC', accounts: [{ accountId: 'c1', parentBidderId: 'b1', token: 'child-token-1' }, { accountId: 'b1', token: 'bidder-token-1' }] } },
    });
    try {
      const res = await call(`${t.adminUrl}/services/bidding/accounts`);
      assert.deepEqual(res.body.accounts.map((a: { accountId: string; role: string }) => [a.accountId, a.role]), [['b1', 'bidder'], ['c1', 'child']]);
      const api = apiClient(() => t.url('bidding'));
      assert.equal((await api('child-token-1', 'GET', 'bidders/b1/accounts/c1/filterSets')).status, 200);
      assert.equal((await api(TOKENS.bidder, 'GET', 'bidders/1000/filterSets')).status, 401);
    } finally {
      await t.close();
    }
  });
});
