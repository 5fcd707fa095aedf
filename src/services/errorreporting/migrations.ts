// Tables of the error reporting service. Times are epoch milliseconds; queried fields are real, indexed columns.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, withAutoId } from '../../core/db/dialect.ts';

export const TABLES = ['errorreporting_events', 'errorreporting_groups', 'errorreporting_log', 'errorreporting_log_buckets'];

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      // Every accepted report, whether or not it was analysed (the "log" of spec A4).
      await withAutoId(db, db.schema.createTable('errorreporting_log'))
        .addColumn('project_id', t.text, (c) => c.notNull())
        .addColumn('received_at', t.bigint, (c) => c.notNull())
        .addColumn('event_time', t.text, (c) => c.notNull())
        .addColumn('service', t.text, (c) => c.notNull())
        .addColumn('version', t.text)
        .addColumn('message', t.text, (c) => c.notNull())
        .addColumn('context', t.json)
        .addColumn('analysed', t.bool, (c) => c.notNull())
        .addColumn('group_id', t.text)
        .execute();
      await db.schema.createIndex('errorreporting_log_project').on('errorreporting_log').columns(['project_id', 'id']).execute();

      await db.schema
        .createTable('errorreporting_groups')
        .addColumn('project_id', t.text, (c) => c.notNull())
        .addColumn('group_id', t.text, (c) => c.notNull())
        .addColumn('service', t.text, (c) => c.notNull())
        .addColumn('exception_type', t.text, (c) => c.notNull())
        .addColumn('resolution_status', t.text, (c) => c.notNull())
        .addColumn('tracking_issues', t.json, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('errorreporting_groups_pk', ['project_id', 'group_id'])
        .execute();

      // Analysed events: what groupStats and events.list read.
      await withAutoId(db, db.schema.createTable('errorreporting_events'))
        .addColumn('project_id', t.text, (c) => c.notNull())
        .addColumn('group_id', t.text, (c) => c.notNull())
        .addColumn('event_time', t.bigint, (c) => c.notNull())
        .addColumn('event_time_text', t.text, (c) => c.notNull())
        .addColumn('received_at', t.bigint, (c) => c.notNull())
        .addColumn('service', t.text, (c) => c.notNull())
        .addColumn('version', t.text, (c) => c.notNull())
        .addColumn('user_name', t.text)
        .addColumn('message', t.text, (c) => c.notNull())
        .addColumn('context', t.json)
        .execute();
      await db.schema.createIndex('errorreporting_events_group').on('errorreporting_events').columns(['project_id', 'group_id', 'event_time']).execute();
      await db.schema.createIndex('errorreporting_events_time').on('errorreporting_events').columns(['project_id', 'event_time']).execute();
      await db.schema.createIndex('errorreporting_events_service').on('errorreporting_events').columns(['project_id', 'service', 'event_time']).execute();

      await db.schema
        .createTable('errorreporting_log_buckets')
        .addColumn('project_id', t.text, (c) => c.primaryKey())
        .addColumn('cmek_enabled', t.bool, (c) => c.notNull())
        .addColumn('bucket_project', t.text, (c) => c.notNull())
        .addColumn('routed', t.bool, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .execute();
    },
  },
  '0002_covering_index': {
    // groupStats aggregates a project's events over a time range: an index holding every column it reads spares the
    // table lookups.
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('errorreporting_events_stats')
        .on('errorreporting_events')
        .columns(['project_id', 'event_time', 'group_id', 'user_name', 'service', 'version'])
        .execute();
      // Its leading columns make the plain time index redundant.
      await db.schema.dropIndex('errorreporting_events_time').execute();
    },
  },
  '0003_group_resolved_at': {
    // When a group was marked RESOLVED: an event dated before it does not reopen the group.
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema.alterTable('errorreporting_groups').addColumn('resolved_at', t.bigint).execute();
      // Groups resolved before this column existed: their last update is the best known resolution time.
      await db.updateTable('errorreporting_groups').set({ resolved_at: sql`updated_at` }).where('resolution_status', '=', 'RESOLVED').execute();
    },
  },
};
