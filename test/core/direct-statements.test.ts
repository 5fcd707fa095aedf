// Prepared reads run straight on the SQLite connection only while nothing holds it: never inside an open transaction
// and never for a statement that writes; while a group commit's batch holds it, on the snapshot of what was durable
// before the batch. A unit of work's statements run straight on its batch's connection while the batch runs, with the
// results and the savepoint semantics they have through Kysely.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { directStatement } from '../../src/core/db/direct-statements.ts';
import { NestedWriteError, type Database } from '../../src/core/db/index.ts';
import { prepared } from '../../src/core/db/prepared.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const SELECT = 'select "id", "v" from "dr_items" where "id" = ?';

describe('direct reads (sqlite)', () => {
  let tdb: TestDatabase;
  let db: Database;
  let byId: ReturnType<typeof prepared<{ id: number; v: string }>>;

  before(async () => {
    tdb = testDatabase('sqlite');
    db = await tdb.open();
    await sql`create table dr_items (id integer primary key, v text not null)`.execute(db.kysely);
    await db.write((tx) => tx.insertInto('dr_items').values({ id: 1, v: 'one' }).execute());
    byId = prepared(() => db.kysely.selectFrom('dr_items').select(['id', 'v']).where('id', '=', 0));
  });
  after(async () => {
    await db.close();
    await tdb.dispose();
  });

  /** Until nothing holds the connection (a batch holds it for its checkpoint after answering its units). */
  const connectionFree = async () => {
    while (directStatement(db.kysely, SELECT, [0]) === undefined) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  };

  it('runs a read at once when the connection is free, with the rows Kysely would return', async () => {
    const direct = directStatement<{ id: number; v: string }>(db.kysely, SELECT, [1]);
    assert.ok(direct, 'a free connection reads directly');
    assert.deepEqual((await direct).rows, [{ id: 1, v: 'one' }]);
    assert.deepEqual((await byId(db.kysely, 1)).rows, (await db.kysely.selectFrom('dr_items').select(['id', 'v']).where('id', '=', 1).execute()));
    assert.deepEqual((await byId(db.kysely, 2)).rows, []);
  });

  it('never runs a statement that writes, nor on a transaction or another database', async () => {
    assert.equal(directStatement(db.kysely, 'insert into "dr_items" ("id", "v") values (?, ?)', [50, 'x']), undefined);
    assert.equal(directStatement(db.kysely, 'insert into "dr_items" ("id", "v") values (?, ?) returning "id"', [51, 'y']), undefined);
    assert.equal((await db.kysely.selectFrom('dr_items').select('id').where('id', 'in', [50, 51]).execute()).length, 0);
    await db.kysely.transaction().execute(async (tx) => {
      assert.equal(directStatement(tx, SELECT, [1]), undefined);
    });
  });

  it('waits for a transaction that holds the connection, and then sees its committed write', async () => {
    let read: Promise<unknown> | undefined;
    let readDone = false;
    await db.kysely.transaction().execute(async (tx) => {
      await tx.insertInto('dr_items').values({ id: 2, v: 'two' }).execute();
      read = byId(db.kysely, 2).then((r) => ((readDone = true), r.rows));
      await new Promise((r) => setImmediate(r));
      assert.equal(readDone, false, 'a read must not run inside another transaction');
    });
    assert.deepEqual(await read, [{ id: 2, v: 'two' }]);
  });

  it('waits while the connection is held with no transaction open (a batch waiting for its fsync)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const holder = db.kysely.connection().execute(() => gate);
    await new Promise((r) => setImmediate(r));
    assert.equal(directStatement(db.kysely, SELECT, [1]), undefined);
    let readDone = false;
    const read = byId(db.kysely, 1).then((r) => ((readDone = true), r.rows));
    await new Promise((r) => setImmediate(r));
    assert.equal(readDone, false);
    release();
    await holder;
    assert.deepEqual(await read, [{ id: 1, v: 'one' }]);
    assert.ok(directStatement(db.kysely, SELECT, [1]), 'free again once released');
  });

  it('answers a read at once while a batch runs, from what was durable before it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted = false;
    const write = db.write(async (tx) => {
      await tx.insertInto('dr_items').values({ id: 3, v: 'three' }).execute();
      inserted = true;
      await gate;
    });
    while (!inserted) await new Promise((r) => setImmediate(r));
    // The batch holds the connection with its insert uncommitted: the read neither waits for it nor sees it.
    assert.deepEqual((await byId(db.kysely, 3)).rows, []);
    assert.deepEqual((await byId(db.kysely, 1)).rows, [{ id: 1, v: 'one' }]);
    assert.equal(directStatement(db.kysely, 'delete from "dr_items"', []), undefined, 'never a write');
    release();
    await write;
    assert.deepEqual((await byId(db.kysely, 3)).rows, [{ id: 3, v: 'three' }]);
  });

  it('refuses a read on the database inside a unit of work, as Kysely does', async () => {
    await assert.rejects(
      db.write(() => byId(db.kysely, 1)),
      (err) => err instanceof NestedWriteError,
    );
  });

  it('answers a failing read with its error, and the connection keeps working', async () => {
    const malformed = prepared(() => db.kysely.selectNoFrom(sql<string>`json_extract(${'{}'}, ${'$'})`.as('x')));
    await assert.rejects(malformed(db.kysely, 'not json', '$'), /malformed JSON/);
    assert.deepEqual((await byId(db.kysely, 1)).rows, [{ id: 1, v: 'one' }]);
  });

  it('answers the reads of one turn from one snapshot, and the next turn from a new one', async () => {
    await db.write((tx) => tx.insertInto('dr_items').values({ id: 60, v: 'sixty' }).execute());
    await connectionFree();
    // Another connection stands for any change the reads of a turn must see all or none of.
    const other = new SQLite(tdb.url);
    try {
      let turnOver = false;
      setImmediate(() => (turnOver = true));
      assert.deepEqual((await byId(db.kysely, 60)).rows, [{ id: 60, v: 'sixty' }]);
      assert.deepEqual((await byId(db.kysely, 60)).rows, [{ id: 60, v: 'sixty' }]);
      other.prepare('update dr_items set v = ? where id = ?').run('changed', 60);
      assert.deepEqual((await byId(db.kysely, 60)).rows, [{ id: 60, v: 'sixty' }], 'the same turn: the same snapshot');
      assert.equal(turnOver, false, 'all in one turn');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual((await byId(db.kysely, 60)).rows, [{ id: 60, v: 'changed' }], 'a later turn sees the change');
    } finally {
      other.close();
    }
  });

  it("sees a write made through the database's own connection at once, in the same turn", async () => {
    await connectionFree();
    let turnOver = false;
    setImmediate(() => (turnOver = true));
    assert.deepEqual((await byId(db.kysely, 61)).rows, []);
    assert.deepEqual((await byId(db.kysely, 61)).rows, []);
    await db.kysely.insertInto('dr_items').values({ id: 61, v: 'sixty-one' }).execute();
    assert.deepEqual((await byId(db.kysely, 61)).rows, [{ id: 61, v: 'sixty-one' }]);
    await db.kysely.updateTable('dr_items').set({ v: 'updated' }).where('id', '=', 61).execute();
    assert.deepEqual((await byId(db.kysely, 61)).rows, [{ id: 61, v: 'updated' }]);
    assert.equal(turnOver, false, 'all in one turn');
  });

  it('sees a unit of work once it is acknowledged, and not before', async () => {
    await connectionFree();
    assert.deepEqual((await byId(db.kysely, 62)).rows, []);
    assert.deepEqual((await byId(db.kysely, 62)).rows, []);
    const written = db.write((tx) => tx.insertInto('dr_items').values({ id: 62, v: 'sixty-two' }).execute());
    assert.deepEqual((await byId(db.kysely, 62)).rows, [], 'not acknowledged yet');
    await written;
    assert.deepEqual((await byId(db.kysely, 62)).rows, [{ id: 62, v: 'sixty-two' }]);
  });
});

describe('direct statements of units of work (sqlite)', () => {
  let tdb: TestDatabase;
  let db: Database;
  const INSERT = 'insert into "du_items" ("id", "v") values (?, ?)';

  before(async () => {
    tdb = testDatabase('sqlite');
    db = await tdb.open();
    await sql`create table du_items (id integer primary key, v text not null)`.execute(db.kysely);
  });
  after(async () => {
    await db.close();
    await tdb.dispose();
  });

  it("runs a unit's statements at once, with the results Kysely gives", async () => {
    const insert = prepared(() => db.kysely.insertInto('du_items').values({ id: 0, v: '' }));
    const direct = await db.write(async (tx) => {
      const run = directStatement(tx, INSERT, [1, 'one']);
      assert.ok(run, "a unit's statement runs at once");
      const viaKysely = await tx.executeQuery(CompiledQuery.raw(INSERT, [2, 'two']));
      return { direct: await run, viaKysely, prepared: await insert(tx, 3, 'three') };
    });
    assert.deepEqual(direct.direct, { numAffectedRows: 1n, insertId: 1n, rows: [] });
    assert.deepEqual(direct.viaKysely, { numAffectedRows: 1n, insertId: 2n, rows: [] });
    assert.deepEqual(direct.prepared, { numAffectedRows: 1n, insertId: 3n, rows: [] });
    assert.deepEqual(await db.kysely.selectFrom('du_items').select(['id', 'v']).orderBy('id').execute(), [
      { id: 1, v: 'one' },
      { id: 2, v: 'two' },
      { id: 3, v: 'three' },
    ]);
  });

  it('undoes only the failing unit of a batch, its direct writes included', async () => {
    const units = [10, 11, 12].map((id) =>
      db.write(async (tx) => {
        await directStatement(tx, INSERT, [id, `v${id}`]);
        if (id === 11) throw new Error('unit 11 fails');
        return id;
      }),
    );
    const settled = await Promise.allSettled(units);
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((settled[1] as PromiseRejectedResult).reason), /unit 11 fails/);
    assert.deepEqual((await db.kysely.selectFrom('du_items').select('id').where('id', '>=', 10).orderBy('id').execute()).map((r) => r.id), [10, 12]);
  });

  it('answers a failing statement with its error, and the unit decides what it means', async () => {
    await assert.rejects(
      db.write(async (tx) => {
        await directStatement(tx, INSERT, [20, 'first']);
        await directStatement(tx, INSERT, [20, 'again']);
      }),
      /UNIQUE constraint failed/,
    );
    assert.equal((await db.kysely.selectFrom('du_items').select('id').where('id', '=', 20).execute()).length, 0);
  });

  it("no longer runs on a batch's connection once the batch is over", async () => {
    const kept = await db.write(async (tx) => tx);
    assert.equal(directStatement(kept, INSERT, [30, 'late']), undefined);
    assert.equal((await db.kysely.selectFrom('du_items').select('id').where('id', '=', 30).execute()).length, 0);
  });
});
