// A compiled one-row insert binds each row's values by column name, skips a taken key when asked, refuses a row that
// lacks a column, and runs inside a unit of work, on both databases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { preparedInsert } from '../../src/core/db/prepared.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`prepared inserts (${kind})`, () => {
    const suite = suiteDatabase(kind, async (db) => {
      await sql`create table pi_items (id integer primary key, name text not null, note text)`.execute(db.kysely);
    });

    const rows = async () => (await suite.db.kysely.selectFrom('pi_items').selectAll().orderBy('id').execute()).map((r) => ({ ...r, id: Number(r.id) }));

    it('binds values by column whatever the order of the row, and skips a taken key when asked', async () => {
      const insert = preparedInsert(() => suite.db.kysely, 'pi_items', ['id', 'name', 'note']);
      const insertOrSkip = preparedInsert(() => suite.db.kysely, 'pi_items', ['id', 'name', 'note'], ['id']);
      await suite.db.write(async (tx) => {
        await insert(tx, { note: null, name: 'first', id: 1 });
        await insert(tx, { id: 2, name: 'second', note: 'n' });
        await insertOrSkip(tx, { id: 1, name: 'not written', note: null });
      });
      assert.deepEqual(await rows(), [
        { id: 1, name: 'first', note: null },
        { id: 2, name: 'second', note: 'n' },
      ]);
      await assert.rejects(suite.db.write((tx) => insert(tx, { id: 1, name: 'again', note: null })), 'a taken key without the skip is refused by the database');
    });

    it('refuses a row without one of its columns and writes nothing', async () => {
      const insert = preparedInsert(() => suite.db.kysely, 'pi_items', ['id', 'name', 'note']);
      await assert.rejects(suite.db.write((tx) => insert(tx, { id: 3, name: 'no note' })), /no value for note/);
      assert.deepEqual((await rows()).map((r) => r.id), [1, 2]);
    });
  });
}
