// A compiled one-row insert binds each row's values by column name, skips a taken key when asked, refuses a row that
// lacks a column, and runs inside a unit of work, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/core/db/index.ts';
import { preparedInsert } from '../../src/core/db/prepared.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`prepared inserts (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      await sql`create table pi_items (id integer primary key, name text not null, note text)`.execute(db.kysely);
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    const rows = async () => (await db.kysely.selectFrom('pi_items').selectAll().orderBy('id').execute()).map((r) => ({ ...r, id: Number(r.id) }));

    it('binds values by column whatever the order of the row, and skips a taken key when asked', async () => {
      const insert = preparedInsert(() => db.kysely, 'pi_items', ['id', 'name', 'note']);
      const insertOrSkip = preparedInsert(() => db.kysely, 'pi_items', ['id', 'name', 'note'], ['id']);
      await db.write(async (tx) => {
        await insert(tx, { note: null, name: 'first', id: 1 });
        await insert(tx, { id: 2, name: 'second', note: 'n' });
        await insertOrSkip(tx, { id: 1, name: 'not written', note: null });
      });
      assert.deepEqual(await rows(), [
        { id: 1, name: 'first', note: null },
        { id: 2, name: 'second', note: 'n' },
      ]);
      await assert.rejects(db.write((tx) => insert(tx, { id: 1, name: 'again', note: null })), 'a taken key without the skip is refused by the database');
    });

    it('refuses a row without one of its columns and writes nothing', async () => {
      const insert = preparedInsert(() => db.kysely, 'pi_items', ['id', 'name', 'note']);
      await assert.rejects(db.write((tx) => insert(tx, { id: 3, name: 'no note' })), /no value for note/);
      assert.deepEqual((await rows()).map((r) => r.id), [1, 2]);
    });
  });
}
