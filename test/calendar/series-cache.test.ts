// Parsed recurring series are cached within a budget of entries and bytes; a series that grows by remembering
// expanded windows is weighed again, so a few long expansions cannot hold more memory than the budget. The parsed
// documents of series masters are shared the same way, frozen, and keyed by their stored text.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { EventDoc } from '../../src/services/calendar/domain/event.ts';
import { configureSeriesCache, DEFAULT_SERIES_CACHE_BUDGET, masterDocOf, seriesOf } from '../../src/services/calendar/domain/instances.ts';

const DAY = 86_400_000;
const master = (id: string): EventDoc =>
  ({
    id,
    status: 'confirmed',
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    creator: { email: 'a@example.com' },
    organizer: { email: 'a@example.com' },
    start: { dateTime: '2026-01-01T09:00:00Z', timeZone: 'UTC' },
    end: { dateTime: '2026-01-01T10:00:00Z', timeZone: 'UTC' },
    recurrence: ['RRULE:FREQ=DAILY'],
  }) as unknown as EventDoc;

describe('recurring series cache', () => {
  after(() => configureSeriesCache(DEFAULT_SERIES_CACHE_BUDGET));

  it('keeps a series while it fits and drops it once its remembered windows outgrow the byte budget', () => {
    configureSeriesCache({ entries: 100, bytes: 64 * 1024 });
    const start = Date.parse('2026-01-01T00:00:00Z');
    const first = seriesOf('cal', master('daily'), 'UTC');
    assert.equal(seriesOf('cal', master('daily'), 'UTC'), first, 'kept while small');
    assert.equal(first.between(start, start + 7 * DAY, 'UTC').length, 7);
    assert.equal(seriesOf('cal', master('daily'), 'UTC'), first, 'a week of occurrences still fits');
    assert.equal(first.between(start, start + 730 * DAY, 'UTC').length, 730);
    assert.notEqual(seriesOf('cal', master('daily'), 'UTC'), first, 'two years of occurrences do not fit in 64 KiB');
  });

  it('keeps no more series than the entry budget', () => {
    configureSeriesCache({ entries: 2, bytes: 64 * 1024 * 1024 });
    const a = seriesOf('cal', master('a'), 'UTC');
    seriesOf('cal', master('b'), 'UTC');
    seriesOf('cal', master('c'), 'UTC');
    assert.notEqual(seriesOf('cal', master('a'), 'UTC'), a, 'the least recently used series was dropped');
  });

  it('shares one frozen document per stored master text, and parses a changed text afresh', () => {
    configureSeriesCache(DEFAULT_SERIES_CACHE_BUDGET);
    const text = JSON.stringify(master('shared'));
    const doc = masterDocOf(text);
    assert.equal(masterDocOf(JSON.stringify(master('shared'))), doc, 'the same text gives the same object');
    assert.ok(Object.isFrozen(doc) && Object.isFrozen(doc.start) && Object.isFrozen(doc.recurrence));
    assert.throws(() => {
      (doc.start as { dateTime?: string }).dateTime = 'changed';
    }, TypeError);
    const edited = masterDocOf(JSON.stringify({ ...master('shared'), summary: 'Edited' }));
    assert.notEqual(edited, doc);
    assert.equal(edited.summary, 'Edited');
  });

  it('keeps no more master documents than the entry budget', () => {
    configureSeriesCache({ entries: 2, bytes: 64 * 1024 * 1024 });
    const a = masterDocOf(JSON.stringify(master('a')));
    masterDocOf(JSON.stringify(master('b')));
    masterDocOf(JSON.stringify(master('c')));
    assert.notEqual(masterDocOf(JSON.stringify(master('a'))), a, 'the least recently used document was dropped');
    assert.deepEqual(masterDocOf(JSON.stringify(master('a'))), a);
  });
});
