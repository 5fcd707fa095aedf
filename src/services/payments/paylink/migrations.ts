// Tables of Paylink: tokens (with their expected field-guard values sealed under the master key), the timeline of
// each token, and bill-payment attachments (inline or uploaded later to a time-limited address).
import type { Kysely, Migration } from 'kysely';
import { columnTypes, withAutoId } from '../../../core/db/dialect.ts';

export const tables = ['payments_paylink_attachments', 'payments_paylink_events', 'payments_paylink_tokens'];

export const migrations: Record<string, Migration> = {
  paylink_001_initial: {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      // `seq` is the `p.id` that /paylink/token/changes orders and pages by.
      await withAutoId(db, db.schema.createTable('payments_paylink_tokens'), 'seq')
        .addColumn('token', t.text, (c) => c.notNull().unique())
        .addColumn('usc', t.text, (c) => c.notNull().unique())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('identifier', t.text, (c) => c.notNull())
        .addColumn('amount', t.bigint, (c) => c.notNull())
        .addColumn('currency', t.text, (c) => c.notNull())
        .addColumn('state', t.text, (c) => c.notNull())
        .addColumn('paid', t.bool, (c) => c.notNull())
        .addColumn('expires_at', t.bigint)
        .addColumn('request', t.json, (c) => c.notNull())
        .addColumn('bill', t.json)
        .addColumn('guards_enc', t.text)
        .addColumn('payment', t.json)
        .addColumn('payment_attempts', t.bigint, (c) => c.notNull())
        .addColumn('paying_until', t.bigint)
        .addColumn('email_resends', t.bigint, (c) => c.notNull())
        .addColumn('sms_resends', t.bigint, (c) => c.notNull())
        .addColumn('last_sms_at', t.bigint)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_paylink_tokens_changes').on('payments_paylink_tokens').columns(['merchantid', 'updated_at']).execute();

      await withAutoId(db, db.schema.createTable('payments_paylink_events'))
        .addColumn('token_seq', t.bigint, (c) => c.notNull())
        .addColumn('at', t.bigint, (c) => c.notNull())
        .addColumn('state', t.text, (c) => c.notNull())
        .addColumn('message', t.text, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_paylink_events_token').on('payments_paylink_events').columns(['token_seq', 'id']).execute();

      await withAutoId(db, db.schema.createTable('payments_paylink_attachments'))
        .addColumn('token_seq', t.bigint, (c) => c.notNull())
        .addColumn('name', t.text, (c) => c.notNull())
        .addColumn('mime_type', t.text, (c) => c.notNull())
        .addColumn('status', t.text, (c) => c.notNull())
        .addColumn('upload_hash', t.text, (c) => c.unique())
        .addColumn('upload_expires_at', t.bigint)
        .addColumn('data', t.bytes)
        .addColumn('size', t.bigint)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_paylink_attachments_token').on('payments_paylink_attachments').columns(['token_seq']).execute();
    },
  },
  paylink_002_custom_values: {
    // What the payer entered for the merchant's custom parameters, kept for the postback of the final result.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payments_paylink_tokens').addColumn('custom_values', columnTypes(db).json).execute();
    },
  },
};
