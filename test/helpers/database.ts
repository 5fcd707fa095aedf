// A bare migrated core database for unit tests of core machinery (no listeners).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
