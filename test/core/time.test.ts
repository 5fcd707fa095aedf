import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatInstant, nextDailyAt, parseGoogleDuration, parseRfc3339, zoneOffsetMs } from '../../src/core/time.ts';
import { open, seal } from '../../src/core/crypto.ts';
import { base58, unbase58 } from '../../src/core/ids.ts';

describe('RFC 3339', () => {
  it('normalises any offset to Z with 0, 3, 6 or 9 fractional digits', () => {
    const cases: Array<[string, string]> = [
      ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z'],
      ['2026-01-02T03:04:05.1Z', '2026-01-02T03:04:05.100Z'],
      ['2026-01-02T03:04:05.1234Z', '2026-01-02T03:04:05.123400Z'],
      ['2026-01-02T03:04:05.123456789+01:30', '2026-01-02T01:34:05.123456789Z'],
      ['2026-01-01T00:30:00-05:00', '2026-01-01T05:30:00Z'],
      ['2026-01-02t03:04:05.000z', '2026-01-02T03:04:05Z'],
    ];
    for (const [input, expected] of cases) assert.equal(formatInstant(parseRfc3339(input)!), expected, input);
  });

  it('rejects what is not a timestamp', () => {
    for (const bad of ['', '2026-01-02', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', '2026-01-01T00:00:00.1234567890Z', '2026-01-01T00:00:00+25:00', 'yesterday']) {
      assert.equal(parseRfc3339(bad), undefined, bad);
    }
  });

  it('round-trips every instant through format and parse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), fc.integer({ min: 0, max: 999_999_999 }), (seconds, nanos) => {
        const text = formatInstant({ seconds, nanos });
        assert.deepEqual(parseRfc3339(text), { seconds, nanos });
        assert.match(text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/);
      }),
    );
  });

  it('finds the next wall-clock time in a zone across daylight saving changes', () => {
    // London moves to BST on 2026-03-29: midnight is 00:00Z before, 23:00Z the day before after.
    assert.equal(new Date(nextDailyAt(Date.parse('2026-03-28T12:00:00Z'), '00:00', 'Europe/London')).toISOString(), '2026-03-29T00:00:00.000Z');
    assert.equal(new Date(nextDailyAt(Date.parse('2026-03-29T12:00:00Z'), '00:00', 'Europe/London')).toISOString(), '2026-03-29T23:00:00.000Z');
    assert.equal(zoneOffsetMs('Asia/Kolkata', Date.parse('2026-01-01T00:00:00Z')), 5.5 * 3_600_000);
    fc.assert(
      fc.property(fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }), fc.constantFrom('UTC', 'Europe/London', 'America/New_York', 'Australia/Sydney'), (ms, zone) => {
        const next = nextDailyAt(ms, '00:00', zone);
        assert.ok(next > ms && next - ms <= 25 * 3_600_000);
        const local = new Date(next + zoneOffsetMs(zone, next));
        assert.equal(local.getUTCHours() * 60 + local.getUTCMinutes(), 0);
      }),
    );
  });

  it('parses google-duration strings', () => {
    assert.equal(parseGoogleDuration('3600s'), 3_600_000);
    assert.equal(parseGoogleDuration('1.5s'), 1500);
    assert.equal(parseGoogleDuration('60'), undefined);
    assert.equal(parseGoogleDuration('-1s'), undefined);
  });
});

describe('crypto and encodings', () => {
  it('opens only what was sealed with the same key and associated data', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), fc.string(), (bytes, aad) => {
        const key = Buffer.alloc(32, 9);
        const sealed = seal(key, Buffer.from(bytes), aad);
        assert.deepEqual(open(key, sealed, aad), Buffer.from(bytes));
        assert.throws(() => open(key, sealed, aad + 'x'));
        assert.throws(() => open(Buffer.alloc(32, 8), sealed, aad));
      }),
      { numRuns: 50 },
    );
  });

  it('round-trips base58', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => assert.deepEqual(unbase58(base58(bytes)), Buffer.from(bytes))));
    assert.equal(unbase58('0OIl'), undefined);
  });
});
