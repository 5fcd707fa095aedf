// Storage reads asked together: on PostgreSQL the reads of one turn share one query (an array of paths), so every
// path must come back as itself whatever its characters (quotes, commas, braces, backslashes, NULL as text,
// non-ASCII), absent paths as absent, and a write acknowledged before a read is what the read sees.
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { describe, it } from 'node:test';
import { PhysicalStorage, storageMigrations } from '../../src/services/secrets/storage/physical.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { DATABASES } from '../helpers/runtime.ts';

const AWKWARD = ['plain/a', 'with "quotes"', 'with,comma', '{braces}', 'back\\slash', 'NULL', 'space at end ', 'ünïcødé/日本', "single'quote", ''];

for (const database of DATABASES) {
  describe(`storage reads asked together (${database})`, () => {
    let physical: PhysicalStorage;
    suiteDatabase(database, async (db) => {
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      physical = new PhysicalStorage(db);
    });

    it('answers each path as itself, and absent paths as absent', async () => {
      await physical.writeMany(AWKWARD.map((path, i) => ({ path, value: Buffer.from(`value ${i}`) })));
      const before = physical.batchedQueries;
      const asked = [...AWKWARD, 'absent', 'with "quotes"', 'plain'];
      const answers = await Promise.all(asked.map((p) => physical.get(p)));
      assert.deepEqual(
        answers.map((b) => b?.toString()),
        asked.map((p) => (AWKWARD.includes(p) ? `value ${AWKWARD.indexOf(p)}` : undefined)),
      );
      // PostgreSQL: the thirteen reads of this turn were one query; SQLite reads each path on its own connection.
      assert.equal(physical.batchedQueries - before, database === 'postgres' ? 1 : 0);
    });

    it('answers the other reads of a turn when the database refuses one path (a NUL byte)', async () => {
      const [refused, kept] = await Promise.allSettled([physical.get('nul\u0000path'), physical.get('with,comma')]);
      // PostgreSQL cannot hold a NUL in text and refuses the path; SQLite finds no row.
      if (database === 'postgres') assert.equal(refused.status, 'rejected');
      else assert.deepEqual(refused, { status: 'fulfilled', value: undefined });
      assert.deepEqual(kept.status === 'fulfilled' && kept.value?.toString(), `value ${AWKWARD.indexOf('with,comma')}`);
    });

    it('sees a write acknowledged before the read, and a deletion', async () => {
      await physical.put('plain/a', Buffer.from('changed'));
      assert.equal((await physical.get('plain/a'))?.toString(), 'changed');
      await physical.delete('plain/a');
      const [gone, kept] = await Promise.all([physical.get('plain/a'), physical.get('{braces}')]);
      assert.equal(gone, undefined);
      assert.equal(kept?.toString(), `value ${AWKWARD.indexOf('{braces}')}`);
    });
  });
}
