// Pure rules of the bidding service: event parsing, roll-up, filter-set validation, time ranges, rows, access.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { GoogleError } from '../../src/core/google/errors.ts';
import { authorize, type Account } from '../../src/services/bidding/domain/access.ts';
import { EventError, OUTCOMES, eventToJson, parseEvent, reasonOf, stageOf, type BidEvent } from '../../src/services/bidding/domain/events.ts';
import { rollUpOutcomes } from '../../src/services/bidding/domain/outcome-rollup.ts';
import { DEFAULT_REASON, STAGE } from '../../src/services/bidding/domain/stages.ts';
import { parseFilterSet } from '../../src/services/bidding/domain/filter-set.ts';
import { hourlyCounts, simulate } from '../../src/services/bidding/domain/generator.ts';
import { buildRows, metricValue } from '../../src/services/bidding/domain/metrics.ts';
import { parseTarget } from '../../src/services/bidding/domain/names.ts';
import { HOUR_MS, rollUp } from '../../src/services/bidding/domain/rollup.ts';
import { resolveRange } from '../../src/services/bidding/domain/time-range.ts';

const PACIFIC = 'America/Los_Angeles';
const base = { time: '2026-01-10T10:15:00Z', bidder: '1000', account: '1001', format: 'NATIVE_DISPLAY', environment: 'WEB', platform: 'MOBILE' };

describe('bid events', () => {
  it('parses a complete event and writes it back the same', () => {
    const input = { ...base, creativeId: 'cr-1', dealId: '77', bid: true, inAuction: true, won: true, billed: true, measurable: true, viewable: true };
    const ev = parseEvent(input);
    assert.equal(ev.at, Date.parse('2026-01-10T10:15:00Z'));
    assert.equal(ev.outcomes, 0b111111);
    assert.deepEqual(eventToJson(ev), { ...input, time: '2026-01-10T10:15:00.000Z' });
  });

  it('accepts the spec short formats as the non-native ones', () => {
    assert.equal(eventToJson(parseEvent({ ...base, format: 'VIDEO' })).format, 'NON_NATIVE_VIDEO');
  });

  it('refuses malformed events with a reason', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, time: '2026-02-30T00:00:00Z' }, /time/],
      [{ ...base, time: 'yesterday' }, /time/],
      [{ ...base, bidder: '' }, /bidder/],
      [{ ...base, account: 'a/b' }, /account/],
      [{ ...base, format: 'BANNER' }, /format/],
      [{ ...base, environment: 'TV' }, /environment/],
      [{ ...base, platform: 'WATCH' }, /platform/],
      [{ ...base, dealId: 'abc' }, /dealId/],
      [{ ...base, bid: 'yes' }, /bid/],
      [{ ...base, won: true, inAuction: true }, /"inAuction" is true but "bid"/],
      [{ ...base, bid: true, viewable: true }, /"viewable" is true but "measurable"/],
      [{ ...base, extra: 1 }, /unknown field "extra"/],
    ];
    for (const [input, pattern] of cases) assert.throws(() => parseEvent(input), (e: Error) => e instanceof EventError && pattern.test(e.message), JSON.stringify(input));
    assert.throws(() => parseEvent([1]), EventError);
  });
});

describe('funnel stages', () => {
  it('puts each event at one stage with its reason or the stage default, and writes it back the same', () => {
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [{ inventoryMatch: false }, STAGE.notMatched, 0],
      [{ bidRequest: false, calloutStatusId: 12 }, STAGE.requestFiltered, 12],
      [{ successfulResponse: false }, STAGE.responseError, DEFAULT_REASON[STAGE.responseError]],
      [{ noBidStatus: 'RESPONSES_WITHOUT_BIDS_FOR_DEAL' }, STAGE.noBid, 3],
      [{}, STAGE.noBid, 1],
      [{ bid: true, creativeStatusId: 19, detail: 'vendor.example' }, STAGE.bidFiltered, 19],
      [{ bid: true, inAuction: true }, STAGE.bidLost, 79],
      [{ bid: true, inAuction: true, won: true, nonBillableStatus: 'FATAL_VAST_ERROR' }, STAGE.wonNotBilled, 3],
      [{ bid: true, inAuction: true, won: true, billed: true }, STAGE.wonBilled, 0],
    ];
    for (const [fields, stage, reason] of cases) {
      const input = { ...base, ...fields };
      const ev = parseEvent(input);
      assert.equal(stageOf(ev), stage, JSON.stringify(fields));
      assert.equal(reasonOf(ev), reason, JSON.stringify(fields));
      assert.deepEqual(eventToJson(ev), { ...input, time: '2026-01-10T10:15:00.000Z' });
    }
  });

  it('refuses inconsistent funnels and reasons of another stage', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ inventoryMatch: 'no' }, /"inventoryMatch" must be a boolean/],
      [{ bidRequest: false, successfulResponse: true }, /"successfulResponse" is true but "bidRequest"/],
      [{ successfulResponse: false, bid: true }, /"bid" is true but "successfulResponse"/],
      [{ creativeStatusId: 3 }, /"creativeStatusId" applies only to a bid that did not win/],
      [{ bid: true, creativeStatusId: 0 }, /positive int32/],
      [{ bid: true, creativeStatusId: 2 ** 31 }, /positive int32/],
      [{ bid: true, creativeStatusId: 3, detail: 'x' }, /"detail" applies only/],
      [{ bid: true, creativeStatusId: 10, detail: '' }, /"detail" must be 1 to 200/],
      [{ bid: true, inAuction: true, won: true, nonBillableStatus: 'LATE' }, /"nonBillableStatus" must be one of/],
      [{ inventoryMatch: false, calloutStatusId: 1 }, /"calloutStatusId" applies only/],
    ];
    for (const [fields, pattern] of cases) {
      assert.throws(() => parseEvent({ ...base, ...fields }), (e: Error) => e instanceof EventError && pattern.test(e.message), JSON.stringify(fields));
    }
  });

  it('keeps every event in the outcome counts, once, in both aggregates', () => {
    const options = { bidder: '1', accounts: ['1', '2'], end: Date.parse('2026-01-10T00:00:00Z'), days: 0.25, rate: 400 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
        const events = [...simulate({ ...options, seed })];
        const { outcomes, details } = rollUpOutcomes(events);
        assert.equal(outcomes.reduce((s, r) => s + (r[8] as number), 0), events.length);
        assert.equal(details.reduce((s, r) => s + (r[11] as number), 0), events.length);
        for (const stage of Object.values(STAGE)) {
          const n = events.filter((e) => stageOf(e) === stage).length;
          assert.equal(outcomes.filter((r) => r[6] === stage).reduce((s, r) => s + (r[8] as number), 0), n);
          assert.equal(details.filter((r) => r[1] === stage).reduce((s, r) => s + (r[11] as number), 0), n);
        }
      }),
      { numRuns: 20 },
    );
  });
});

describe('roll-up', () => {
  const eventArb = fc.record({
    at: fc.integer({ min: 0, max: 10 * HOUR_MS }),
    bidder: fc.constantFrom('1', '2'),
    account: fc.constantFrom('a', 'b'),
    format: fc.integer({ min: 1, max: 4 }),
    environment: fc.integer({ min: 1, max: 2 }),
    platform: fc.integer({ min: 1, max: 3 }),
    creative: fc.constantFrom('', 'c1', 'c2'),
    deal: fc.constantFrom('', '5'),
    outcomes: fc.integer({ min: 0, max: 63 }),
    funnel: fc.constantFrom(0, 0, 1, 2, 4),
    reason: fc.integer({ min: 0, max: 3 }),
    detail: fc.constantFrom('', 'd1'),
  });

  it('keeps every count: the sums of both aggregates equal the counts of events', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 200 }), (events: BidEvent[]) => {
        const { rollup, detail, deals } = rollUp(events);
        for (let bit = 0; bit < OUTCOMES.length; bit++) {
          const expected = events.filter((e) => e.outcomes & (1 << bit)).length;
          assert.equal(rollup.reduce((s, r) => s + (r[6 + bit] as number), 0), expected);
          assert.equal(detail.reduce((s, r) => s + (r[8 + bit] as number), 0), expected);
          assert.equal(deals.reduce((s, r) => s + (r[7 + bit] as number), 0), expected);
        }
        const keys = rollup.map((r) => r.slice(0, 6).join('|'));
        assert.equal(new Set(keys).size, keys.length, 'one row per key');
        for (const r of rollup) assert.equal((r[1] as number) % HOUR_MS, 0, 'hours are aligned');
      }),
    );
  });
});

describe('filter sets', () => {
  const owner = { level: 'bidder' as const, bidderId: '1000' };
  const ok = { name: 'bidders/1000/filterSets/fs1', relativeDateRange: { durationDays: 7 } };

  it('reads filters as an intersection, platforms as a union, formats through their kinds', () => {
    const q = parseFilterSet({ ...ok, format: 'DISPLAY', environment: 'APP', platforms: ['MOBILE', 'TABLET', 'MOBILE'], timeSeriesGranularity: 'DAILY' }, owner);
    assert.deepEqual(q.formats, [1, 3]);
    assert.equal(q.environment, 2);
    assert.deepEqual(q.platforms, [2, 3]);
    assert.equal(q.granularity, 'DAILY');
    assert.deepEqual(parseFilterSet({ ...ok, format: 'DISPLAY', formats: ['NATIVE_VIDEO'] }, owner).formats, []);
    assert.equal(parseFilterSet({ ...ok, environment: 'ENVIRONMENT_UNSPECIFIED' }, owner).environment, undefined);
  });

  it('refuses invalid filter sets with INVALID_ARGUMENT', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ relativeDateRange: { durationDays: 1 } }, /name is required/],
      [{ ...ok, name: 'bidders/1000/filterSets' }, /must match/],
      [{ ...ok, name: 'bidders/1001/filterSets/x' }, /does not belong/],
      [{ name: ok.name }, /time range is required/],
      [{ ...ok, realtimeTimeRange: { startTimestamp: '2026-01-01T00:00:00Z' } }, /Only one time range/],
      [{ ...ok, relativeDateRange: { durationDays: 0 } }, /positive/],
      [{ ...ok, relativeDateRange: { durationDays: 'x' } }, /duration_days/],
      [{ name: ok.name, absoluteDateRange: { startDate: { year: 2026, month: 2, day: 30 }, endDate: { year: 2026, month: 3, day: 1 } } }, /not a valid date/],
      [{ name: ok.name, absoluteDateRange: { startDate: { year: 2026, month: 3, day: 2 }, endDate: { year: 2026, month: 3, day: 1 } } }, /on or before/],
      [{ name: ok.name, realtimeTimeRange: { startTimestamp: '2026-01-01' } }, /start_timestamp/],
      [{ ...ok, format: 'BANNER' }, /filter_set\.format/],
      [{ ...ok, formats: ['NATIVE_DISPLAY', 'NATIVE_VIDEO'] }, /Only one format/],
      [{ ...ok, environment: 'TV' }, /environment/],
      [{ ...ok, platforms: ['WATCH'] }, /platforms\[0\]/],
      [{ ...ok, platforms: 'MOBILE' }, /platforms/],
      [{ ...ok, timeSeriesGranularity: 'WEEKLY' }, /time_series_granularity/],
      [{ ...ok, creativeId: 'c1' }, /account-level/],
      [{ ...ok, dealId: '5' }, /account-level/],
      [{ ...ok, colour: 'red' }, /Unknown name "colour"/],
      [{ ...ok, sellerNetworkIds: [1] }, /not supported/],
      [{ ...ok, filterSetId: 'x1' }, /filter_set_id/],
      [{ ...ok, dealId: '1' }, /account-level/],
    ];
    for (const [body, pattern] of cases) {
      assert.throws(
        () => parseFilterSet(body, owner),
        (e: unknown) => e instanceof GoogleError && e.status === 400 && pattern.test(e.message),
        JSON.stringify(body),
      );
    }
  });

  it('accepts creative and deal filters at account level, and the spec spelling startTimeStamp', () => {
    const q = parseFilterSet(
      { name: 'bidders/1000/accounts/1001/filterSets/x', realtimeTimeRange: { startTimeStamp: '2026-01-01T00:00:00.5Z' }, creativeId: 'c1', dealId: '007' },
      { level: 'account', bidderId: '1000', accountId: '1001' },
    );
    assert.equal(q.creative, 'c1');
    assert.equal(q.deal, '7');
    assert.deepEqual(q.range, { kind: 'realtime', startMs: Date.parse('2026-01-01T00:00:00.500Z') });
  });
});

describe('time ranges', () => {
  const now = Date.parse('2026-01-10T20:30:00Z'); // 12:30 Pacific standard time
  it('resolves relative and absolute ranges to whole Pacific days', () => {
    assert.deepEqual(resolveRange({ kind: 'relative', durationDays: 1, offsetDays: 0 }, now, PACIFIC), {
      start: Date.parse('2026-01-10T08:00:00Z'),
      end: Date.parse('2026-01-11T08:00:00Z'),
    });
    assert.deepEqual(resolveRange({ kind: 'relative', durationDays: 2, offsetDays: 1 }, now, PACIFIC), {
      start: Date.parse('2026-01-08T08:00:00Z'),
      end: Date.parse('2026-01-10T08:00:00Z'),
    });
    // Across the spring DST change the day is 23 hours long.
    assert.deepEqual(resolveRange({ kind: 'absolute', start: { year: 2026, month: 3, day: 8 }, end: { year: 2026, month: 3, day: 8 } }, now, PACIFIC), {
      start: Date.parse('2026-03-08T08:00:00Z'),
      end: Date.parse('2026-03-09T07:00:00Z'),
    });
  });
  it('starts a realtime range at the hour of its timestamp and ends after the current hour', () => {
    assert.deepEqual(resolveRange({ kind: 'realtime', startMs: Date.parse('2026-01-10T17:45:00Z') }, now, PACIFIC), {
      start: Date.parse('2026-01-10T17:00:00Z'),
      end: Date.parse('2026-01-10T21:00:00Z'),
    });
  });
});

describe('metrics rows', () => {
  const h = (iso: string) => Date.parse(iso);
  const hours = new Map([
    [h('2026-01-10T08:00:00Z'), [3, 2, 1, 1, 0, 0]],
    [h('2026-01-10T09:00:00Z'), [0, 0, 0, 0, 0, 0]],
    [h('2026-01-11T09:00:00Z'), [5, 0, 0, 0, 0, 0]],
  ]);
  const range = { start: h('2026-01-10T08:00:00Z'), end: h('2026-01-12T08:00:00Z') };

  it('serialises zero metrics as {} and others as strings with variance 0', () => {
    assert.deepEqual(metricValue(0), {});
    assert.deepEqual(metricValue(12), { value: '12', variance: '0' });
  });

  it('gives one row without granularity, rows per hour or day with one, and leaves out all-zero rows', () => {
    const whole = buildRows(hours, range, undefined, PACIFIC);
    assert.equal(whole.length, 1);
    assert.equal(whole[0].rowDimensions, undefined);
    assert.deepEqual(whole[0].bids, { value: '8', variance: '0' });
    const hourly = buildRows(hours, range, 'HOURLY', PACIFIC);
    assert.deepEqual(hourly.map((r) => r.rowDimensions!.timeInterval.startTime), ['2026-01-10T08:00:00Z', '2026-01-11T09:00:00Z']);
    assert.equal(hourly[0].rowDimensions!.timeInterval.endTime, '2026-01-10T09:00:00Z');
    const daily = buildRows(hours, range, 'DAILY', PACIFIC);
    assert.deepEqual(daily.map((r) => r.rowDimensions!.timeInterval), [
      { startTime: '2026-01-10T08:00:00Z', endTime: '2026-01-11T08:00:00Z' },
      { startTime: '2026-01-11T08:00:00Z', endTime: '2026-01-12T08:00:00Z' },
    ]);
    assert.deepEqual(daily[1].bidsInAuction, {});
    assert.deepEqual(buildRows(new Map([[range.start, [0, 0, 0, 0, 0, 0]]]), range, undefined, PACIFIC), []);
  });
});

describe('names', () => {
  it('reads owners, filter sets and metrics collections', () => {
    assert.deepEqual(parseTarget('bidders/1/filterSets'.split('/')), { kind: 'filterSets', owner: { level: 'bidder', bidderId: '1' } });
    assert.deepEqual(parseTarget('bidders/1/accounts/2/filterSets/f/bidMetrics'.split('/')), {
      kind: 'metrics',
      owner: { level: 'account', bidderId: '1', accountId: '2' },
      name: 'bidders/1/accounts/2/filterSets/f',
      collection: 'bidMetrics',
    });
    assert.equal(parseTarget('bidders/1/filterSets/f/nonsense'.split('/')), undefined);
    assert.deepEqual(parseTarget('bidders/1/filterSets/f/filteredBids/10/details'.split('/')), {
      kind: 'metrics',
      owner: { level: 'bidder', bidderId: '1' },
      name: 'bidders/1/filterSets/f',
      collection: 'filteredBids',
      breakdown: { creativeStatusId: '10', by: 'details' },
    });
    assert.equal((parseTarget('bidders/1/filterSets/f/filteredBidResponses'.split('/')) as { collection: string }).collection, 'filteredBids');
    for (const path of ['filteredBids/10', 'filteredBids/10/other', 'losingBids/10/creatives', 'impressionMetrics/x']) {
      assert.equal(parseTarget(`bidders/1/filterSets/f/${path}`.split('/')), undefined, path);
    }
    assert.equal(parseTarget('bidders//filterSets'.split('/')), undefined);
  });
});

describe('access matrix', () => {
  const bidder: Account = { accountId: '1000', name: 'b' };
  const child: Account = { accountId: '1001', name: 'c', parentBidderId: '1000' };
  const delegate: Account = { accountId: '2001', name: 'd', delegatesTo: '1000' };
  const other: Account = { accountId: '3000', name: 'o' };
  const otherChild: Account = { accountId: '3001', name: 'oc', parentBidderId: '3000' };
  const bidderLevel = { level: 'bidder' as const, bidderId: '1000' };
  const at = (accountId: string) => ({ level: 'account' as const, bidderId: '1000', accountId });
  const allowed = (...args: Parameters<typeof authorize>) => {
    try {
      authorize(...args);
      return true;
    } catch (e) {
      assert.ok(e instanceof GoogleError && e.status === 403);
      return false;
    }
  };

  it('gives bidder level to the bidder alone', () => {
    assert.equal(allowed(bidder, bidderLevel, undefined), true);
    assert.equal(allowed(child, bidderLevel, undefined), false);
    assert.equal(allowed(delegate, bidderLevel, undefined), false);
    assert.equal(allowed(other, bidderLevel, undefined), false);
  });

  it('shares account level between the bidder and each of its accounts', () => {
    assert.equal(allowed(bidder, at('1000'), bidder), true);
    assert.equal(allowed(bidder, at('1001'), child), true);
    assert.equal(allowed(bidder, at('2001'), delegate), true);
    assert.equal(allowed(bidder, at('3001'), otherChild), false);
    assert.equal(allowed(bidder, at('9999'), undefined), false);
    assert.equal(allowed(child, at('1001'), child), true);
    assert.equal(allowed(child, at('1000'), bidder), false);
    assert.equal(allowed(delegate, at('2001'), delegate), true);
    assert.equal(allowed(other, at('1001'), child), false);
  });

  it('keeps the bidder-only metrics from delegating accounts', () => {
    assert.equal(allowed(delegate, at('2001'), delegate, 'bidMetrics'), true);
    assert.equal(allowed(delegate, at('2001'), delegate, 'impressionMetrics'), false);
    assert.equal(allowed(child, at('1001'), child, 'impressionMetrics'), true);
  });
});

describe('generator', () => {
  const options = { bidder: '1000', accounts: ['1000', '1001'], end: Date.parse('2026-01-10T00:00:00Z'), days: 1, rate: 50, seed: 9 };
  it('is deterministic and yields valid events in the window', () => {
    const a = [...simulate(options)];
    const b = [...simulate(options)];
    assert.deepEqual(a, b);
    assert.equal(a.length, hourlyCounts(options).counts.reduce((x, y) => x + y, 0));
    for (const ev of a) {
      assert.deepEqual(parseEvent(eventToJson(ev)), ev);
      assert.ok(ev.at >= options.end - 24 * HOUR_MS && ev.at < options.end);
    }
    assert.notDeepEqual([...simulate({ ...options, seed: 10 })], a);
  });
});
