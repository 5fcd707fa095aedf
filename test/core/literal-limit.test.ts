// An integer LIMIT is written into SQLite's SQL rather than bound (a bound LIMIT makes SQLite prepare the statement
// again on every run); the rows each database answers are the same either way, with offsets and other parameters
// still bound in order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`limits (${kind})`, () => {
    const suite = suiteDatabase(kind, async (db) => {
      await sql`create table ll_items (id integer primary key, v text not null)`.execute(db.kysely);
      await db.kysely.insertInto('ll_items').values([1, 2, 3, 4, 5, 6].map((id) => ({ id, v: id % 2 ? 'odd' : 'even' }))).execute();
    });

    const page = (v: string, limit: number, offset: number) =>
      suite.db.kysely.selectFrom('ll_items').select('id').where('v', '=', v).orderBy('id').limit(limit).offset(offset);

    it('answers the same page with the limit written or bound', async () => {
      assert.deepEqual((await page('odd', 2, 1).execute()).map((r) => Number(r.id)), [3, 5]);
      assert.deepEqual((await page('even', 1, 0).execute()).map((r) => Number(r.id)), [2]);
      assert.deepEqual((await page('even', 5, 2).execute()).map((r) => Number(r.id)), [6]);
      assert.deepEqual((await suite.db.kysely.selectFrom('ll_items').select('id').orderBy('id').limit(BigInt(2)).execute()).map((r) => Number(r.id)), [1, 2]);
    });

    it(kind === 'sqlite' ? 'writes an integer limit into the SQL and binds the rest in order' : 'binds the limit as a parameter', () => {
      const compiled = page('odd', 2, 1).compile();
      if (kind === 'sqlite') {
        assert.match(compiled.sql, /limit 2 offset \?$/);
        assert.deepEqual(compiled.parameters, ['odd', 1]);
      } else {
        assert.match(compiled.sql, /limit \$2 offset \$3$/);
        assert.deepEqual(compiled.parameters, ['odd', 2, 1]);
      }
    });

    it('keeps a limit that is not a plain integer bound', async () => {
      const expression = suite.db.kysely.selectFrom('ll_items').select('id').orderBy('id').limit(sql<number>`cast(${1} as integer) + cast(${1} as integer)`);
      assert.equal(expression.compile().parameters.length, 2);
      assert.deepEqual((await expression.execute()).map((r) => Number(r.id)), [1, 2]);
    });
  });
}
