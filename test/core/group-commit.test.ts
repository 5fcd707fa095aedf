// The durable write path: units of work that arrive together share a commit, each in its own savepoint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { DurableSnapshot } from '../../src/core/db/durable-snapshot.ts';
import { withLiteralRows } from '../../src/core/db/literal-rows.ts';
import { BATCH_BUDGET_MS, GroupCommitter } from '../../src/core/db/group-commit.ts';
import { NestedWriteError, type Database } from '../../src/core/db/index.ts';
import { serializeWith } from '../../src/core/db/serialized-writes.ts';
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

    it('a unit that changes many pages and then fails leaves no trace; its batch-mates commit', async () => {
      // 100 rows of 3,000 characters change about 75 pages: a savepoint journal well past the 64 KiB at which
      // SQLite's default would move it to a temporary file.
      const big = 'y'.repeat(3000);
      const [failed, kept] = await Promise.allSettled([
        db.write(async (tx) => {
          for (let i = 0; i < 100; i++) await tx.insertInto('gc_items').values({ id: 1000 + i, v: big }).execute();
          throw new Error('large unit refused');
        }),
        db.write((tx) => tx.insertInto('gc_items').values({ id: 1500, v: 'kept' }).execute()),
      ]);
      assert.equal(failed.status === 'rejected' && (failed.reason as Error).message, 'large unit refused');
      assert.equal(kept.status, 'fulfilled');
      const rows = await db.kysely.selectFrom('gc_items').select('id').where('id', '>=', 1000).execute();
      assert.deepEqual(rows.map((r) => Number(r.id)), [1500]);
      await db.write((tx) => tx.deleteFrom('gc_items').where('id', '=', 1500).execute());
      if (db.dialect === 'sqlite') {
        // Savepoint journals stay in memory (temp_store=MEMORY): spilled, every changed page cost a write call.
        const [row] = (await sql<{ temp_store: number }>`pragma temp_store`.execute(db.kysely)).rows;
        assert.equal(row!.temp_store, 2);
      }
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

    it('writeStatement is a unit of work of its own: its rows, its own error, durable when it resolves', async () => {
      const other = await tdb.open();
      try {
        const insert = (id: number, v: string) => db.kysely.insertInto('gc_items').values({ id, v }).returning('id').compile();
        const [dup, fresh, unit] = await Promise.allSettled([
          db.writeStatement(insert(1, 'again')),
          db.writeStatement(insert(50, 'statement')),
          db.write((tx) => tx.insertInto('gc_items').values({ id: 51, v: 'unit' }).execute()),
        ]);
        assert.equal(dup.status, 'rejected');
        assert.deepEqual(fresh.status === 'fulfilled' && fresh.value.rows.map((r) => Number(r.id)), [50]);
        assert.equal(unit.status, 'fulfilled');
        const rows = await other.kysely.selectFrom('gc_items').select(['id', 'v']).where('id', 'in', [1, 50, 51]).orderBy('id').execute();
        assert.deepEqual(rows.map((r) => [Number(r.id), r.v]), [[1, 'a1'], [50, 'statement'], [51, 'unit']]);
      } finally {
        await other.close();
      }
      await assert.rejects(
        db.write(() => db.writeStatement(db.kysely.deleteFrom('gc_items').compile())),
        (e) => e instanceof NestedWriteError,
      );
      assert.equal(await count(), 36);
    });

    it('writeStatement runs outside any transaction on PostgreSQL, inside a group commit on SQLite', async () => {
      // VACUUM is refused inside a transaction block on both databases.
      const vacuum = sql`vacuum`.compile(db.kysely);
      if (db.dialect === 'postgres') await db.writeStatement(vacuum);
      else await assert.rejects(db.writeStatement(vacuum), /within a transaction/);
      assert.equal(await count(), 36);
    });

    it('runs again a unit that PostgreSQL rolled back to resolve a deadlock', async () => {
      await db.write((tx) => tx.insertInto('gc_items').values([{ id: 500, v: 'a' }, { id: 501, v: 'b' }]).execute());
      // Each unit locks one row, waits until the other has locked its own, then asks for the other's row: on
      // PostgreSQL one of them is chosen as the deadlock's victim and rolled back. Only first attempts wait.
      let locked = 0;
      let bothLocked!: () => void;
      const met = new Promise<void>((resolve) => (bothLocked = resolve));
      let runs = 0;
      const unit = (first: number, second: number) =>
        db.write(async (tx) => {
          runs++;
          await tx.updateTable('gc_items').set({ v: `by ${first}` }).where('id', '=', first).execute();
          if (++locked === 2) bothLocked();
          if (db.dialect === 'postgres') await met;
          await tx.updateTable('gc_items').set({ v: `by ${first}` }).where('id', '=', second).execute();
          return first;
        });
      assert.deepEqual(await Promise.all([unit(500, 501), unit(501, 500)]), [500, 501]);
      assert.equal(runs, db.dialect === 'postgres' ? 3 : 2);
      const rows = await db.kysely.selectFrom('gc_items').select('v').where('id', 'in', [500, 501]).execute();
      assert.equal(new Set(rows.map((r) => r.v)).size, 1, 'the unit run last wrote both rows');
      await db.write((tx) => tx.deleteFrom('gc_items').where('id', 'in', [500, 501]).execute());
    });

    it('serializeWith makes units of one name run one after another', async () => {
      const order: string[] = [];
      const unit = (name: string) =>
        db.write(async (tx) => {
          await serializeWith(tx, 'group-commit test');
          order.push(`${name} begins`);
          await new Promise((r) => setTimeout(r, 20));
          order.push(`${name} ends`);
        });
      await Promise.all([unit('first'), unit('second'), unit('third')]);
      for (let i = 0; i < order.length; i += 2) assert.equal(order[i].split(' ')[0], order[i + 1].split(' ')[0], order.join(', '));
    });

    it('heavyRead runs a compiled query and sees committed data', async () => {
      const rows = await db.heavyRead(db.kysely.selectFrom('gc_items').select(['id', 'v']).where('id', '>=', 100).orderBy('id'));
      assert.deepEqual(rows.map((r) => Number(r.id)), [100, 200]);
      await assert.rejects(db.heavyRead(db.kysely.selectFrom('gc_missing').selectAll()));
      // SQLite's reads ran on a worker thread whose heap is reported; PostgreSQL's on the pool, with no worker.
      const heaps = await db.readerHeaps();
      if (db.dialect === 'sqlite') assert.ok(heaps.length >= 1 && heaps.every((h) => h.used > 0 && h.total >= h.used), JSON.stringify(heaps));
      else assert.deepEqual(heaps, []);
    });

    it('heavyRead is read-only, and long reads leave the connections of short ones free', async () => {
      await assert.rejects(db.heavyRead(db.kysely.insertInto('gc_items').values({ id: 900, v: 'no' }).returning('id')), /read-only|readonly/i);
      assert.equal((await db.kysely.selectFrom('gc_items').select('id').where('id', '=', 900).execute()).length, 0);
      // More long reads than the shared pool has connections: a short read asked after them still finishes first.
      const finished: string[] = [];
      const slow = db.dialect === 'postgres' ? sql<number>`pg_sleep(0.5)` : sql<number>`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) from n)`;
      const long = Array.from({ length: 12 }, () => db.heavyRead(db.kysely.selectNoFrom(slow.as('x'))).then(() => finished.push('long')));
      await db.kysely.selectFrom('gc_items').select('id').limit(1).execute();
      finished.push('short');
      await Promise.all(long);
      assert.equal(finished[0], 'short', finished.join(' '));
    });
  });
}

describe('group commit with the fsync off the event loop (SQLite)', () => {
  let dir: string;
  let kysely: Kysely<any>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'twinstack-gc-'));
    const handle = new SQLite(join(dir, 'gc.db'));
    // As the database opens every file: a snapshot's reader must not block the writer.
    handle.pragma('journal_mode = WAL');
    kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: handle }) });
    await sql`create table gc_durable (id integer primary key)`.execute(kysely);
  });
  after(async () => {
    await kysely.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a batch only once makeDurable resolves, and holds the connection until then', async () => {
    let release!: () => void;
    const durable = new Promise<void>((r) => (release = r));
    const calls: string[] = [];
    const committer = new GroupCommitter(kysely, {
      makeDurable: async () => {
        calls.push('sync');
        await durable;
      },
    });
    let answered = false;
    const write = committer.write((tx) => tx.insertInto('gc_durable').values({ id: 1 }).execute()).then(() => (answered = true));
    let readDone = false;
    // Wait until the commit reached makeDurable.
    while (calls.length === 0) await new Promise((r) => setImmediate(r));
    const read = kysely.selectFrom('gc_durable').selectAll().execute().then((rows) => ((readDone = true), rows));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(answered, false, 'no answer before the fsync');
    assert.equal(readDone, false, 'no other query on the connection sees the batch before it is durable');
    release();
    await write;
    assert.deepEqual((await read).map((r) => r.id), [1]);
  });

  /** A snapshot of the test database (its statements prepared as they come) and its read-only connection. */
  const openSnapshot = () => {
    let connection!: SQLite.Database;
    const snapshot = new DurableSnapshot(join(dir, 'gc.db'), (reader) => {
      connection = reader;
      return { prepare: (text) => withLiteralRows(reader.prepare(text)), close: () => reader.close() };
    });
    return Object.assign(snapshot, { connection });
  };

  it('pins the durable snapshot from before the batch until the batch is durable', async () => {
    const snapshot = openSnapshot();
    const byId = { all: (id: number) => (snapshot.prepare('select id from gc_durable where id = ?').all(id) as Array<{ id: number }>).map((r) => r.id) };
    let release!: () => void;
    const durable = new Promise<void>((r) => (release = r));
    let syncing = false;
    const committer = new GroupCommitter(kysely, {
      makeDurable: async () => {
        syncing = true;
        await durable;
      },
      whileBatchRuns: () => snapshot.pin(),
    });
    const write = committer.write((tx) => tx.insertInto('gc_durable').values({ id: 60 }).execute());
    while (!syncing) await new Promise((r) => setImmediate(r));
    // Committed on the writer, not yet durable: the snapshot does not show it.
    assert.equal(snapshot.pinned, true);
    assert.deepEqual(byId.all(60), []);
    release();
    await write;
    assert.equal(snapshot.pinned, false, 'released once the batch is durable');
    assert.deepEqual(byId.all(60), [60]);
    snapshot.close();
  });

  it('releases the snapshot when the batch fails', async () => {
    const snapshot = openSnapshot();
    const committer = new GroupCommitter(kysely, { makeDurable: async () => Promise.reject(new Error('EIO')), whileBatchRuns: () => snapshot.pin() });
    await assert.rejects(committer.write((tx) => tx.insertInto('gc_durable').values({ id: 61 }).execute()), /EIO/);
    assert.equal(snapshot.pinned, false);
    assert.equal(snapshot.connection.inTransaction, false);
    snapshot.close();
  });

  it('fails every unit of the batch when the fsync fails (nothing is known durable)', async () => {
    const committer = new GroupCommitter(kysely, { makeDurable: async () => Promise.reject(new Error('EIO')) });
    const results = await Promise.allSettled([2, 3].map((id) => committer.write((tx) => tx.insertInto('gc_durable').values({ id }).execute())));
    assert.deepEqual(results.map((r) => r.status === 'rejected' && (r.reason as Error).message), ['EIO', 'EIO']);
  });

  it('commits a batch once its units have run for BATCH_BUDGET_MS, leaving the rest to the next batch', async () => {
    const committer = new GroupCommitter(kysely, { makeDurable: async () => undefined });
    // Each unit keeps the event loop for the whole budget: no second unit may join its batch.
    const slow = (id: number) =>
      committer.write(async (tx) => {
        const until = performance.now() + BATCH_BUDGET_MS;
        while (performance.now() < until);
        await tx.insertInto('gc_durable').values({ id }).execute();
      });
    const quick = (id: number) => committer.write((tx) => tx.insertInto('gc_durable').values({ id }).execute());
    await Promise.all([slow(10), slow(11), slow(12)]);
    assert.deepEqual(committer.stats(), { commits: 3, units: 3 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => quick(20 + i)));
    const { commits, units } = committer.stats();
    assert.equal(units, 23);
    assert.ok(commits - 3 < 20, `quick units arriving together still share commits (${commits - 3} for 20)`);
  });

  it('restores synchronous=FULL after each batch for writes outside the committer', async () => {
    await sql`pragma synchronous = FULL`.execute(kysely);
    const committer = new GroupCommitter(kysely, { makeDurable: async () => undefined });
    await committer.write((tx) => tx.insertInto('gc_durable').values({ id: 4 }).execute());
    const [row] = (await sql<{ synchronous: number }>`pragma synchronous`.execute(kysely)).rows;
    assert.equal(row!.synchronous, 2, 'FULL');
  });
});
