// Tables of the calendar service. Times are epoch milliseconds; what list and sync query are real, indexed columns,
// the rest of a calendar or an event is one JSON document.
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from '../../core/db/dialect.ts';

export const TABLES = ['calendar_list_changes', 'calendar_list_heads', 'calendar_series_shapes', 'calendar_list_entries', 'calendar_events', 'calendar_acl', 'calendar_calendars'];

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('calendar_calendars')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('owner_id', t.text, (c) => c.notNull())
        .addColumn('is_primary', t.bool, (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        // Every event change in the calendar takes the next number: sync tokens and event ETags are built on it.
        .addColumn('change_seq', t.bigint, (c) => c.notNull())
        // Sync tokens older than this number are refused (calendars.clear raises it).
        .addColumn('sync_floor', t.bigint, (c) => c.notNull())
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('calendar_calendars_owner').on('calendar_calendars').columns(['owner_id']).execute();

      await db.schema
        .createTable('calendar_acl')
        .addColumn('calendar_id', t.text, (c) => c.notNull())
        .addColumn('scope_type', t.text, (c) => c.notNull())
        .addColumn('scope_value', t.text, (c) => c.notNull())
        .addColumn('role', t.text, (c) => c.notNull())
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_acl_pk', ['calendar_id', 'scope_type', 'scope_value'])
        .execute();
      await db.schema.createIndex('calendar_acl_scope').on('calendar_acl').columns(['scope_value']).execute();

      await db.schema
        .createTable('calendar_events')
        .addColumn('calendar_id', t.text, (c) => c.notNull())
        .addColumn('event_id', t.text, (c) => c.notNull())
        .addColumn('ical_uid', t.text, (c) => c.notNull())
        .addColumn('status', t.text, (c) => c.notNull())
        .addColumn('event_type', t.text, (c) => c.notNull())
        // 1 for the master of a recurring series.
        .addColumn('recurring', t.bool, (c) => c.notNull())
        // Set on an exception (a modified or cancelled instance): the series it belongs to and its original start.
        .addColumn('recurring_event_id', t.text)
        .addColumn('original_start_ms', t.bigint)
        // Single event: its span. Series: first start and the end of its last instance (far future when open-ended).
        .addColumn('start_ms', t.bigint, (c) => c.notNull())
        .addColumn('end_ms', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addColumn('change_seq', t.bigint, (c) => c.notNull())
        .addColumn('search', t.text, (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_events_pk', ['calendar_id', 'event_id'])
        .execute();
      await db.schema.createIndex('calendar_events_span').on('calendar_events').columns(['calendar_id', 'recurring', 'start_ms']).execute();
      await db.schema.createIndex('calendar_events_changes').on('calendar_events').columns(['calendar_id', 'change_seq']).execute();
      await db.schema.createIndex('calendar_events_uid').on('calendar_events').columns(['calendar_id', 'ical_uid']).execute();
      await db.schema.createIndex('calendar_events_series').on('calendar_events').columns(['calendar_id', 'recurring_event_id', 'original_start_ms']).execute();
      await db.schema.createIndex('calendar_events_updated').on('calendar_events').columns(['calendar_id', 'updated_at']).execute();
    },
  },
  // The longest single event of a calendar bounds how far before a window an overlapping event can start, so window
  // queries scan a narrow range of the start index.
  '0002_longest_event': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('calendar_calendars').addColumn('longest_ms', columnTypes(db).bigint, (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // A user's own settings of a calendar on their list (colours, name, hidden, reminders...) and whether they removed
  // it; the list itself stays derived from ownership and the ACL.
  '0003_list_entries': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('calendar_list_entries')
        .addColumn('principal_id', t.text, (c) => c.notNull())
        .addColumn('calendar_id', t.text, (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('removed', t.bool, (c) => c.notNull())
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_list_entries_pk', ['principal_id', 'calendar_id'])
        .execute();
      await db.schema.createIndex('calendar_list_entries_calendar').on('calendar_list_entries').columns(['calendar_id']).execute();
    },
  },
  // The earlier shapes (recurrence, start, end) of reshaped series: a singleEvents sync from a token older than a
  // change answers the instances of the shape the client read that the event no longer has, as cancelled.
  '0004_series_shapes': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('calendar_series_shapes')
        .addColumn('calendar_id', t.text, (c) => c.notNull())
        .addColumn('event_id', t.text, (c) => c.notNull())
        // The change number that replaced this shape: it was the event's shape at every earlier change number.
        .addColumn('until_seq', t.bigint, (c) => c.notNull())
        .addColumn('shape', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_series_shapes_pk', ['calendar_id', 'event_id', 'until_seq'])
        .execute();
    },
  },
  // Incremental sync of the ACL and of each user's calendar list. A deleted ACL rule stays as a tombstone (role
  // `none`) with the calendar's change number of its last change. A user's calendar list changes are logged per
  // calendar under the user's own counter: the list is derived, so an entry that left it (a lost share, a deleted
  // calendar) has nowhere else to be remembered.
  '0005_acl_and_list_sync': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema.alterTable('calendar_acl').addColumn('deleted', t.bool, (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('calendar_acl').addColumn('change_seq', t.bigint, (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('calendar_list_heads')
        .addColumn('email', t.text, (c) => c.primaryKey())
        .addColumn('seq', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('calendar_list_changes')
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('calendar_id', t.text, (c) => c.notNull())
        // The user's change number of the calendar's last change on their list.
        .addColumn('seq', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_list_changes_pk', ['email', 'calendar_id'])
        .execute();
      await db.schema.createIndex('calendar_list_changes_seq').on('calendar_list_changes').columns(['email', 'seq']).execute();
    },
  },
  // Calendars seen through a public (`default`) or domain rule are on a user's list only once they add them with
  // calendarList.insert: the mark keeps them there while a rule lets the user see them.
  '0006_list_added': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('calendar_list_entries').addColumn('added', columnTypes(db).bool, (c) => c.notNull().defaultTo(0)).execute();
    },
  },
};
