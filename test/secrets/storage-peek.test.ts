// A storage read taken from the value cache without waiting (peek) gives exactly what the full read gives: the
// current plaintext, null for a path known to be absent, and nothing (undefined) when only the database can tell:
// not cached yet, no cache (PostgreSQL, shared by several instances), or sealed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Barrier } from '../../src/services/secrets/storage/barrier.ts';
import { LogicalStorage } from '../../src/services/secrets/storage/logical.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { unsealedBarrier } from './helpers.ts';

describe('storage peek (sqlite, value cache on)', () => {
  let rootKey: Buffer;
  let barrier: Barrier;
  suiteDatabase('sqlite', async (db) => {
    ({ barrier, rootKey } = await unsealedBarrier(db, { cache: true }));
  });

  it('answers from the cache only, with what a full read answers', async () => {
    assert.equal(barrier.peek('app/a'), undefined, 'never read: only the database can tell');
    assert.equal(await barrier.get('app/a'), undefined);
    assert.equal(barrier.peek('app/a'), null, 'read once as absent: known absent');
    await barrier.put('app/a', Buffer.from('one'));
    assert.equal(barrier.peek('app/a')?.toString(), 'one', 'a durable write is what the cache holds');
    await barrier.put('app/a', Buffer.from('two'));
    assert.equal(barrier.peek('app/a')?.toString(), 'two');
    assert.equal((await barrier.get('app/a'))?.toString(), 'two');
    await barrier.delete('app/a');
    assert.equal(barrier.peek('app/a'), undefined, 'a deleted path is dropped, not remembered');
    assert.equal(await barrier.get('app/a'), undefined);
  });

  it('gives nothing while sealed, so the full read refuses as before', async () => {
    await barrier.put('app/b', Buffer.from('kept'));
    barrier.seal();
    assert.equal(barrier.peek('app/b'), undefined);
    await assert.rejects(barrier.get('app/b'), /sealed/);
    await barrier.unseal(rootKey);
    assert.equal(barrier.peek('app/b')?.toString(), 'kept');
  });

  it('lets a logical read take a cached value and parse it once', async () => {
    const logical = new LogicalStorage(barrier, 'ns/', undefined, new WeakMap());
    await logical.put('k', { v: 1 });
    const first = await logical.get<{ v: number }>('k');
    assert.deepEqual(first, { v: 1 });
    assert.equal(await logical.get('k'), first, 'the same frozen value');
    await logical.put('k', { v: 2 });
    assert.deepEqual(await logical.get('k'), { v: 2 });
  });
});

describe('storage peek (sqlite, no value cache: as on PostgreSQL)', () => {
  let barrier: Barrier;
  suiteDatabase('sqlite', async (db) => {
    ({ barrier } = await unsealedBarrier(db));
  });

  it('never answers: every read goes to the database', async () => {
    await barrier.put('app/c', Buffer.from('stored'));
    assert.equal((await barrier.get('app/c'))?.toString(), 'stored');
    assert.equal(barrier.peek('app/c'), undefined);
    assert.equal(barrier.peek('app/none'), undefined);
  });
});
