// Tables that core owns: principals and credentials, durable jobs, the outbox, and runtime settings; and the runner
// that brings every namespace's tables up to date at start.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes } from './db/dialect.ts';
import type { Database } from './db/index.ts';

export const CORE_TABLES = ['core_credentials', 'core_principals', 'core_jobs', 'core_outbox', 'core_settings'];

export const coreMigrations: Record<string, Migration> = {
  '0001_core': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('core_principals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('attrs', t.json, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('core_principals_kind').on('core_principals').column('kind').execute();
      await db.schema
        .createTable('core_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('principal_id', 'text', (c) => c.notNull().references('core_principals.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('lookup_hash', 'text', (c) => c.notNull().unique())
        .addColumn('secret_enc', 'text')
        .addColumn('scopes', t.json, (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('expires_at', t.bigint)
        .execute();
      await db.schema.createIndex('core_credentials_principal').on('core_credentials').column('principal_id').execute();
      await db.schema
        .createTable('core_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('job_key', 'text', (c) => c.unique())
        .addColumn('payload', t.json, (c) => c.notNull())
        .addColumn('run_at', t.bigint, (c) => c.notNull())
        .addColumn('recur', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', t.bigint)
        .addColumn('last_error', 'text')
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('core_jobs_due').on('core_jobs').columns(['status', 'run_at']).execute();
      await db.schema
        .createTable('core_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('headers', t.json, (c) => c.notNull())
        .addColumn('correlation', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', t.bigint, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('locked_until', t.bigint)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('delivered_at', t.bigint)
        .execute();
      await db.schema.createIndex('core_outbox_due').on('core_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('core_outbox_correlation').on('core_outbox').column('correlation').execute();
      await db.schema
        .createTable('core_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', t.json, (c) => c.notNull())
        .execute();
    },
  },
};

/** A namespace (core's parts, each service) and its migrations, applied in the order of their names. */
export type MigrationSet = readonly [namespace: string, migrations: Record<string, Migration>];

/**
 * Applies every pending migration of these namespaces. On SQLite all of them run in one transaction: the migrator
 * of Kysely runs each statement there on its own (SQLite has no transactional DDL in its eyes), which costs a commit,
 * and with `synchronous=FULL` an fsync, per statement, and leaves a migration cut short by a crash half applied. One
 * transaction makes a fresh start one commit and a crash leave nothing. On PostgreSQL each namespace goes through
 * `Database.migrate` (transactional there, serialised between instances by its lock row, retried on 3F000).
 */
export async function migrateAll(db: Database, sets: readonly MigrationSet[]): Promise<void> {
  if (db.dialect !== 'sqlite') {
    for (const [namespace, migrations] of sets) await db.migrate(namespace, migrations);
    return;
  }
  await db.kysely.transaction().execute(async (tx) => {
    const tables = new Set((await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(tx)).rows.map((r) => r.name));
    for (const [namespace, migrations] of sets) {
      try {
        await migrateNamespace(tx, tables, namespace, migrations);
      } catch (err) {
        throw new Error(`migrations of ${namespace} failed: ${(err as Error).message}`, { cause: err });
      }
    }
  });
}

const LOCK_ROW = 'migration_lock';

/** One namespace on SQLite, with the bookkeeping tables Kysely's migrator keeps (so either can run next). */
async function migrateNamespace(tx: Kysely<any>, tables: Set<string>, namespace: string, migrations: Record<string, Migration>): Promise<void> {
  const record = `${namespace}_migrations`;
  const lock = `${namespace}_migrations_lock`;
  if (!tables.has(record)) {
    await tx.schema
      .createTable(record)
      .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
      .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
      .execute();
  }
  if (!tables.has(lock)) {
    await tx.schema
      .createTable(lock)
      .addColumn('id', 'varchar(255)', (c) => c.notNull().primaryKey())
      .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await tx.insertInto(lock).values({ id: LOCK_ROW, is_locked: 0 }).execute();
  }
  const names = Object.keys(migrations).sort();
  const applied = tables.has(record) ? (await tx.selectFrom(record).select('name').execute()).map((r) => r.name as string).sort() : [];
  // The same checks as Kysely's: applied migrations are known, and are the first ones in order.
  applied.forEach((name, i) => {
    if (!(name in migrations)) throw new Error(`corrupted migrations: previously executed migration ${name} is missing`);
    if (names[i] !== name) throw new Error(`corrupted migrations: expected previously executed migration ${name} to be at index ${i} but ${names[i]} was found in its place`);
  });
  for (const name of names.slice(applied.length)) {
    await migrations[name].up(tx);
    await tx.insertInto(record).values({ name, timestamp: new Date().toISOString() }).execute();
  }
}
