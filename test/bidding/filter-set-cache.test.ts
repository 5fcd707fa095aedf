// The store's filter-set cache (SQLite only): a cached transient set still ends at its expiry, a deleted name is
// gone at once, and a name created again answers its new body. On PostgreSQL the same reads go to the table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BiddingStore } from '../../src/services/bidding/store.ts';
import { migrations } from '../../src/services/bidding/migrations.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { DATABASES } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const NAME = 'bidders/1000/filterSets/cached';

for (const kind of DATABASES) {
  describe(`bidding filter-set reads (${kind})`, () => {
    const suite = suiteDatabase(kind, (db) => db.migrate('bidding', migrations));
    const store = () => new BiddingStore(suite.db);
    const insert = (s: BiddingStore, body: Record<string, unknown>, expiresAt: number | null) =>
      s.insertFilterSet({ name: NAME, owner: 'bidders/1000', body, transient: expiresAt !== null, expiresAt, createdAt: NOW });

    it('ends a transient filter set at its expiry even after it was read', async () => {
      const s = store();
      await insert(s, { n: 1 }, NOW + 60_000);
      assert.deepEqual((await s.getFilterSet(NAME, NOW))?.body, { n: 1 });
      assert.deepEqual((await s.getFilterSet(NAME, NOW + 59_999))?.body, { n: 1 });
      assert.equal(await s.getFilterSet(NAME, NOW + 60_000), undefined);
      assert.equal(await s.deleteExpired(NAME, NOW + 60_000), true);
    });

    it('forgets a deleted name at once and answers a name created again with its new body', async () => {
      const s = store();
      await insert(s, { n: 1 }, null);
      assert.deepEqual((await s.getFilterSet(NAME, NOW))?.body, { n: 1 });
      assert.equal(await s.deleteFilterSet(NAME), true);
      assert.equal(await s.getFilterSet(NAME, NOW), undefined);
      await insert(s, { n: 2 }, null);
      assert.deepEqual((await s.getFilterSet(NAME, NOW))?.body, { n: 2 });
      await s.deleteFilterSet(NAME);
    });

    it('answers what the table holds after it changed behind the store, once told to forget', async () => {
      const s = store();
      await insert(s, { n: 1 }, null);
      assert.deepEqual((await s.getFilterSet(NAME, NOW))?.body, { n: 1 });
      await suite.db.kysely.deleteFrom('bidding_filter_sets').execute();
      s.forgetCache();
      assert.equal(await s.getFilterSet(NAME, NOW), undefined);
    });

    it('shares a read filter set, frozen, on SQLite; reads the table every time on PostgreSQL', async () => {
      const s = store();
      await insert(s, { nested: { n: 1 } }, null);
      const first = await s.getFilterSet(NAME, NOW);
      const second = await s.getFilterSet(NAME, NOW);
      assert.deepEqual(second, first);
      if (kind === 'sqlite') {
        assert.equal(second, first);
        assert.ok(Object.isFrozen(first!.body.nested));
      } else assert.notEqual(second, first);
      await s.deleteFilterSet(NAME);
    });
  });
}
