// The gateway core's tables. Times are epoch ms (bigint), documents JSON text, booleans 0/1.
import { type Kysely, type Migration } from 'kysely';
import { columnTypes } from '../../core/db/dialect.ts';

export const CORE_TABLES = [
  'payments_authentications',
  'payments_key_subjects',
  'payments_batches',
  'payments_cards',
  'payments_accounts',
  'payments_duplicates',
  'payments_transactions',
  'payments_nonces',
  'payments_merchants',
];

export const coreMigrations: Record<string, Migration> = {
  '001_gateway_core': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('payments_merchants')
        .addColumn('merchantid', 'integer', (c) => c.primaryKey())
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('name', t.text, (c) => c.notNull())
        .addColumn('currency', t.text, (c) => c.notNull())
        .addColumn('time_zone', t.text, (c) => c.notNull())
        .addColumn('duplicate_window_s', 'integer', (c) => c.notNull())
        .addColumn('policies', t.json, (c) => c.notNull())
        .addColumn('three_d_secure', t.bool, (c) => c.notNull())
        .addColumn('status', t.text, (c) => c.notNull())
        .addColumn('next_transno', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_batch_no', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_merchants_client').on('payments_merchants').column('clientid').execute();

      await db.schema
        .createTable('payments_nonces')
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('nonce', t.text, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_nonces_pk', ['clientid', 'nonce'])
        .execute();
      await db.schema.createIndex('payments_nonces_expiry').on('payments_nonces').column('expires_at').execute();

      await db.schema
        .createTable('payments_transactions')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('merchantid', 'integer', (c) => c.notNull())
        .addColumn('transno', 'integer', (c) => c.notNull())
        .addColumn('identifier', t.text, (c) => c.notNull())
        .addColumn('source', t.text, (c) => c.notNull())
        .addColumn('trans_type', t.text, (c) => c.notNull())
        .addColumn('trans_status', t.text, (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('original_amount', 'integer', (c) => c.notNull())
        .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('currency', t.text, (c) => c.notNull())
        .addColumn('maskedpan', t.text, (c) => c.notNull())
        .addColumn('card', t.json, (c) => c.notNull())
        .addColumn('authcode', t.text, (c) => c.notNull())
        .addColumn('result', 'integer', (c) => c.notNull())
        .addColumn('result_code', t.text, (c) => c.notNull())
        .addColumn('result_message', t.text, (c) => c.notNull())
        .addColumn('checks', t.json, (c) => c.notNull())
        .addColumn('trans_info', t.text)
        .addColumn('batch_no', 'integer')
        .addColumn('refund_ref', 'integer')
        .addColumn('threeds_id', t.text)
        .addColumn('threeds', t.json)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addUniqueConstraint('payments_transactions_transno', ['merchantid', 'transno'])
        .addUniqueConstraint('payments_transactions_threeds', ['threeds_id'])
        .execute();
      await db.schema.createIndex('payments_transactions_identifier').on('payments_transactions').columns(['merchantid', 'identifier']).execute();
      await db.schema.createIndex('payments_transactions_status').on('payments_transactions').columns(['merchantid', 'trans_status']).execute();
      await db.schema.createIndex('payments_transactions_batch').on('payments_transactions').columns(['merchantid', 'batch_no']).execute();

      await db.schema
        .createTable('payments_duplicates')
        .addColumn('merchantid', 'integer', (c) => c.notNull())
        .addColumn('dup_key', t.text, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_duplicates_pk', ['merchantid', 'dup_key'])
        .execute();

      await db.schema
        .createTable('payments_accounts')
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('account_id', t.text, (c) => c.notNull())
        .addColumn('unique_id', t.text, (c) => c.notNull())
        .addColumn('status', t.text, (c) => c.notNull())
        .addColumn('contact', t.json, (c) => c.notNull())
        .addColumn('default_card_id', t.text)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('last_modified', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_accounts_pk', ['clientid', 'account_id'])
        .execute();

      await db.schema
        .createTable('payments_cards')
        .addColumn('card_id', t.text, (c) => c.primaryKey())
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('account_id', t.text, (c) => c.notNull())
        .addColumn('pan_enc', t.text, (c) => c.notNull())
        .addColumn('pan_hash', t.text, (c) => c.notNull())
        .addColumn('maskedpan', t.text, (c) => c.notNull())
        .addColumn('last4', t.text, (c) => c.notNull())
        .addColumn('scheme', t.text, (c) => c.notNull())
        .addColumn('expmonth', 'integer', (c) => c.notNull())
        .addColumn('expyear', 'integer', (c) => c.notNull())
        .addColumn('name_on_card', t.text)
        .addColumn('card_status', t.text, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_cards_account').on('payments_cards').columns(['clientid', 'account_id']).execute();

      await db.schema
        .createTable('payments_batches')
        .addColumn('merchantid', 'integer', (c) => c.notNull())
        .addColumn('batch_no', 'integer', (c) => c.notNull())
        .addColumn('batch_date', t.text, (c) => c.notNull())
        .addColumn('batch_closed', t.bigint, (c) => c.notNull())
        .addColumn('status_code', t.text, (c) => c.notNull())
        .addColumn('currency', t.text, (c) => c.notNull())
        .addColumn('credit_count', 'integer', (c) => c.notNull())
        .addColumn('credit_value', t.bigint, (c) => c.notNull())
        .addColumn('debit_count', 'integer', (c) => c.notNull())
        .addColumn('debit_value', t.bigint, (c) => c.notNull())
        .addColumn('net_amount', t.bigint, (c) => c.notNull())
        .addColumn('total_count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_batches_pk', ['merchantid', 'batch_no'])
        .execute();
      await db.schema.createIndex('payments_batches_date').on('payments_batches').column('batch_date').execute();
    },
  },
  // Cards registered within one millisecond (manual clocks) still list in registration order.
  '002_card_position': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('payments_cards').addColumn('position', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  // Keys issued by /v6/authenticate for a subject (a merchant), and 3-D Secure authentications that belong to no
  // transaction (the direct-post tokenisation flow authenticates the card holder before any authorisation).
  '003_key_subjects_and_authentications': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('payments_key_subjects')
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('nonce', t.text, (c) => c.notNull())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_key_subjects_pk', ['clientid', 'nonce'])
        .execute();
      await db.schema
        .createTable('payments_authentications')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('acs_trans_id', t.text, (c) => c.notNull())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('amount', t.bigint, (c) => c.notNull())
        .addColumn('currency', t.text, (c) => c.notNull())
        .addColumn('maskedpan', t.text, (c) => c.notNull())
        .addColumn('termurl', t.text)
        .addColumn('acs_result', t.text)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('completed_at', t.bigint)
        .execute();
    },
  },
};
