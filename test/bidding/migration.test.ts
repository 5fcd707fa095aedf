// Data stored before the stage counts existed (migration 001 only) is counted into them by migration 002.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { bulkInsert } from '../../src/core/db/bulk.ts';
import { openDatabase, type Database } from '../../src/core/db/index.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { COUNTER_COLUMNS, DEAL_KEYS, DETAIL_KEYS, ROLLUP_KEYS, rollUp } from '../../src/services/bidding/domain/rollup.ts';
import { STAGE, type Stage } from '../../src/services/bidding/domain/stages.ts';
import { migrations } from '../../src/services/bidding/migrations.ts';
import { BiddingStore } from '../../src/services/bidding/store.ts';
import { DATABASES } from '../helpers/runtime.ts';

const END = Date.parse('2026-01-10T00:00:00Z');
// Events as the first version stored them: outcomes only (their funnel and reasons are the defaults).
const OLD = [...simulate({ bidder: '1000', accounts: ['1000', '1001'], end: END, days: 1, rate: 30, seed: 3 })].map((e) => ({ ...e, funnel: 0, reason: 0, detail: '' }));
const FIRST = Object.fromEntries(Object.entries(migrations).slice(0, 1));

async function storeOldData(db: Database): Promise<void> {
  const { rollup, detail, deals } = rollUp(OLD);
  await db.kysely.transaction().execute(async (tx) => {
    const events = OLD.map((e) => [e.at, e.bidder, e.account, e.format, e.environment, e.platform, e.creative, e.deal, e.outcomes]);
    await bulkInsert(tx, 'bidding_events', ['at', 'bidder', 'account', 'format', 'environment', 'platform', 'creative', 'deal', 'outcomes'], events);
    await bulkInsert(tx, 'bidding_rollup', [...ROLLUP_KEYS, ...COUNTER_COLUMNS], rollup);
    await bulkInsert(tx, 'bidding_rollup_detail', [...DETAIL_KEYS, ...COUNTER_COLUMNS], detail);
    await bulkInsert(tx, 'bidding_rollup_deal', [...DEAL_KEYS, ...COUNTER_COLUMNS], deals);
  });
}

const has = (e: (typeof OLD)[number], bit: number) => (e.outcomes & (1 << bit)) !== 0;

for (const database of DATABASES) {
  describe(`bidding migration 002 (${database})`, () => {
    let db: Database;
    let dir: string;
    let schema: string | undefined;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'twinstack-bidding-migration-'));
      let url = join(dir, 'test.db');
      if (database === 'postgres') {
        schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
        const u = new URL(process.env.TWINSTACK_TEST_DATABASE_URL!);
        u.searchParams.set('schema', schema);
        url = u.toString();
      }
      db = await openDatabase(url);
      await db.migrate('bidding', FIRST);
      await storeOldData(db);
      await db.migrate('bidding', migrations);
    });
    after(async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    });

    it('counts earlier events into every stage with the default reasons, at both levels and with creative filters', async () => {
      const store = new BiddingStore(db);
      const all = { bidder: '1000', start: END - 2 * 86_400_000, end: END };
      const sum = async (filter: typeof all & { account?: string; creative?: string }, stage: Stage) =>
        (await store.outcomeCounts(filter, { stages: [stage], by: 'reason' })).reduce((s, c) => s + c.n, 0);
      const expected: Array<[Stage, (e: (typeof OLD)[number]) => boolean]> = [
        [STAGE.noBid, (e) => !has(e, 0)],
        [STAGE.bidFiltered, (e) => has(e, 0) && !has(e, 1)],
        [STAGE.bidLost, (e) => has(e, 1) && !has(e, 2)],
        [STAGE.wonNotBilled, (e) => has(e, 2) && !has(e, 3)],
        [STAGE.wonBilled, (e) => has(e, 3)],
      ];
      for (const [stage, test] of expected) {
        assert.equal(await sum(all, stage), OLD.filter(test).length, `stage ${stage}`);
        assert.equal(await sum({ ...all, account: '1001' }, stage), OLD.filter((e) => e.account === '1001' && test(e)).length);
        assert.equal(await sum({ ...all, account: '1001', creative: '1001-cr2' }, stage), OLD.filter((e) => e.creative === '1001-cr2' && test(e)).length);
      }
      for (const stage of [STAGE.notMatched, STAGE.requestFiltered, STAGE.responseError]) assert.equal(await sum(all, stage), 0);
      const reasons = await store.outcomeCounts(all, { stages: [STAGE.bidLost], by: 'reason' });
      assert.deepEqual([...new Set(reasons.map((r) => r.key))], [79]);
    });

    it('fills the narrow aggregates of migration 003: funnel counters and filtered bids per creative', async () => {
      const store = new BiddingStore(db);
      const all = { bidder: '1000', start: END - 2 * 86_400_000, end: END };
      const funnel = (await store.funnelCounts({ ...all, account: '1001' })).reduce((s, c) => s.map((n, i) => n + c.values[i]), [0, 0, 0, 0, 0]);
      const mine = OLD.filter((e) => e.account === '1001');
      // Earlier events all matched, were sent and answered; those with a bid count in the last counter.
      assert.deepEqual(funnel, [mine.length, mine.length, mine.length, mine.length, mine.filter((e) => has(e, 0)).length]);
      const creatives = await store.outcomeCounts(all, { stages: [STAGE.bidFiltered], reason: 3, by: 'creative' });
      const counted: Record<string, number> = {};
      for (const c of creatives) counted[c.key] = (counted[c.key] ?? 0) + c.n;
      const expected: Record<string, number> = {};
      for (const e of OLD.filter((x) => has(x, 0) && !has(x, 1))) expected[e.creative] = (expected[e.creative] ?? 0) + 1;
      assert.deepEqual(counted, expected);
    });
  });
}
