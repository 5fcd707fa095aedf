// A filter on an empty list means the same on both databases: `in []` matches nothing, `not in []` everything,
// in selects, updates and deletes, alone or beside other conditions (PostgreSQL has no `IN ()` of its own).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`empty filter lists (${kind})`, () => {
    const suite = suiteDatabase(kind, async (db) => {
      await sql`create table el_items (id integer primary key, v text not null)`.execute(db.kysely);
      await db.kysely.insertInto('el_items').values([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]).execute();
    });

    const ids = async () => (await suite.db.kysely.selectFrom('el_items').select('id').orderBy('id').execute()).map((r) => Number(r.id));

    it('in [] matches no row and not in [] every row', async () => {
      assert.deepEqual(await suite.db.kysely.selectFrom('el_items').select('id').where('id', 'in', []).execute(), []);
      assert.deepEqual((await suite.db.kysely.selectFrom('el_items').select('id').where('v', 'not in', []).orderBy('id').execute()).map((r) => Number(r.id)), [1, 2]);
      const either = await suite.db.kysely.selectFrom('el_items').select('id').where((eb) => eb.or([eb('id', 'in', []), eb('v', '=', 'b')])).execute();
      assert.deepEqual(either.map((r) => Number(r.id)), [2]);
    });

    it('updates and deletes on an empty list change nothing', async () => {
      await suite.db.write(async (tx) => {
        await tx.updateTable('el_items').set({ v: 'changed' }).where('id', 'in', []).execute();
        await tx.deleteFrom('el_items').where('v', 'in', []).execute();
      });
      assert.deepEqual(await ids(), [1, 2]);
      assert.deepEqual((await suite.db.kysely.selectFrom('el_items').select('v').orderBy('id').execute()).map((r) => r.v), ['a', 'b']);
    });

    it('a non-empty list is unchanged', async () => {
      assert.deepEqual((await suite.db.kysely.selectFrom('el_items').select('id').where('id', 'in', [2, 3]).execute()).map((r) => Number(r.id)), [2]);
      assert.deepEqual((await suite.db.kysely.selectFrom('el_items').select('id').where('id', 'not in', [2]).execute()).map((r) => Number(r.id)), [1]);
    });
  });
}
