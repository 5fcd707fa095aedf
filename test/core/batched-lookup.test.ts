// Point reads of one turn of the event loop share one query; each caller gets its own key's value, absent keys
// undefined, and a failed query fails every read it carried.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { BatchedLookup, LOOKUP_BATCH_MAX } from '../../src/core/db/batched-lookup.ts';
import { NestedWriteError, insideUnitOfWork } from '../../src/core/db/group-commit.ts';

function recording(table: Record<string, number>) {
  const asked: string[][] = [];
  const lookup = new BatchedLookup<number>(async (keys) => {
    asked.push(keys);
    return new Map(keys.filter((k) => k in table).map((k) => [k, table[k]]));
  });
  return { lookup, asked };
}

describe('BatchedLookup', () => {
  it('asks the keys of one turn in one query, each once, and answers each caller its own value', async () => {
    const { lookup, asked } = recording({ a: 1, b: 2 });
    const answers = await Promise.all([lookup.get('a'), lookup.get('b'), lookup.get('a'), lookup.get('missing')]);
    assert.deepEqual(answers, [1, 2, 1, undefined]);
    assert.deepEqual(asked, [['a', 'b', 'missing']]);
    assert.equal(lookup.queries, 1);
  });

  it('asks a key of a later turn in a query of its own, after the first has run', async () => {
    const { lookup, asked } = recording({ a: 1, b: 2 });
    const first = lookup.get('a');
    await nextTurn();
    const second = lookup.get('b');
    assert.deepEqual(await Promise.all([first, second]), [1, 2]);
    assert.deepEqual(asked, [['a'], ['b']]);
  });

  it('splits a turn of more than LOOKUP_BATCH_MAX keys into several queries', async () => {
    const table = Object.fromEntries(Array.from({ length: LOOKUP_BATCH_MAX * 2 + 1 }, (_, i) => [`k${i}`, i]));
    const { lookup, asked } = recording(table);
    const answers = await Promise.all(Object.keys(table).map((k) => lookup.get(k)));
    assert.deepEqual(answers, Object.values(table));
    assert.deepEqual(asked.map((keys) => keys.length), [LOOKUP_BATCH_MAX, LOOKUP_BATCH_MAX, 1]);
  });

  it('asks each key alone when a query fails, so only the key that fails alone fails', async () => {
    const asked: string[][] = [];
    const lookup = new BatchedLookup<number>(async (keys) => {
      asked.push(keys);
      if (keys.includes('bad\u0000key')) throw new Error('invalid byte sequence');
      return new Map(keys.map((k) => [k, k.length]));
    });
    const results = await Promise.allSettled([lookup.get('a'), lookup.get('bad\u0000key'), lookup.get('bcd'), lookup.get('a')]);
    assert.deepEqual(
      results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value)),
      [1, 'invalid byte sequence', 3, 1],
    );
    assert.deepEqual(asked, [['a', 'bad\u0000key', 'bcd'], ['a'], ['bad\u0000key'], ['bcd']]);
  });

  it('fails every read of a failed query with its error, and the next turn queries again', async () => {
    let fail = true;
    const lookup = new BatchedLookup<number>(async (keys) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, 7]));
    });
    const results = await Promise.allSettled([lookup.get('a'), lookup.get('b')]);
    assert.deepEqual(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value)), ['connection lost', 'connection lost']);
    fail = false;
    assert.equal(await lookup.get('a'), 7);
  });

  it('refuses a read asked inside a unit of work, as any query outside its transaction, and asks nothing', async () => {
    const { lookup, asked } = recording({ a: 1 });
    await assert.rejects(insideUnitOfWork.run(() => lookup.get('a')), NestedWriteError);
    assert.equal(await lookup.get('a'), 1);
    assert.deepEqual(asked, [['a']]);
  });
});
