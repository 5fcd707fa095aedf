// Tables of the bidding service: filter sets, the raw bid events, and the three hourly aggregates built from them.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, dialectOf, withAutoId } from '../../core/db/dialect.ts';
import { filterSetJson } from './domain/filter-set-json.ts';

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

  '002_funnel_outcomes': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      const clustered = (table: any) => (dialectOf(db) === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table);
      // Zero in the new event columns reads as what every earlier event was: matched, sent, answered, default reason.
      await db.schema.alterTable('bidding_events').addColumn('funnel', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('bidding_events').addColumn('reason', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('bidding_events').addColumn('detail', t.text, (c) => c.notNull().defaultTo('')).execute();

      const outcomes = db.schema
        .createTable('bidding_outcomes')
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('hour', t.bigint, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull())
        .addColumn('stage', 'integer', (c) => c.notNull())
        .addColumn('reason', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull());
      await clustered(outcomes.addPrimaryKeyConstraint('bidding_outcomes_pk', ['bidder', 'hour', 'account', 'format', 'environment', 'platform', 'stage', 'reason'])).execute();

      const details = db.schema
        .createTable('bidding_outcomes_detail')
        .addColumn('bidder', t.text, (c) => c.notNull())
        .addColumn('stage', 'integer', (c) => c.notNull())
        .addColumn('reason', 'integer', (c) => c.notNull())
        .addColumn('hour', t.bigint, (c) => c.notNull())
        .addColumn('account', t.text, (c) => c.notNull())
        .addColumn('creative', t.text, (c) => c.notNull())
        .addColumn('deal', t.text, (c) => c.notNull())
        .addColumn('detail', t.text, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('environment', 'integer', (c) => c.notNull())
        .addColumn('platform', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull());
      await clustered(details.addPrimaryKeyConstraint('bidding_outcomes_detail_pk', ['bidder', 'stage', 'reason', 'hour', 'account', 'creative', 'deal', 'detail', 'format', 'environment', 'platform'])).execute();
      await backfillOutcomes(db);
    },
  },
  '003_narrow_outcomes': { up: createNarrowOutcomes },
  '004_outcomes_by_stage': {
    // Breakdowns of filter sets that filter format, environment or platform read one stage of bidding_outcomes: led by
    // the stage (and covering), the index spares them the rows of every other stage.
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('bidding_outcomes_by_stage')
        .on('bidding_outcomes')
        .columns(['bidder', 'stage', 'hour', 'account', 'format', 'environment', 'platform', 'reason', 'n'])
        .execute();
    },
  },
  // Filter sets were stored as submitted, so one written with nulls or numbers in their other proto3 form was answered
  // so; they are answered in the API's output form now, and the ones stored before are rewritten to it.
  '005_filter_sets_output_form': {
    async up(db: Kysely<any>) {
      const rows = await db.selectFrom('bidding_filter_sets').select(['id', 'body']).execute();
      for (const row of rows) {
        const body = JSON.stringify(filterSetJson(JSON.parse(row.body)));
        if (body !== row.body) await db.updateTable('bidding_filter_sets').set({ body }).where('id', '=', row.id).execute();
      }
    },
  },
};

/**
 * Narrow aggregates for the common queries, so that a month of a large bidder stays a few tens of thousands of rows:
 * the funnel counters per coarse key (impressionMetrics), stage counts without format, environment and platform (the
 * breakdowns of filter sets that filter none of them), and filtered bids per creative and per detail.
 */
async function createNarrowOutcomes(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const clustered = (table: any) => (dialectOf(db) === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table);
  const keyed = (name: string, columns: Array<[string, string]>, counters: string[]) => {
    let table: any = db.schema.createTable(name);
    for (const [column, type] of columns) table = table.addColumn(column, type, (c: any) => c.notNull());
    for (const counter of counters) table = table.addColumn(counter, 'bigint', (c: any) => c.notNull());
    return clustered(table.addPrimaryKeyConstraint(`${name}_pk`, columns.map(([c]) => c))).execute();
  };
  const dims: Array<[string, string]> = [['bidder', t.text], ['hour', t.bigint], ['account', t.text], ['format', 'integer'], ['environment', 'integer'], ['platform', 'integer']];
  await keyed('bidding_funnel', dims, ['available', 'matched', 'requested', 'responded', 'with_bids']);
  await keyed('bidding_outcomes_lean', [['bidder', t.text], ['stage', 'integer'], ['hour', t.bigint], ['account', t.text], ['reason', 'integer']], ['n']);
  for (const by of ['creative', 'detail']) {
    await keyed(`bidding_filtered_by_${by}`, [['bidder', t.text], ['reason', 'integer'], ['hour', t.bigint], ['account', t.text], [by, t.text]], ['n']);
  }
  // Counted from the outcome aggregates (stages frozen as of this migration: 0 not matched ... 4 bid filtered).
  const atLeast = (stage: number) => sql.raw(`sum(case when stage >= ${stage} then n else 0 end)`);
  await sql`insert into bidding_funnel (bidder, hour, account, format, environment, platform, available, matched, requested, responded, with_bids)
    select bidder, hour, account, format, environment, platform, sum(n), ${atLeast(1)}, ${atLeast(2)}, ${atLeast(3)}, ${atLeast(4)}
    from bidding_outcomes group by bidder, hour, account, format, environment, platform`.execute(db);
  await sql`insert into bidding_outcomes_lean (bidder, stage, hour, account, reason, n)
    select bidder, stage, hour, account, reason, sum(n) from bidding_outcomes group by bidder, stage, hour, account, reason`.execute(db);
  for (const by of ['creative', 'detail']) {
    const column = sql.raw(by);
    await sql`insert into ${sql.table(`bidding_filtered_by_${by}`)} (bidder, reason, hour, account, ${column}, n)
      select bidder, reason, hour, account, ${column}, sum(n) from bidding_outcomes_detail where stage = 4 and ${column} <> ''
      group by bidder, reason, hour, account, ${column}`.execute(db);
  }
}

/**
 * Counts the data stored before this migration into the outcome aggregates. Bids and what became of them come from the
 * counters (exact even when raw events were not kept); responses without bids exist only as raw events.
 */
async function backfillOutcomes(db: Kysely<any>): Promise<void> {
  const dims = sql.raw('bidder, hour, account, format, environment, platform');
  // Values frozen as of this migration (domain/stages.ts): stage, its default reason, and the count.
  const bidStages: Array<[number, number, string]> = [
    [4, 3, 'bids - in_auction'],
    [5, 79, 'in_auction - won'],
    [6, 1, 'won - billed'],
    [7, 0, 'billed'],
  ];
  for (const [stage, reason, count] of bidStages) {
    const n = sql.raw(count);
    await sql`insert into bidding_outcomes (bidder, hour, account, format, environment, platform, stage, reason, n)
      select ${dims}, ${sql.lit(stage)}, ${sql.lit(reason)}, ${n} from bidding_rollup where ${n} > 0`.execute(db);
    await sql`insert into bidding_outcomes_detail (bidder, stage, reason, hour, account, creative, deal, detail, format, environment, platform, n)
      select bidder, ${sql.lit(stage)}, ${sql.lit(reason)}, hour, account, creative, deal, '', format, environment, platform, ${n}
      from bidding_rollup_detail where ${n} > 0`.execute(db);
  }
  const hour = sql.raw('(at - at % 3600000)');
  const noBid = sql.lit(3);
  const noBidReason = sql.lit(1);
  await sql`insert into bidding_outcomes (bidder, hour, account, format, environment, platform, stage, reason, n)
    select bidder, ${hour}, account, format, environment, platform, ${noBid}, ${noBidReason}, count(*)
    from bidding_events where outcomes % 2 = 0 group by bidder, ${hour}, account, format, environment, platform`.execute(db);
  await sql`insert into bidding_outcomes_detail (bidder, stage, reason, hour, account, creative, deal, detail, format, environment, platform, n)
    select bidder, ${noBid}, ${noBidReason}, ${hour}, account, creative, deal, '', format, environment, platform, count(*)
    from bidding_events where outcomes % 2 = 0 group by bidder, ${hour}, account, creative, deal, format, environment, platform`.execute(db);
}

export const TABLES = [
  'bidding_filter_sets',
  'bidding_events',
  'bidding_rollup_detail',
  'bidding_rollup_deal',
  'bidding_rollup',
  'bidding_outcomes',
  'bidding_outcomes_detail',
  'bidding_funnel',
  'bidding_outcomes_lean',
  'bidding_filtered_by_creative',
  'bidding_filtered_by_detail',
];
