// The write-ahead log's checkpoints run on a worker thread, after group commits, instead of inside the writer's COMMIT.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { BACKSTOP_PAGES, CHECKPOINT_INTERVAL_MS, WalCheckpointer } from '../../src/core/db/checkpointer.ts';
import { openDatabase, type Database } from '../../src/core/db/index.ts';

describe('write-ahead log checkpoints (sqlite)', () => {
  let dir: string;
  let path: string;
  let db: Database;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'twinstack-ckpt-'));
    path = join(dir, 'data.db');
    db = await openDatabase(path);
    await sql`create table ck_items (id integer primary key, v text not null)`.execute(db.kysely);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const walFrames = (p: string) => Math.max(0, (statSync(`${p}-wal`).size - 32) / (4096 + 24));

  it("leaves the writer's own checkpoint only as a backstop", async () => {
    const [row] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)).rows;
    assert.equal(row.wal_autocheckpoint, BACKSTOP_PAGES);
  });

  it('copies the log into the database file after group commits, and the log starts over', async () => {
    const big = 'x'.repeat(3000);
    const writeMany = (from: number) => Promise.all(Array.from({ length: 200 }, (_, i) => db.write((tx) => tx.insertInto('ck_items').values({ id: from + i, v: big }).execute())));
    await writeMany(0);
    // The writes went to the log. How many frames it holds depends on whether a checkpoint ran between two of the
    // batches they took (a batch stops taking units after BATCH_BUDGET_MS), after which the log starts over.
    const grown = walFrames(path);
    assert.ok(grown > 0, `the log holds the writes (${grown} frames)`);
    // Commits after the interval run the checkpoint in their window; wait until one has.
    const deadline = Date.now() + 20_000;
    let round = 1;
    let checkpointed = false;
    while (!checkpointed && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, CHECKPOINT_INTERVAL_MS + 10));
      await writeMany(round++ * 1000);
      // The database file alone (its log left behind) holds what was checkpointed.
      checkpointed = readsFromFileAlone(path) > 0;
    }
    assert.ok(checkpointed, 'rows reached the database file without the writer checkpointing');
    // Every row written is still there, through the log or the file.
    const n = Number((await db.kysely.selectFrom('ck_items').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    assert.equal(n, 200 * round);
  });

  it('checkpoints on request, fully when nothing reads', async () => {
    await db.write((tx) => tx.insertInto('ck_items').values({ id: 99_999, v: 'last' }).execute());
    await db.checkpoint();
    assert.equal(readsFromFileAlone(path), Number((await db.kysely.selectFrom('ck_items').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n));
  });
});

describe('WalCheckpointer', () => {
  it('reports a checkpoint of a missing database as an error and stays usable for closing', async () => {
    const checkpointer = new WalCheckpointer(join(tmpdir(), 'twinstack-no-such-dir', 'x.db'));
    await assert.rejects(checkpointer.checkpoint(), /exited|unable to open|directory does not exist/);
    await checkpointer.close();
    assert.ok(!existsSync(join(tmpdir(), 'twinstack-no-such-dir')));
  });
});

/** Rows of ck_items in the database file alone: a copy of the file without its log. */
function readsFromFileAlone(path: string): number {
  const copy = `${path}.file-only`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(path, copy);
  const only = new SQLite(copy);
  try {
    return (only.prepare('select count(*) as n from ck_items').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    only.close();
  }
}
