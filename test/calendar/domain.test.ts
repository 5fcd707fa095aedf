// Pure rules: event ids, patch merging, query parameters, quickAdd parsing, iCalendar text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mergePatch, stableJson } from '../../src/services/calendar/domain/event.ts';
import { icalendar } from '../../src/services/calendar/domain/ical.ts';
import { EVENT_ID, newEventId, parseInstanceId } from '../../src/services/calendar/domain/ids.ts';
import { readListQuery } from '../../src/services/calendar/domain/params.ts';
import { parseQuickAdd } from '../../src/services/calendar/domain/quick-add.ts';
import { makeSyncToken, readSyncToken } from '../../src/services/calendar/domain/sync-token.ts';

describe('calendar domain rules', () => {
  it('generated ids are base32hex and unique; instance ids parse back', () => {
    const ids = new Set(Array.from({ length: 2000 }, newEventId));
    assert.equal(ids.size, 2000);
    for (const id of ids) assert.match(id, EVENT_ID);
    assert.deepEqual(parseInstanceId('abcde12345_20260308T130000Z'), { seriesId: 'abcde12345', stamp: '20260308T130000Z', originalStartMs: Date.parse('2026-03-08T13:00:00Z') });
    assert.deepEqual(parseInstanceId('abcde12345_20240229'), { seriesId: 'abcde12345', stamp: '20240229', originalDate: '2024-02-29' });
    assert.equal(parseInstanceId('abcde12345'), undefined);
    assert.equal(parseInstanceId('abc_20260308'), undefined);
  });

  it('patch merges objects, replaces arrays and scalars, and null clears', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), (base, patch) => {
        const merged = mergePatch(base as Record<string, unknown>, patch as Record<string, unknown>);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) assert.ok(!(k in merged));
          else if (Array.isArray(v) || typeof v !== 'object') assert.deepEqual(merged[k], v);
        }
        for (const k of Object.keys(base)) if (!(k in patch)) assert.deepEqual(merged[k], (base as Record<string, unknown>)[k]);
      }),
    );
    assert.deepEqual(mergePatch({ a: { x: 1, y: 2 }, l: [1, 2] }, { a: { y: 3 }, l: [9] }), { a: { x: 1, y: 3 }, l: [9] });
    assert.equal(stableJson({ b: 1, a: { d: 1, c: 2 } }), stableJson({ a: { c: 2, d: 1 }, b: 1 }));
  });

  it('list parameters', () => {
    assert.equal(readListQuery({}).maxResults, 250);
    assert.equal(readListQuery({ maxResults: '9999' }).maxResults, 2500);
    assert.deepEqual(readListQuery({ privateExtendedProperty: ['a=1', 'b=x=y'] }).privateProperties, [['a', '1'], ['b', 'x=y']]);
    assert.throws(() => readListQuery({ orderBy: 'startTime' }), /ordering/);
    assert.throws(() => readListQuery({ syncToken: 'x', q: 'a' }), /syncToken/);
    assert.throws(() => readListQuery({ timeMin: '2026-01-02T00:00:00Z', timeMax: '2026-01-01T00:00:00Z' }), /empty/);
  });

  it('sync tokens are bound to calendar and shape', () => {
    const token = makeSyncToken('a@x', 42, '[false,[]]');
    assert.equal(readSyncToken(token, 'a@x', '[false,[]]'), 42);
    assert.throws(() => readSyncToken(token, 'b@x', '[false,[]]'), (e: any) => e.status === 410);
    assert.throws(() => readSyncToken(token, 'a@x', '[true,[]]'), (e: any) => e.status === 410);
    assert.throws(() => readSyncToken(token.slice(0, -3), 'a@x', '[false,[]]'), (e: any) => e.status === 410);
  });

  it('quickAdd reads dates in the calendar zone', () => {
    const now = Date.parse('2026-03-07T23:30:00Z'); // 8 March 08:30 in Tokyo
    assert.deepEqual(parseQuickAdd('Breakfast tomorrow at 7am', now, 'Asia/Tokyo'), {
      summary: 'Breakfast',
      start: { dateTime: '2026-03-08T22:00:00Z', timeZone: 'Asia/Tokyo' },
      end: { dateTime: '2026-03-08T23:00:00Z', timeZone: 'Asia/Tokyo' },
    });
    assert.deepEqual(parseQuickAdd('Call Bob from 3pm to 4:30pm', Date.parse('2026-03-02T12:00:00Z'), 'UTC').end, { dateTime: '2026-03-02T16:30:00Z', timeZone: 'UTC' });
    assert.deepEqual(parseQuickAdd('Think', now, 'UTC').start, { date: '2026-03-07' });
  });

  it('iCalendar text folds long lines and escapes text', () => {
    const text = icalendar(
      {
        id: 'abcde', status: 'confirmed', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', creator: { email: 'a@x.test' }, organizer: { email: 'a@x.test' },
        start: { date: '2026-01-02' }, end: { date: '2026-01-03' }, iCalUID: 'u@x', sequence: 2, reminders: { useDefault: true }, eventType: 'default',
        summary: 'a; b, c', description: 'x'.repeat(200),
      },
      'REQUEST',
      Date.parse('2026-01-01T00:00:00Z'),
    );
    assert.ok(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75));
    assert.match(text, /SUMMARY:a\\; b\\, c/);
    assert.match(text, /DTSTART;VALUE=DATE:20260102/);
    assert.match(text, /SEQUENCE:2/);
  });
});
