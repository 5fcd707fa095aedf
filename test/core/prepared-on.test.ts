// A query prepared on the database it is handed compiles once per dialect: the same prepared read serves a SQLite and
// a PostgreSQL database in one process, and a unit of work's transaction, each with its own placeholders.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { preparedOn } from '../../src/core/db/prepared.ts';
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

    it('refuses a run with the wrong number of values', async () => {
      await assert.rejects(async () => byName(suite.db.kysely, 'a', 'extra'), /takes 1 parameters, got 2/);
    });
  });
}
