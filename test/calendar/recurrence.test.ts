// Recurrence expansion across DST changes, checked against occurrences written out by hand (UTC instants), and
// properties of the wall-clock conversion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkRecurrence, MAX_EXPANDED, Series } from '../../src/services/calendar/domain/recurrence.ts';
import { instanceStamp } from '../../src/services/calendar/domain/times.ts';
import { fromWall, toWall } from '../../src/services/calendar/domain/zone.ts';

const starts = (lines: string[], start: string, end: string, zone: string, from = '2026-01-01T00:00:00Z', to = '2027-01-01T00:00:00Z') =>
  new Series(lines, { dateTime: start, timeZone: zone }, { dateTime: end, timeZone: zone }, 'UTC')
    .between(Date.parse(from), Date.parse(to), 'UTC')
    .map((o) => new Date(o.startMs).toISOString());

describe('recurrence expansion in three time zones across DST', () => {
  it('New York: a daily 09:00 keeps its wall time when clocks go forward (8 March 2026)', () => {
    assert.deepEqual(starts(['RRULE:FREQ=DAILY;COUNT=4'], '2026-03-06T14:00:00Z', '2026-03-06T15:00:00Z', 'America/New_York'), [
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('New York: a UTC UNTIL is inclusive, EXDATE with TZID and RDATE in UTC apply', () => {
    const lines = ['RRULE:FREQ=DAILY;UNTIL=20260309T130000Z', 'EXDATE;TZID=America/New_York:20260307T090000', 'RDATE:20260320T150000Z'];
    assert.deepEqual(starts(lines, '2026-03-06T14:00:00Z', '2026-03-06T15:00:00Z', 'America/New_York'), [
      '2026-03-06T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-20T15:00:00.000Z',
    ]);
  });

  it('New York: clocks going back (1 November 2026) keep 09:00 local', () => {
    assert.deepEqual(starts(['RRULE:FREQ=WEEKLY;BYDAY=SA,SU;COUNT=3'], '2026-10-31T13:00:00Z', '2026-10-31T14:00:00Z', 'America/New_York'), [
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-07T14:00:00.000Z',
    ]);
  });

  it('Berlin: 02:30 on the spring-forward Sunday is taken after the gap; on the fall-back Sunday, the first 02:30', () => {
    assert.deepEqual(starts(['RRULE:FREQ=WEEKLY;COUNT=3'], '2026-03-22T01:30:00Z', '2026-03-22T02:00:00Z', 'Europe/Berlin'), [
      '2026-03-22T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-04-05T00:30:00.000Z',
    ]);
    assert.deepEqual(starts(['RRULE:FREQ=WEEKLY;COUNT=3'], '2026-10-18T00:30:00Z', '2026-10-18T01:00:00Z', 'Europe/Berlin'), [
      '2026-10-18T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-11-01T01:30:00.000Z',
    ]);
  });

  it('Sydney: a monthly 10:00 on the 1st crosses the April DST end', () => {
    assert.deepEqual(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=1;COUNT=3'], '2026-02-28T23:00:00Z', '2026-03-01T00:00:00Z', 'Australia/Sydney', '2026-02-01T00:00:00Z'), [
      '2026-02-28T23:00:00.000Z',
      '2026-03-31T23:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ]);
  });

  it('expands an open-ended rule only inside the window asked for', () => {
    const s = new Series(['RRULE:FREQ=DAILY'], { dateTime: '2020-01-01T09:00:00Z', timeZone: 'Asia/Kolkata' }, { dateTime: '2020-01-01T10:00:00Z', timeZone: 'Asia/Kolkata' }, 'UTC');
    const window = s.between(Date.parse('2031-05-01T00:00:00Z'), Date.parse('2031-05-04T00:00:00Z'), 'UTC');
    assert.deepEqual(window.map((o) => o.start.dateTime), ['2031-05-01T09:00:00Z', '2031-05-02T09:00:00Z', '2031-05-03T09:00:00Z']);
    assert.equal(s.lastEnd('UTC'), 8_640_000_000_000_000);
    assert.deepEqual(s.after(Date.parse('2031-05-02T09:00:00Z'), 2, 'UTC').map((o) => o.start.dateTime), ['2031-05-03T09:00:00Z', '2031-05-04T09:00:00Z']);
  });

  it('all-day yearly series and instance stamps', () => {
    const s = new Series(['RRULE:FREQ=YEARLY;COUNT=3'], { date: '2024-02-29' }, { date: '2024-03-01' }, 'Europe/Berlin');
    const all = s.between(Date.parse('2020-01-01T00:00:00Z'), Date.parse('2030-01-01T00:00:00Z'), 'Europe/Berlin');
    // RFC 5545: a yearly rule from 29 February skips the years without one.
    assert.deepEqual(all.map((o) => o.start.date), ['2024-02-29', '2028-02-29', '2032-02-29'].slice(0, 2));
    assert.equal(instanceStamp(all[0].start), '20240229');
    assert.equal(instanceStamp({ dateTime: '2026-03-08T13:00:00Z' }), '20260308T130000Z');
    assert.equal(new Date(all[0].startMs).toISOString(), '2024-02-28T23:00:00.000Z');
  });

  it('refuses malformed lines', () => {
    for (const bad of [['RRULE:FREQ=SOMETIMES'], ['RRULE:COUNT=3'], ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20260101T000000Z'], ['DTSTART:20260101T000000Z'], ['RRULE:FREQ=DAILY;FOO=1'], ['EXDATE:2026-01-01'], ['EXRULE:FREQ=DAILY'], ['RDATE;TZID=Nowhere/City:20260101T090000'], 'RRULE:FREQ=DAILY', [42]]) {
      assert.throws(() => checkRecurrence(bad), (e: any) => e.status === 400, JSON.stringify(bad));
    }
    assert.deepEqual(checkRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;INTERVAL=2', 'EXDATE;VALUE=DATE:20260105', 'RDATE;TZID=Europe/Paris:20260110T090000']).length, 3);
  });

  it('repeats by the day at the finest, with at most 24 occurrences a day', () => {
    const hours = Array.from({ length: 24 }, (_, i) => i).join(',');
    const minutes = Array.from({ length: 60 }, (_, i) => i).join(',');
    for (const bad of ['RRULE:FREQ=HOURLY', 'RRULE:FREQ=MINUTELY;COUNT=5', 'RRULE:FREQ=SECONDLY', 'EXRULE:FREQ=SECONDLY', `RRULE:FREQ=DAILY;BYHOUR=${hours};BYMINUTE=0,30`, `RRULE:FREQ=DAILY;BYMINUTE=${minutes}`, `RRULE:FREQ=WEEKLY;BYHOUR=9;BYMINUTE=${minutes};BYSECOND=0,1`]) {
      const lines = bad.startsWith('EXRULE') ? ['RRULE:FREQ=DAILY', bad] : [bad];
      assert.throws(() => checkRecurrence(lines), (e: any) => e.status === 400 && /Invalid recurrence rule/.test(e.message), bad);
    }
    assert.equal(checkRecurrence([`RRULE:FREQ=DAILY;BYHOUR=${hours}`]).length, 1);
    assert.equal(checkRecurrence(['RRULE:FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,15,30,45;BYSECOND=0,30']).length, 1);
  });

  it('expands a far window of a series from near it, and a dense series stored earlier within a bound', () => {
    // 24 a day for ten years: the window in 2035 is found without walking the years before it.
    const hourly = new Series([`RRULE:FREQ=DAILY;BYHOUR=${Array.from({ length: 24 }, (_, i) => i).join(',')}`], { dateTime: '2026-01-01T00:00:00Z', timeZone: 'UTC' }, { dateTime: '2026-01-01T00:30:00Z', timeZone: 'UTC' }, 'UTC');
    assert.equal(hourly.after(Date.parse('2035-06-01T00:00:00Z'), 3, 'UTC').map((o) => new Date(o.startMs).toISOString()).join(' '), '2035-06-01T01:00:00.000Z 2035-06-01T02:00:00.000Z 2035-06-01T03:00:00.000Z');
    assert.ok(hourly.has(Date.parse('2035-06-01T05:00:00Z'), 'UTC'));
    // A rule this service refuses now, as a series created before might hold it: an expansion returns at most
    // MAX_EXPANDED occurrences (before the bound, a request for its instances ran for minutes).
    const dense = new Series(['RRULE:FREQ=SECONDLY'], { dateTime: '2026-01-01T00:00:00Z', timeZone: 'UTC' }, { dateTime: '2026-01-01T00:00:01Z', timeZone: 'UTC' }, 'UTC');
    assert.equal(dense.after(Date.parse('2026-07-01T00:00:00Z'), 2, 'UTC').map((o) => new Date(o.startMs).toISOString()).join(' '), '2026-07-01T00:00:01.000Z 2026-07-01T00:00:02.000Z');
    // A month of it is 2.6 million occurrences; at most MAX_EXPANDED are made (which may fall before the window).
    assert.ok(dense.between(Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-04-01T00:00:00Z'), 'UTC', false).length <= MAX_EXPANDED);
  });
});

describe('wall-clock conversion', () => {
  const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'UTC'];
  it('an instant read as wall time converts back to the same instant, except in the repeated hour', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') }), (zone, ms) => {
        const back = fromWall(zone, toWall(zone, ms));
        // The repeated hour maps to its first occurrence: never later than the original.
        assert.ok(back === ms || (back < ms && ms - back <= 3_600_000), `${zone} ${new Date(ms).toISOString()}`);
      }),
      { numRuns: 500 },
    );
  });

  it('a daily series keeps its wall-clock time on every day outside a gap', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: 0, max: 365 * 3 }), fc.integer({ min: 8, max: 20 }), (zone, dayOffset, hour) => {
        const firstWall = Date.parse('2025-01-01T00:00:00Z') + dayOffset * 86_400_000 + hour * 3_600_000;
        const start = fromWall(zone, firstWall);
        const iso = new Date(start).toISOString();
        const occ = new Series(['RRULE:FREQ=DAILY;COUNT=60'], { dateTime: iso, timeZone: zone }, { dateTime: iso, timeZone: zone }, 'UTC').between(start - 1, start + 61 * 86_400_000, 'UTC');
        assert.equal(occ.length, 60);
        occ.forEach((o, i) => assert.equal(toWall(zone, o.startMs), firstWall + i * 86_400_000));
      }),
      { numRuns: 60 },
    );
  });
});
