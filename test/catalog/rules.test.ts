// Pure rules of the catalog's own modules: wire-shape checks, PATCH masks, fetch schedules, status change events,
// collection statuses and custom-verb routes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isApiError } from '../../src/core/errors.ts';
import { zoneOffsetMs } from '../../src/core/time.ts';
import { routeOf } from '../../src/services/catalog/layer/operation.ts';
import { applyPatch } from '../../src/services/catalog/layer/resource.ts';
import { statusChanges } from '../../src/services/catalog/notifications.ts';
import { collectionStatus } from '../../src/services/catalog/rules/collection-status.ts';
import { WEEKDAYS, nextFetchAt } from '../../src/services/catalog/rules/fetch-schedule.ts';
import { WIRE_TYPES } from '../../src/services/catalog/wire/types.ts';
import { checkWire } from '../../src/services/catalog/wire/validate.ts';

const status400 = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return isApiError(err) && err.status === 400;
  }
  return false;
};

describe('checkWire', () => {
  const stringFields = Object.entries(WIRE_TYPES.Product).filter(([, t]) => t === 's').map(([k]) => k);

  it('keeps well-typed values and drops nulls', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...stringFields), fc.option(fc.string(), { nil: null })), (doc) => {
        const out = checkWire<Record<string, unknown>>(doc, 'Product', 'product');
        for (const [k, v] of Object.entries(doc)) assert.deepEqual(out[k], v === null ? undefined : v);
      }),
    );
  });

  it('refuses unknown names and values of the wrong type anywhere', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((k) => !Object.hasOwn(WIRE_TYPES.Product, k)), (name) => status400(() => checkWire({ [name]: 'x' }, 'Product', 'product'))));
    // Names every object inherits are unknown fields too, at any depth (a fuzzed `valueOf` once answered 500).
    for (const name of ['valueOf', 'constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      assert.ok(status400(() => checkWire(JSON.parse(`{"${name}": 1}`), 'Product', 'product')), name);
      assert.ok(status400(() => checkWire(JSON.parse(`{"customAttributes": [{"${name}": 1}]}`), 'LocalInventory', 'localInventory')), `nested ${name}`);
    }
    fc.assert(fc.property(fc.oneof(fc.boolean(), fc.object(), fc.array(fc.string())), (value) => status400(() => checkWire({ title: value }, 'Product', 'product'))));
    assert.ok(status400(() => checkWire({ price: { value: 5.5 } }, 'Product', 'product')));
    assert.ok(status400(() => checkWire({ shipping: [{ price: { bogus: '1' } }] }, 'Product', 'product')));
  });

  it('reads int64 numbers as strings and numeric strings as numbers', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 100 }), (quantity, days) => {
        const out = checkWire<Record<string, any>>({ quantity, price: { value: '1', currency: 'USD' } }, 'LocalInventory', 'localInventory');
        assert.equal(out.quantity, quantity);
        const p = checkWire<Record<string, any>>({ sellOnGoogleQuantity: quantity }, 'Product', 'product');
        assert.equal(p.sellOnGoogleQuantity, String(quantity));
        const t = checkWire<Record<string, any>>({ deliveryTime: { minTransitTimeInDays: String(days) } }, 'Service', 'service');
        assert.equal(t.deliveryTime.minTransitTimeInDays, days);
      }),
    );
    assert.ok(status400(() => checkWire({ title: 5 }, 'Product', 'product')), 'a plain string field takes no number');
  });
});

describe('applyPatch', () => {
  const allowed = { a: 's', b: 's', c: 's', d: 's' };
  const doc = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.string());

  it('replaces or removes exactly the masked fields', () => {
    fc.assert(
      fc.property(doc, doc, fc.subarray(['a', 'b', 'c', 'd'], { minLength: 1 }), (existing, patch, mask) => {
        const out = applyPatch(existing, patch, mask.join(','), 'x', allowed);
        for (const k of ['a', 'b', 'c', 'd']) assert.equal(out[k], mask.includes(k) ? patch[k] : existing[k]);
      }),
    );
  });

  it('without a mask, present fields win and others stay', () => {
    fc.assert(fc.property(doc, doc, (existing, patch) => assert.deepEqual(applyPatch(existing, patch, undefined, 'x', allowed), { ...existing, ...patch })));
  });

  it('refuses a mask naming an unknown field', () => {
    assert.ok(status400(() => applyPatch({}, {}, 'nope', 'x', allowed)));
  });
});

describe('nextFetchAt', () => {
  const zones = ['UTC', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Sydney'];
  const wall = (ms: number, zone: string) => new Date(ms + zoneOffsetMs(zone, ms));

  it('is the first later instant at the scheduled wall time, weekday and day of month', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2024-01-01'), max: Date.parse('2030-01-01') }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom(...zones),
        fc.option(fc.constantFrom(...WEEKDAYS), { nil: undefined }),
        (after, hour, minuteOfHour, timeZone, weekday) => {
          const at = nextFetchAt({ hour, minuteOfHour, timeZone, weekday }, after);
          assert.ok(at > after);
          const local = wall(at, timeZone);
          // A wall time skipped by a DST change moves by the change.
          if (local.getUTCMinutes() === minuteOfHour) assert.ok(Math.abs(local.getUTCHours() - hour) <= 1 || Math.abs(local.getUTCHours() - hour) === 23);
          if (weekday) assert.equal(WEEKDAYS[local.getUTCDay()], weekday);
          assert.ok(at - after <= (weekday ? 8 : 2) * 86_400_000);
        },
      ),
    );
  });

  it('fetches on the last day of months shorter than dayOfMonth', () => {
    const at = nextFetchAt({ hour: 6, timeZone: 'UTC', dayOfMonth: 31 }, Date.parse('2026-02-01T00:00:00Z'));
    assert.equal(new Date(at).toISOString(), '2026-02-28T06:00:00.000Z');
  });
});

describe('statusChanges', () => {
  const status = fc.record({
    destinationStatuses: fc.array(
      fc.record({
        destination: fc.constantFrom('Shopping', 'SurfacesAcrossGoogle'),
        approvedCountries: fc.subarray(['US', 'GB']),
        disapprovedCountries: fc.subarray(['DE', 'FR']),
      }),
      { maxLength: 2 },
    ),
  });

  it('is empty for equal statuses and mirrors when swapped', () => {
    fc.assert(
      fc.property(status, status, (a, b) => {
        assert.deepEqual(statusChanges(a, a), []);
        const swapped = statusChanges(b, a).map((ch) => ({ ...ch, old_value: ch.new_value, new_value: ch.old_value }));
        const clean = (list: Array<Record<string, unknown>>) => list.map((ch) => JSON.stringify(Object.fromEntries(Object.entries(ch).filter(([, v]) => v !== undefined))));
        assert.deepEqual(clean(statusChanges(a, b)), clean(swapped));
      }),
    );
  });

  it('reports a new product as changes from nothing', () => {
    const changes = statusChanges(undefined, { destinationStatuses: [{ destination: 'Shopping', approvedCountries: ['US'] }] });
    assert.deepEqual(changes, [{ reporting_context: 'Shopping', region_code: 'US', new_value: 'approved' }]);
  });
});

describe('collectionStatus', () => {
  const times = { createdAt: 0, updatedAt: 0 };
  it('approves a complete collection and names every problem of an incomplete one', () => {
    const good = collectionStatus({ id: 'c', productCountry: 'US', link: 'https://x.example/c', imageLink: ['https://x.example/c.jpg'], headline: ['C'] }, new Set(), times);
    assert.deepEqual(good.collectionLevelIssuses, []);
    assert.equal((good.destinationStatuses as Array<{ status: string }>)[0].status, 'approved');
    const bad = collectionStatus({ id: 'c', link: 'ftp://x', featuredProduct: [{ offerId: 'a' }, { offerId: 'b' }] }, new Set(['a']), times);
    assert.deepEqual((bad.collectionLevelIssuses as Array<{ code: string }>).map((i) => i.code), ['invalid_link', 'missing_image_link', 'missing_headline', 'featured_product_not_found']);
  });
});

describe('routeOf', () => {
  it('maps parameters and splits a custom verb off the last one', () => {
    assert.deepEqual(routeOf('/{merchantId}/regions/{regionId}'), { url: '/content/v2.1/:merchantId/regions/:regionId', verbSuffix: undefined });
    assert.deepEqual(routeOf('/{merchantId}/conversionsources/{conversionSourceId}:undelete'), {
      url: '/content/v2.1/:merchantId/conversionsources/:conversionSourceId',
      verbSuffix: { param: 'conversionSourceId', verb: 'undelete' },
    });
  });
});
