// A consistent read of the whole database for an export. SQLite: a read-only connection of its own in one read
// transaction (WAL readers see one snapshot and block no writer). PostgreSQL: one pooled connection in a REPEATABLE
// READ, READ ONLY transaction, tables scanned through a server-side cursor so no table is held in memory at once.
import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type { Database } from '../db/index.ts';
import type { RunQuery } from './columns.ts';

export interface Snapshot {
  query: RunQuery;
  /** The rows of one SELECT, in batches. */
  scan(selectText: string): AsyncIterable<Array<Record<string, unknown>>>;
}

const BATCH = 1000;

export async function withSnapshot<T>(db: Database, path: string, fn: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  if (db.dialect === 'postgres') {
    return db.kysely.connection().execute(async (conn) => {
      const run = async (text: string) => (await conn.getExecutor().executeQuery(CompiledQuery.raw(text))).rows as Array<Record<string, unknown>>;
      await run('begin isolation level repeatable read read only');
      try {
        return await fn({ query: run, scan: (text) => cursorScan(run, text) });
      } finally {
        await run('rollback');
      }
    });
  }
  // An in-memory database is private to its connection: read it there, inside a transaction on that connection.
  if (path === ':memory:') {
    return db.kysely.connection().execute(async (conn) => {
      const run = async (text: string) => (await conn.getExecutor().executeQuery(CompiledQuery.raw(text))).rows as Array<Record<string, unknown>>;
      await run('begin');
      try {
        return await fn({ query: run, scan: (text) => pagedOnce(run, text) });
      } finally {
        await run('rollback');
      }
    });
  }
  const handle = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    handle.exec('begin');
    const run = async (text: string) => handle.prepare(text).all() as Array<Record<string, unknown>>;
    return await fn({ query: run, scan: (text) => iterate(handle, text) });
  } finally {
    if (handle.inTransaction) handle.exec('rollback');
    handle.close();
  }
}

async function* iterate(handle: SQLite.Database, text: string): AsyncIterable<Array<Record<string, unknown>>> {
  let batch: Array<Record<string, unknown>> = [];
  for (const row of handle.prepare(text).iterate() as Iterable<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function* cursorScan(run: RunQuery, text: string): AsyncIterable<Array<Record<string, unknown>>> {
  await run(`declare archive_scan no scroll cursor for ${text}`);
  try {
    for (;;) {
      const rows = await run(`fetch ${BATCH} from archive_scan`);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await run('close archive_scan');
  }
}

async function* pagedOnce(run: RunQuery, text: string): AsyncIterable<Array<Record<string, unknown>>> {
  yield await run(text);
}
