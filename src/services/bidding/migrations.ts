// Tables of the bidding service: filter sets, the raw bid events, and the three hourly aggregates built from them.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, dialectOf, withAutoId } from '../../core/db/dialect.ts';

const counters = (t: any) =>
  t
    .addColumn('bids', 'bigint', (c: any) => c.notNull())
    .addColumn('in_auction', 'bigint', (c: any) => c.notNull())
    .addColumn('won', 'bigint', (c: any) => c.notNull())
    .addColumn('billed', 'bigint', (c: any) => c.notNull())
    .addColumn('measurable', 'bigint', (c: any) => c.notNull())
    .addColumn('viewable', 'bigint', (c: any) => c.notNull());

export const migrations: Record<string, Migration> = {
  '001_filter_sets_events_rollups': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      // On SQLite the aggregates are clustered on their key: a metrics query reads one contiguous range of the
      // primary key and finds the counters there, without a second lookup per row.
      const clustered = (table: any) => (dialectOf(db) === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table);
      await withAutoId(db, db.schema.createTable('bidding_filter_sets'))
        .addColumn('name', t.text, (c) => c.notNull().unique())
        .addColumn('owner', t.text, (c) => c.notNull())
        .addColumn('body', t.json, (c) => c.notNull())
        .addColumn('transient', t.bool, (c) => c.notNull())
        .addColumn('expires_at', t.bigint)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bidding_filter_sets_owner').on('bidding_filter_sets').columns(['owner', 'id']).execute();

      // Append-only record of every accepted event; `outcomes` holds one bit per outcome (see domain/events.ts).
      await db.schema
        .createTable('bidding_events')
        .addColumn('at', t.bigint, (c) => c.notNull())
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull())
        .addColumn('creative', t.text, (c) => c.notNull())
        .addColumn('deal', t.text, (c) => c.notNull())
        .addColumn('outcomes', 'integer', (c) => c.notNull())
        .execute();

      const rollup = db.schema
        .createTable('bidding_rollup')
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('hour', t.bigint, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull());
      await clustered(counters(rollup).addPrimaryKeyConstraint('bidding_rollup_pk', ['bidder', 'hour', 'account', 'format', 'environment', 'platform'])).execute();

      const detail = db.schema
        .createTable('bidding_rollup_detail')
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('creative', t.text, (c) => c.notNull())
        .addColumn('deal', t.text, (c) => c.notNull())
        .addColumn('hour', t.bigint, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull());
      // Creative filters read one range (bidder, account, creative, hours); deal filters alone read bidding_rollup_deal.
      const detailKey = ['bidder', 'account', 'creative', 'hour', 'deal', 'format', 'environment', 'platform'];
      await clustered(counters(detail).addPrimaryKeyConstraint('bidding_rollup_detail_pk', detailKey)).execute();

      const deal = db.schema
        .createTable('bidding_rollup_deal')
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('deal', t.text, (c) => c.notNull())
        .addColumn('hour', t.bigint, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull());
      const dealKey = ['bidder', 'account', 'deal', 'hour', 'format', 'environment', 'platform'];
      await clustered(counters(deal).addPrimaryKeyConstraint('bidding_rollup_deal_pk', dealKey)).execute();
    },
  },
};

export const TABLES = ['bidding_filter_sets', 'bidding_events', 'bidding_rollup_detail', 'bidding_rollup_deal', 'bidding_rollup'];
