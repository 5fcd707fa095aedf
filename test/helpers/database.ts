// A bare migrated core database for unit tests of core machinery (no listeners).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before } from 'node:test';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/core/db/index.ts';
import { coreMigrations } from '../../src/core/migrations.ts';

export interface TestDatabase {
  url: string;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

/** A fresh SQLite file or PostgreSQL schema that can be opened several times (restarts, several workers). */
export function testDatabase(kind: 'sqlite' | 'postgres'): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'twinstack-db-'));
  let url = join(dir, 'core.db');
  let schema: string | undefined;
  if (kind === 'postgres') {
    schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const u = new URL(process.env.TWINSTACK_TEST_DATABASE_URL!);
    u.searchParams.set('schema', schema);
    url = u.toString();
  }
  return {
    url,
    async open() {
      const db = await openDatabase(url);
      await db.migrate('core', coreMigrations);
      return db;
    },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

/**
 * For a describe block: a fresh database of `kind`, opened (and given to `prepare`) before its tests, closed and
 * removed after them. Tests read `.db`.
 */
export function suiteDatabase(kind: 'sqlite' | 'postgres', prepare?: (db: Database) => Promise<void>): { readonly db: Database } {
  let tdb: TestDatabase | undefined;
  let db: Database | undefined;
  before(async () => {
    tdb = testDatabase(kind);
    db = await tdb.open();
    await prepare?.(db);
  });
  after(async () => {
    await db?.close();
    await tdb?.dispose();
  });
  return {
    get db() {
      if (!db) throw new Error('the suite database is opened before the tests run');
      return db;
    },
  };
}
