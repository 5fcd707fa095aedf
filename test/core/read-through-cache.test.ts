// The read-through cache: a hit skips the load, an absence is not remembered, shared values are frozen, and a load
// that was under way when a key was forgotten does not put back what it read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadThroughCache } from '../../src/core/cache.ts';

const BUDGET = { entries: 100, bytes: 1 << 20 };

/** A load that answers `value` when released, counting its calls. */
function gatedLoad<V>(value: V) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const load = async () => {
    load.calls++;
    await gate;
    return value;
  };
  load.calls = 0;
  return { load, release };
}

describe('ReadThroughCache', () => {
  it('loads a key once and answers later reads from memory, frozen through', async () => {
    const cache = new ReadThroughCache<string, { nested: { n: number } }>(BUDGET, () => 16);
    let calls = 0;
    const load = async () => (calls++, { nested: { n: 1 } });
    const first = await cache.get('a', load);
    const second = await cache.get('a', load);
    assert.equal(calls, 1);
    assert.equal(second, first);
    assert.ok(Object.isFrozen(second) && Object.isFrozen(second!.nested));
    assert.throws(() => {
      (second!.nested as { n: number }).n = 2;
    }, TypeError);
  });

  it('does not remember an absent key', async () => {
    const cache = new ReadThroughCache<string, object>(BUDGET, () => 16);
    let calls = 0;
    const load = async () => (calls++, undefined);
    assert.equal(await cache.get('a', load), undefined);
    assert.equal(await cache.get('a', load), undefined);
    assert.equal(calls, 2);
    assert.equal(cache.size, 0);
  });

  it('forgets a key, and a load under way when it was forgotten does not fill the cache', async () => {
    const cache = new ReadThroughCache<string, { v: string }>(BUDGET, () => 16);
    await cache.get('a', async () => ({ v: 'old' }));
    const pending = gatedLoad({ v: 'read before the change' });
    cache.forget('a');
    const read = cache.get('a', pending.load);
    cache.forget('a');
    pending.release();
    assert.deepEqual(await read, { v: 'read before the change' });
    assert.equal(cache.size, 0);
    assert.deepEqual(await cache.get('a', async () => ({ v: 'new' })), { v: 'new' });
  });

  it('clears every key and refuses the fills of loads under way', async () => {
    const cache = new ReadThroughCache<string, { v: number }>(BUDGET, () => 16);
    await cache.get('a', async () => ({ v: 1 }));
    await cache.get('b', async () => ({ v: 2 }));
    const pending = gatedLoad({ v: 3 });
    const read = cache.get('c', pending.load);
    cache.clear();
    pending.release();
    await read;
    assert.equal(cache.size, 0);
  });

  it('keeps within its entry budget, least recently used out first', async () => {
    const cache = new ReadThroughCache<string, { v: number }>({ entries: 2, bytes: 1 << 20 }, () => 16);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) await cache.get(k, async () => ({ v }));
    assert.equal(cache.size, 2);
    let calls = 0;
    await cache.get('a', async () => (calls++, { v: 1 }));
    assert.equal(calls, 1);
  });
});
