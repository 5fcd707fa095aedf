// Tables of the bidding service: filter sets, the raw bid events, and the two hourly aggregates built from them.
import type { Kysely, Migration } from 'kysely';
import { columnTypes, withAutoId } from '../../core/db/dialect.ts';

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

      await counters(
        db.schema
          .createTable('bidding_rollup')
          .addColumn('bidder', t.text, (c) => c.notNull())
          .addColumn('hour', t.bigint, (c) => c.notNull())
          .addColumn('account', t.text, (c) => c.notNull())
          .addColumn('format', 'integer', (c) => c.notNull())
          .addColumn('environment', 'integer', (c) => c.notNull())
          .addColumn('platform', 'integer', (c) => c.notNull()),
      )
        .addPrimaryKeyConstraint('bidding_rollup_pk', ['bidder', 'hour', 'account', 'format', 'environment', 'platform'])
        .execute();

      await counters(
        db.schema
          .createTable('bidding_rollup_detail')
          .addColumn('bidder', t.text, (c) => c.notNull())
          .addColumn('account', t.text, (c) => c.notNull())
          .addColumn('creative', t.text, (c) => c.notNull())
          .addColumn('deal', t.text, (c) => c.notNull())
          .addColumn('hour', t.bigint, (c) => c.notNull())
          .addColumn('format', 'integer', (c) => c.notNull())
          .addColumn('environment', 'integer', (c) => c.notNull())
          .addColumn('platform', 'integer', (c) => c.notNull()),
      )
        .addPrimaryKeyConstraint('bidding_rollup_detail_pk', ['bidder', 'account', 'creative', 'deal', 'hour', 'format', 'environment', 'platform'])
        .execute();
      // Deal filters without a creative filter.
      await db.schema.createIndex('bidding_rollup_detail_deal').on('bidding_rollup_detail').columns(['bidder', 'account', 'deal', 'hour']).execute();
    },
  },
};

export const TABLES = ['bidding_filter_sets', 'bidding_events', 'bidding_rollup_detail', 'bidding_rollup'];
