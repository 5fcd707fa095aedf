// Tables that core owns: principals and credentials, durable jobs, the outbox, and runtime settings.
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './db/dialect.ts';

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
