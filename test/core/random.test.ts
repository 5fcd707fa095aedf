// Random values from the shared pool: of the length asked, fresh on every draw, and owned by the caller (a value handed
// out does not change when the pool is drawn from or refilled later).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomPooled, randomView } from '../../src/core/random.ts';
import { open, seal } from '../../src/core/crypto.ts';

describe('random pool', () => {
  it('hands out values of the length asked, each different, across many refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const value = randomPooled(1 + (i % 40));
      assert.equal(value.length, 1 + (i % 40));
      if (value.length >= 8) seen.add(value.toString('hex'));
    }
    assert.equal(seen.size, [...Array(5_000).keys()].filter((i) => 1 + (i % 40) >= 8).length, 'no value of 8 bytes or more came twice');
  });

  it('gives each caller bytes of its own that later draws do not touch', () => {
    const kept = randomPooled(16);
    const copy = Buffer.from(kept);
    assert.notEqual(kept.buffer, randomView(1).buffer, 'not a view of the pool');
    for (let i = 0; i < 2_000; i++) randomPooled(12);
    assert.deepEqual(kept, copy);
  });

  it('serves a request larger than it pools straight from the generator', () => {
    const big = randomPooled(10_000);
    assert.equal(big.length, 10_000);
    assert.ok(big.some((b) => b !== 0));
    assert.equal(randomView(5_000).length, 5_000);
  });

  it('gives every sealed value its own nonce', () => {
    const key = randomPooled(32);
    const nonces = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      const sealed = seal(key, Buffer.from(`value ${i}`), 'path');
      nonces.add(sealed.subarray(0, 12).toString('hex'));
      assert.equal(open(key, sealed, 'path').toString(), `value ${i}`);
    }
    assert.equal(nonces.size, 3_000);
  });
});
