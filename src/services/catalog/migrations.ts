// Tables of the merchant catalog. Most resources share one generic table keyed by (merchant, resource, id) holding the
// JSON document; accounts, products and the counters that lists filter, sort or aggregate have real columns.
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from '../../core/db/dialect.ts';

export const TABLES = [
  'catalog_performance',
  'catalog_quota_usage',
  'catalog_products',
  'catalog_resources',
  'catalog_account_users',
  'catalog_accounts',
];

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('catalog_accounts')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('aggregator_id', t.text)
        .addColumn('is_mca', t.bool, (c) => c.notNull())
        .addColumn('name', t.text, (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('catalog_accounts_aggregator').on('catalog_accounts').columns(['aggregator_id', 'id']).execute();

      // Who may act on an account: its users[] by e-mail (kept in step with the account document).
      await db.schema
        .createTable('catalog_account_users')
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('account_id', t.text, (c) => c.notNull())
        .addColumn('admin', t.bool, (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_account_users_pk', ['email', 'account_id'])
        .execute();
      await db.schema.createIndex('catalog_account_users_account').on('catalog_account_users').columns(['account_id']).execute();

      await db.schema
        .createTable('catalog_resources')
        .addColumn('merchant_id', t.text, (c) => c.notNull())
        .addColumn('resource', t.text, (c) => c.notNull())
        .addColumn('id', t.text, (c) => c.notNull())
        .addColumn('state', t.text)
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_resources_pk', ['merchant_id', 'resource', 'id'])
        .execute();
      // Lists that filter on a state (conversion sources, label assignments) and reverse lookups by resource.
      await db.schema.createIndex('catalog_resources_state').on('catalog_resources').columns(['resource', 'state']).execute();

      await db.schema
        .createTable('catalog_products')
        .addColumn('merchant_id', t.text, (c) => c.notNull())
        .addColumn('id', t.text, (c) => c.notNull())
        .addColumn('offer_id', t.text, (c) => c.notNull())
        .addColumn('channel', t.text, (c) => c.notNull())
        .addColumn('content_language', t.text, (c) => c.notNull())
        .addColumn('feed_label', t.text, (c) => c.notNull())
        .addColumn('feed_id', t.text)
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('status', t.json, (c) => c.notNull())
        .addColumn('approved', t.bool, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_products_pk', ['merchant_id', 'id'])
        .execute();
      await db.schema.createIndex('catalog_products_offer').on('catalog_products').columns(['merchant_id', 'offer_id']).execute();
      await db.schema.createIndex('catalog_products_feed').on('catalog_products').columns(['merchant_id', 'feed_id']).execute();

      await db.schema
        .createTable('catalog_quota_usage')
        .addColumn('merchant_id', t.text, (c) => c.notNull())
        .addColumn('day', t.text, (c) => c.notNull())
        .addColumn('method', t.text, (c) => c.notNull())
        .addColumn('calls', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_quota_usage_pk', ['merchant_id', 'day', 'method'])
        .execute();

      await db.schema
        .createTable('catalog_performance')
        .addColumn('merchant_id', t.text, (c) => c.notNull())
        .addColumn('product_id', t.text, (c) => c.notNull())
        .addColumn('day', t.text, (c) => c.notNull())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_performance_pk', ['merchant_id', 'product_id', 'day'])
        .execute();
      await db.schema.createIndex('catalog_performance_day').on('catalog_performance').columns(['merchant_id', 'day']).execute();
    },
  },
  '0002_local_inventory': {
    // How many stores report the product in stock: local destinations serve only with local inventory.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('catalog_products').addColumn('local_stores', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
};
