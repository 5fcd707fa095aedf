// Filter sets stored as submitted (before migration 005) are rewritten to the API's output form.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/core/db/index.ts';
import { migrations } from '../../src/services/bidding/migrations.ts';
import { BiddingStore } from '../../src/services/bidding/store.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';
import { DATABASES } from '../helpers/runtime.ts';

const BEFORE_005 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '005'));

for (const database of DATABASES) {
  describe(`bidding migration 005: filter sets in their output form (${database})`, () => {
    let handle: TestDatabase;
    let db: Database;
    before(async () => {
      handle = testDatabase(database);
      db = await handle.open();
      await db.migrate('bidding', BEFORE_005);
    });
    after(async () => {
      await db.close();
      await handle.dispose();
    });

    it('leaves out nulls, writes int32 values as numbers and dealId as text; a set already in that form is unchanged', async () => {
      const store = new BiddingStore(db);
      const submitted = { name: 'bidders/1/filterSets/old', format: null, relativeDateRange: { durationDays: '3', offsetDays: 1 }, dealId: 90002, sellerNetworkIds: ['7'] };
      const clean = { name: 'bidders/1/filterSets/clean', relativeDateRange: { durationDays: 3 } };
      for (const body of [submitted, clean]) {
        await store.insertFilterSet({ name: body.name, owner: 'bidders/1', body, transient: false, expiresAt: null, createdAt: 0 });
      }
      await db.migrate('bidding', migrations);
      const bodies = await db.kysely.selectFrom('bidding_filter_sets').select(['name', 'body']).orderBy('name').execute();
      assert.deepEqual(
        bodies.map((r) => [r.name, JSON.parse(r.body)]),
        [
          [clean.name, clean],
          [submitted.name, { name: submitted.name, relativeDateRange: { durationDays: 3, offsetDays: 1 }, dealId: '90002', sellerNetworkIds: [7] }],
        ],
      );
    });
  });
}
