// The merchant store's cache (SQLite only): a merchant changed or deleted through the store is read anew at once, a
// cleared store reads the table, and read merchants are shared and frozen. On PostgreSQL every read goes to the table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coreMigrations } from '../../src/services/payments/migrations.ts';
import { merchantFromConfig } from '../../src/services/payments/settings.ts';
import { MerchantStore } from '../../src/services/payments/store/merchants.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { DATABASES } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ID = 4242;
const merchant = (name: string, extra: Record<string, unknown> = {}) => merchantFromConfig({ merchantid: ID, clientid: 'client-1', name, ...extra });

for (const kind of DATABASES) {
  describe(`payments merchant reads (${kind})`, () => {
    const suite = suiteDatabase(kind, (db) => db.migrate('payments', coreMigrations));
    const store = () => new MerchantStore(suite.db);

    it('answers a merchant changed through the store with its new configuration at once', async () => {
      const s = store();
      await s.upsert(merchant('First'), NOW);
      assert.equal((await s.get(ID))?.name, 'First');
      await s.upsert(merchant('Second', { status: 'S' }), NOW);
      const read = await s.get(ID);
      assert.deepEqual([read?.name, read?.status], ['Second', 'S']);
      assert.equal(await s.delete(ID), true);
      assert.equal(await s.get(ID), undefined);
    });

    it('keeps a merchant read across its counters moving, which are not part of it', async () => {
      const s = store();
      await s.upsert(merchant('Counted'), NOW);
      const before = await s.get(ID);
      assert.equal(await s.nextTransno(ID), 1);
      assert.equal(await s.nextTransno(ID), 2);
      assert.deepEqual(await s.get(ID), before);
      await s.delete(ID);
    });

    it('answers what the table holds after it changed behind the store, once told to forget', async () => {
      const s = store();
      await s.upsert(merchant('Behind'), NOW);
      assert.equal((await s.get(ID))?.name, 'Behind');
      await suite.db.kysely.deleteFrom('payments_merchants').execute();
      s.forgetCache();
      assert.equal(await s.get(ID), undefined);
    });

    it('shares a read merchant, frozen, on SQLite; reads the table every time on PostgreSQL', async () => {
      const s = store();
      await s.upsert(merchant('Shared'), NOW);
      const first = await s.get(ID);
      const second = await s.get(ID);
      assert.deepEqual(second, first);
      if (kind === 'sqlite') {
        assert.equal(second, first);
        assert.ok(Object.isFrozen(first!.policies));
      } else assert.notEqual(second, first);
      await s.delete(ID);
    });
  });
}
