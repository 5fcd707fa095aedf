// A query prepared on the database it is handed compiles once per dialect: the same prepared read serves a SQLite and
// a PostgreSQL database in one process, and a unit of work's transaction, each with its own placeholders. A query
// prepared by shape (its IN lists' lengths) binds new values of the same shape, checks the order of the values it is
// given, and builds an over-long list for its run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { inList, INLINE_LIST_MAX } from '../../src/core/db/in-list.ts';
import { preparedByShape, preparedOn } from '../../src/core/db/prepared.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

/** One query for every suite below, as a module-level query of a store is shared by every runtime of a process. */
const byName = preparedOn<{ id: number | string; name: string }>((db) => db.selectFrom('po_items').select(['id', 'name']).where('name', '=', '').orderBy('id'));

for (const kind of DATABASES) {
  describe(`queries prepared on the database they run on (${kind})`, () => {
    const suite = suiteDatabase(kind, async (db) => {
      await sql`create table po_items (id integer primary key, name text not null)`.execute(db.kysely);
      await sql`insert into po_items (id, name) values (1, 'a'), (2, 'b'), (3, 'a')`.execute(db.kysely);
    });

    it('reads with new values on the database and inside a unit of work', async () => {
      const ids = (rows: Array<{ id: number | string }>) => rows.map((r) => Number(r.id));
      assert.deepEqual(ids((await byName(suite.db.kysely, 'a')).rows), [1, 3]);
      assert.deepEqual(ids((await byName(suite.db.kysely, 'b')).rows), [2]);
      const inUnit = await suite.db.write(async (tx) => {
        await sql`insert into po_items (id, name) values (4, 'b')`.execute(tx);
        return ids((await byName(tx, 'b')).rows);
      });
      assert.deepEqual(inUnit, [2, 4], 'the unit sees its own write');
      assert.deepEqual(ids((await byName(suite.db.kysely, 'zzz')).rows), []);
    });

    it('prepares a query with an IN list once per list length, and binds each run its own values', async () => {
      const byIds = preparedByShape<{ id: number | string; name: string }>();
      const run = (ids: number[], name: string) =>
        byIds(suite.db.kysely, [ids], [...ids, name], (d) => sql<{ id: number | string; name: string }>`select id, name from po_items where ${inList(d, 'id', ids)} and name = ${name} order by id`);
      const ids = async (p: ReturnType<typeof run>) => (await p).rows.map((r) => Number(r.id));
      assert.deepEqual(await ids(run([1], 'a')), [1]);
      assert.deepEqual(await ids(run([1, 2, 3], 'a')), [1, 3]);
      assert.deepEqual(await ids(run([3], 'a')), [3], 'the one-id query again, with another id');
      assert.deepEqual(await ids(run([2], 'a')), []);
      const many = Array.from({ length: INLINE_LIST_MAX + 5 }, (_, i) => i + 1);
      assert.deepEqual(await ids(run(many, 'b')), [2, 4], 'a list too long to be inline is built for its run');
    });

    it('refuses values given out of the order of the SQL, and a value the builder wrote into the SQL text', async () => {
      const swapped = preparedByShape();
      await assert.rejects(
        async () => swapped(suite.db.kysely, [], ['a', 2], (d) => d.selectFrom('po_items').select('id').where('id', '=', 2).where('name', '=', 'a')),
        /parameters not in the order of the SQL/,
      );
      const inlined = preparedByShape();
      await assert.rejects(
        async () =>
          inlined(suite.db.kysely, [], [1, 7], (d) =>
            d.selectFrom('po_items').select((eb) => eb.case().when('id', '=', 1).then(7).else(0).end().as('seven')),
          ),
        /parameters not in the order of the SQL/,
      );
    });

    it('refuses a run with the wrong number of values', async () => {
      await assert.rejects(async () => byName(suite.db.kysely, 'a', 'extra'), /takes 1 parameters, got 2/);
    });
  });
}
