// migrateAll: every namespace's pending migrations at start, on SQLite in one transaction.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely, type Migration } from 'kysely';
import { openDatabase, type Database } from '../../src/core/db/index.ts';
import { migrateAll } from '../../src/core/migrations.ts';

const table = (name: string): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.createTable(name).addColumn('id', 'integer', (c) => c.primaryKey()).execute();
  },
});
const failing: Migration = {
  async up() {
    throw new Error('this migration fails');
  },
};

describe('migrateAll (SQLite)', () => {
  let dir: string;
  let db: Database;
  const tables = async () => (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name like 'ma_%' order by name`.execute(db.kysely)).rows.map((r) => r.name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'twinstack-migrate-'));
    db = await openDatabase(join(dir, 'm.db'));
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies nothing when one namespace fails, and names that namespace', async () => {
    await assert.rejects(
      migrateAll(db, [
        ['ma_one', { '001': table('ma_one_items') }],
        ['ma_two', { '001': table('ma_two_items'), '002': failing }],
      ]),
      /migrations of ma_two failed: this migration fails/,
    );
    assert.deepEqual(await tables(), [], 'the first namespace was rolled back with the second');
  });

  it('applies every namespace once; a second run and the per-namespace migrator find nothing to do', async () => {
    const sets = [
      ['ma_one', { '001': table('ma_one_items') }],
      ['ma_two', { '001': table('ma_two_items') }],
    ] as const;
    await migrateAll(db, sets);
    await migrateAll(db, sets);
    await db.migrate('ma_two', { '001': table('ma_two_items') });
    assert.deepEqual(await tables(), ['ma_one_items', 'ma_one_migrations', 'ma_one_migrations_lock', 'ma_two_items', 'ma_two_migrations', 'ma_two_migrations_lock']);
  });
});
