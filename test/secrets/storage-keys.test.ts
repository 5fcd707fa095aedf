// Listing stored paths under a prefix: exactly the paths that start with it, on both databases, whatever characters
// the prefix holds (LIKE wildcards, case, characters of every UTF-8 length). On SQLite the listing is a range of the
// primary key (`prefixUpperBound`), so it reads only its own rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { ENTRIES_TABLE, PhysicalStorage, prefixUpperBound, storageMigrations } from '../../src/services/secrets/storage/physical.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { suiteDatabase } from '../helpers/database.ts';

// Characters that sort next to each other or mean something to LIKE, of one to four UTF-8 bytes.
const ALPHABET = ['a', 'b', 'B', '/', '%', '_', '\\', '\u007f', '\u0080', '\u00ff', '\u07ff', '\u0800', '\uffff', '\u{10000}', '\u{1f600}'];

describe('prefix upper bound', () => {
  it('is the prefix with its last character moved one code point on', () => {
    assert.equal(prefixUpperBound('kv2/meta/'), 'kv2/meta0');
    assert.equal(prefixUpperBound('a\u007f'), 'a\u0080');
    assert.equal(prefixUpperBound('x\u{1f600}'), 'x\u{1f601}');
    assert.equal(prefixUpperBound('x\uffff'), 'x\u{10000}');
  });

  it('is undefined where no successor can be written', () => {
    assert.equal(prefixUpperBound(''), undefined);
    assert.equal(prefixUpperBound('a\u{10ffff}'), undefined);
    assert.equal(prefixUpperBound('a\ud7ff'), undefined, 'the next code point is a surrogate');
    assert.equal(prefixUpperBound('a\ud800'), undefined, 'a lone surrogate is stored as U+FFFD');
  });
});

for (const kind of DATABASES) {
  describe(`stored paths by prefix (${kind})`, () => {
    let storage: PhysicalStorage;
    const suite = suiteDatabase(kind, async (db) => {
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      storage = new PhysicalStorage(db);
    });

    it('lists exactly the paths that start with the prefix', async () => {
      const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 5 }).map((chars) => chars.join(''));
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(text, { minLength: 1, maxLength: 25 }), text, async (paths, prefix) => {
          await suite.db.kysely.deleteFrom(ENTRIES_TABLE).execute();
          for (const path of paths) await storage.put(path, Buffer.from('v'));
          const expected = paths.filter((p) => p.startsWith(prefix)).sort();
          assert.deepEqual((await storage.keys(prefix)).sort(), expected);
        }),
        { numRuns: 60 },
      );
    });
  });
}
