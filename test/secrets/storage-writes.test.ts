// Storage writes: puts and deletes of one call commit together, and a guarded write applies all or nothing. On
// PostgreSQL a write is one statement (its operations as WITH clauses, the others conditional on the guard's row);
// on SQLite a unit of work. The same contract is asserted on both, against the table itself.
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { describe, it } from 'node:test';
import { StorageConflictError } from '../../src/services/secrets/contract.ts';
import { ENTRIES_TABLE, PhysicalStorage, storageMigrations } from '../../src/services/secrets/storage/physical.ts';
import { ONE_STATEMENT_MAX_OPS, oneStatementWrite } from '../../src/services/secrets/storage/one-statement-write.ts';
import type { Database } from '../../src/core/db/index.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { DATABASES } from '../helpers/runtime.ts';

const b = (text: string) => Buffer.from(text);

for (const database of DATABASES) {
  describe(`storage writes (${database})`, () => {
    let physical: PhysicalStorage;
    let db: Database;
    suiteDatabase(database, async (opened) => {
      db = opened;
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      physical = new PhysicalStorage(db);
    });

    /** The table's rows under `prefix`, as path -> text. */
    const table = async (prefix: string) => {
      const rows = await db.kysely.selectFrom(ENTRIES_TABLE).select(['path', 'value']).where('path', 'like', `${prefix}%`).orderBy('path').execute();
      return Object.fromEntries(rows.map((r) => [r.path as string, Buffer.from(r.value as Uint8Array).toString()]));
    };

    it('puts and deletes of one write land together', async () => {
      await physical.writeMany([
        { path: 'w1/a', value: b('1') },
        { path: 'w1/b', value: b('2') },
        { path: "w1/it's \"odd\"", value: b('3') },
      ]);
      await physical.writeMany([
        { path: 'w1/a', value: b('one') },
        { path: 'w1/b', value: null },
        { path: 'w1/absent', value: null },
      ]);
      assert.deepEqual(await table('w1/'), { 'w1/a': 'one', "w1/it's \"odd\"": '3' });
    });

    it('a guard on an absent path: the first write applies, a second is a conflict that changes nothing', async () => {
      await physical.writeMany([{ path: 'w2/data', value: b('v1') }, { path: 'w2/meta', value: b('m1') }], { path: 'w2/meta', expected: null });
      await assert.rejects(
        physical.writeMany([{ path: 'w2/data2', value: b('v2') }, { path: 'w2/meta', value: b('m2') }, { path: 'w2/data', value: null }], { path: 'w2/meta', expected: null }),
        (e) => e instanceof StorageConflictError,
      );
      assert.deepEqual(await table('w2/'), { 'w2/data': 'v1', 'w2/meta': 'm1' });
      // A guard that the path be absent, deleting nothing: refused while it is there.
      await assert.rejects(physical.writeMany([{ path: 'w2/meta', value: null }, { path: 'w2/x', value: b('x') }], { path: 'w2/meta', expected: null }), StorageConflictError);
      await physical.writeMany([{ path: 'w2/none', value: null }, { path: 'w2/x', value: b('x') }], { path: 'w2/none', expected: null });
      assert.deepEqual(await table('w2/'), { 'w2/data': 'v1', 'w2/meta': 'm1', 'w2/x': 'x' });
    });

    it('a guard on a value: applies when unchanged, a conflict that changes nothing otherwise', async () => {
      await physical.put('w3/meta', b('m1'));
      await physical.writeMany([{ path: 'w3/v2', value: b('two') }, { path: 'w3/meta', value: b('m2') }], { path: 'w3/meta', expected: b('m1') });
      await assert.rejects(physical.writeMany([{ path: 'w3/v3', value: b('three') }, { path: 'w3/meta', value: b('m3') }], { path: 'w3/meta', expected: b('m1') }), StorageConflictError);
      assert.deepEqual(await table('w3/'), { 'w3/meta': 'm2', 'w3/v2': 'two' });
      // A guarded delete.
      await assert.rejects(physical.writeMany([{ path: 'w3/meta', value: null }, { path: 'w3/v2', value: null }], { path: 'w3/meta', expected: b('m1') }), StorageConflictError);
      await physical.writeMany([{ path: 'w3/meta', value: null }, { path: 'w3/v2', value: null }], { path: 'w3/meta', expected: b('m2') });
      assert.deepEqual(await table('w3/'), {});
    });

    it('of writers guarded on the same value, exactly one applies', async () => {
      await physical.put('w4/meta', b('m0'));
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => physical.writeMany([{ path: `w4/v${i}`, value: b(`${i}`) }, { path: 'w4/meta', value: b(`m${i + 1}`) }], { path: 'w4/meta', expected: b('m0') })),
      );
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      assert.equal(won.length, 1);
      assert.ok(results.every((r) => r.status === 'fulfilled' || r.reason instanceof StorageConflictError));
      assert.deepEqual(await table('w4/'), { 'w4/meta': `m${won[0] + 1}`, [`w4/v${won[0]}`]: `${won[0]}` });
    });

    it('writes that one statement does not take (a path twice, many operations) are still applied in order', async () => {
      await physical.writeMany([
        { path: 'w5/a', value: b('first') },
        { path: 'w5/a', value: b('second') },
      ]);
      const many = Array.from({ length: ONE_STATEMENT_MAX_OPS + 5 }, (_, i) => ({ path: `w5/n${String(i).padStart(3, '0')}`, value: b(`${i}`) }));
      assert.equal(oneStatementWrite(db.kysely, ENTRIES_TABLE, many), undefined);
      assert.equal(oneStatementWrite(db.kysely, ENTRIES_TABLE, [{ path: 'x', value: null }, { path: 'x', value: b('y') }]), undefined);
      await physical.writeMany(many);
      const rows = await table('w5/');
      assert.equal(rows['w5/a'], 'second');
      assert.equal(Object.keys(rows).length, ONE_STATEMENT_MAX_OPS + 6);
    });

    it('a path the database refuses fails the whole write', async () => {
      const write = physical.writeMany([{ path: 'w6/good', value: b('g') }, { path: 'w6/nul\u0000', value: b('n') }]);
      // PostgreSQL cannot hold a NUL in text; SQLite stores it.
      if (database === 'postgres') {
        await assert.rejects(write);
        assert.deepEqual(await table('w6/'), {});
      } else await write;
    });
  });
}
