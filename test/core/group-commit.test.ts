// The durable write path: units of work that arrive together share a commit, each in its own savepoint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { NestedWriteError, type Database } from '../../src/core/db/index.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`group commit (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      await sql`create table gc_items (id integer primary key, v text not null)`.execute(db.kysely);
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    const count = async () => Number((await db.kysely.selectFrom('gc_items').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('a failing unit rolls back only itself; the others of its batch commit', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          db.write(async (tx) => {
            await tx.insertInto('gc_items').values({ id: i, v: `a${i}` }).execute();
            // Every fifth unit writes, then fails after its write: its row must not survive.
            if (i % 5 === 0) throw new Error(`unit ${i} refused`);
            return i;
          }),
        ),
      );
      results.forEach((r, i) => {
        if (i % 5 === 0) assert.equal(r.status === 'rejected' && (r.reason as Error).message, `unit ${i} refused`);
        else assert.deepEqual(r, { status: 'fulfilled', value: i });
      });
      assert.equal(await count(), 32);
    });

    it('a constraint violation fails its own unit with its own error', async () => {
      const [dup, fresh] = await Promise.allSettled([
        db.write((tx) => tx.insertInto('gc_items').values({ id: 1, v: 'again' }).execute()),
        db.write((tx) => tx.insertInto('gc_items').values({ id: 100, v: 'new' }).execute()),
      ]);
      assert.equal(dup.status, 'rejected');
      assert.equal(fresh.status, 'fulfilled');
      const row = await db.kysely.selectFrom('gc_items').select('v').where('id', '=', 1).executeTakeFirstOrThrow();
      assert.equal(row.v, 'a1');
    });

    it('a unit resolves only after its commit: a new connection sees the write once the promise resolves', async () => {
      const other = await tdb.open();
      try {
        await db.write((tx) => tx.insertInto('gc_items').values({ id: 200, v: 'seen' }).execute());
        const row = await other.kysely.selectFrom('gc_items').select('v').where('id', '=', 200).executeTakeFirst();
        assert.equal(row?.v, 'seen');
      } finally {
        await other.close();
      }
    });

    it('refuses a query outside the unit transaction and a nested write instead of waiting forever', async () => {
      await assert.rejects(
        db.write(() => db.kysely.selectFrom('gc_items').selectAll().execute()),
        (e) => e instanceof NestedWriteError,
      );
      await assert.rejects(
        db.write(() => db.write(async () => 1)),
        (e) => e instanceof NestedWriteError,
      );
    });

    it('heavyRead runs a compiled query and sees committed data', async () => {
      const rows = await db.heavyRead(db.kysely.selectFrom('gc_items').select(['id', 'v']).where('id', '>=', 100).orderBy('id'));
      assert.deepEqual(rows.map((r) => Number(r.id)), [100, 200]);
      await assert.rejects(db.heavyRead(db.kysely.selectFrom('gc_missing').selectAll()));
    });
  });
}
