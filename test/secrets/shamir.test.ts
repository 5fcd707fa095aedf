import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { combine, gfDiv, gfMul, split } from '../../src/services/secrets/seal/shamir.ts';

describe('Shamir secret sharing over GF(256)', () => {
  it('multiplication has inverses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 255 }), (a, b) => {
        assert.equal(gfDiv(gfMul(a, b), b), a);
      }),
    );
  });

  it('any threshold-sized subset of shares gives the secret back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 40 }), (threshold, extra, size) => {
        const secret = randomBytes(size);
        const shares = split(secret, threshold + extra, threshold);
        assert.equal(shares.length, threshold + extra);
        for (const s of shares) assert.equal(s.length, size + 1);
        const subset = [...shares].sort(() => Math.random() - 0.5).slice(0, threshold);
        assert.deepEqual(combine(subset), secret);
      }),
      { numRuns: 100 },
    );
  });

  it('fewer shares than the threshold do not give the secret', () => {
    const secret = randomBytes(32);
    const shares = split(secret, 5, 3);
    assert.notDeepEqual(combine(shares.slice(0, 2)), secret);
  });

  it('rejects duplicate and malformed parts', () => {
    const shares = split(randomBytes(32), 3, 2);
    assert.throws(() => combine([shares[0]!, shares[0]!]), /duplicate/);
    assert.throws(() => combine([shares[0]!, shares[1]!.subarray(1)]), /same length/);
    assert.throws(() => split(randomBytes(4), 2, 1));
  });
});
