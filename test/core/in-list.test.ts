// inList / notInList: `column IN list` for a list of any length. Short lists stay inline; longer ones are one bound
// array, so a list past both databases' parameter limits (32,766 on SQLite, 65,535 on PostgreSQL) still runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { INLINE_LIST_MAX, inList, notInList } from '../../src/core/db/in-list.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

/** Past PostgreSQL's 65,535 parameters, and so past SQLite's 32,766 too. */
const LONG = 70_000;
const ODD = "c'\"\\,{}";

for (const kind of DATABASES) {
  describe(`inList (${kind})`, () => {
    const suite = suiteDatabase(kind, async (db) => {
      await sql`create table il_items (id integer primary key, name text not null)`.execute(db.kysely);
      await db.kysely.insertInto('il_items').values([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 100_000, name: ODD }]).execute();
    });
    const db = () => suite.db.kysely;
    const ids = (rows: Array<{ id: unknown }>) => rows.map((r) => Number(r.id));
    const numbers = Array.from({ length: LONG }, (_, i) => i + 2);

    it('reads a list longer than either database binds, of numbers and of strings', async () => {
      const byNumber = await db().selectFrom('il_items').select('id').where(inList(db(), 'id', numbers)).orderBy('id').execute();
      assert.deepEqual(ids(byNumber), [2]);
      const names = [...Array.from({ length: LONG }, (_, i) => `n${i}`), 'a', ODD];
      const byName = await db().selectFrom('il_items').select('id').where(inList(db(), 'name', names)).orderBy('id').execute();
      assert.deepEqual(ids(byName), [1, 100_000]);
      const outside = await db().selectFrom('il_items').select('id').where(notInList(db(), 'id', numbers)).orderBy('id').execute();
      assert.deepEqual(ids(outside), [1, 100_000]);
    });

    it('works inside SQL text with a qualified column and in writes, inline or bound', async () => {
      for (const length of [1, INLINE_LIST_MAX, INLINE_LIST_MAX + 1]) {
        const list = Array.from({ length }, (_, i) => i + 1);
        const { rows } = await sql<{ id: number }>`select i.id from il_items i where ${inList(db(), 'i.id', list)} order by i.id`.execute(db());
        assert.deepEqual(ids(rows), length === 1 ? [1] : [1, 2], `${length} values`);
      }
      await suite.db.write(async (tx) => {
        await tx.updateTable('il_items').set({ name: 'changed' }).where(inList(tx, 'id', numbers)).execute();
      });
      assert.deepEqual((await db().selectFrom('il_items').select('name').orderBy('id').execute()).map((r) => r.name), ['a', 'changed', ODD]);
    });

    it('an empty list matches nothing, and with notInList everything, whatever the column type', async () => {
      for (const column of ['id', 'name']) {
        assert.deepEqual(await db().selectFrom('il_items').select('id').where(inList(db(), column, [])).execute(), []);
        assert.deepEqual(ids(await db().selectFrom('il_items').select('id').where(notInList(db(), column, [])).orderBy('id').execute()), [1, 2, 100_000]);
      }
    });

    it('refuses a long list mixing strings and numbers or holding a fraction', () => {
      const long = (last: string | number) => [...Array.from({ length: INLINE_LIST_MAX }, (_, i) => i), last] as number[];
      assert.throws(() => inList(db(), 'id', long('x')), TypeError);
      assert.throws(() => inList(db(), 'id', long(1.5)), TypeError);
    });
  });
}
