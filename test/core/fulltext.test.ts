// The full-text helper: same matches on SQLite and PostgreSQL, field-scoped terms and phrases, ranking, replacement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../../src/core/db/index.ts';
import {
  createFullTextIndex,
  foldText,
  foldWords,
  fullTextMatch,
  indexFullTextDocuments,
  removeFullTextDocuments,
  type FullTextIndex,
  type FullTextTerm,
} from '../../src/core/db/fulltext.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const INDEX: FullTextIndex = { name: 'ft_docs', fields: ['title', 'author', 'tags'], weights: [4, 2, 1] };

const DOCS = [
  { id: 1, fields: { title: 'Moby-Dick; or, The Whale', author: 'Herman Melville', tags: 'Whaling; Sea stories' } },
  { id: 2, fields: { title: "Alice's Adventures in Wonderland", author: 'Lewis Carroll', tags: 'Fantasy' } },
  { id: 3, fields: { title: 'Les Misérables', author: 'Victor Hugo', tags: 'Historical fiction; whale oil' } },
  { id: 4, fields: { title: 'The White Whale Hunt', author: 'Anonymous', tags: undefined } },
  { id: 5, fields: { title: 'Sea stories for children', author: 'Whale Society', tags: 'Children' } },
];

describe('text folding', () => {
  it('folds case, diacritics and punctuation', () => {
    assert.equal(foldText('  Les Misérables — Tome I! '), 'les miserables tome i');
    assert.deepEqual(foldWords("Alice's"), ['alice', 's']);
    assert.deepEqual(foldWords('¡¿…?!'), []);
  });

  it('is idempotent and yields only letters, digits and single spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const once = foldText(s);
        assert.equal(foldText(once), once);
        assert.ok(!/\s\s|^\s|\s$/.test(once));
        assert.ok(/^[\p{L}\p{N} ]*$/u.test(once));
      }),
    );
  });
});

for (const kind of DATABASES) {
  describe(`full-text index (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      await createFullTextIndex(db.kysely, INDEX);
      await db.write((tx) => indexFullTextDocuments(tx, INDEX, DOCS));
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    const search = async (terms: FullTextTerm[]) => {
      const match = fullTextMatch(db.kysely, INDEX, terms);
      if (!match) return [];
      const rows = await db.heavyRead(db.kysely.selectFrom(match.as('m')).select(['m.doc_id', 'm.score']).orderBy('m.score', 'desc').orderBy('m.doc_id'));
      return rows.map((r) => Number(r.doc_id));
    };

    it('matches every term, in any field, without diacritics or case', async () => {
      assert.deepEqual((await search([{ text: 'WHALE' }])).sort(), [1, 3, 4, 5]);
      assert.deepEqual(await search([{ text: 'miserables' }]), [3]);
      assert.deepEqual(await search([{ text: 'whale' }, { text: 'sea' }]).then((r) => r.sort()), [1, 5]);
      assert.deepEqual(await search([{ text: 'whale' }, { text: 'nowhere' }]), []);
    });

    it('scopes a term to one field', async () => {
      assert.deepEqual((await search([{ text: 'whale', field: 'title' }])).sort(), [1, 4]);
      assert.deepEqual(await search([{ text: 'whale', field: 'author' }]), [5]);
      assert.deepEqual(await search([{ text: 'melville', field: 'title' }]), []);
    });

    it('matches a phrase only in order', async () => {
      assert.deepEqual(await search([{ text: 'white whale' }]), [4]);
      assert.deepEqual(await search([{ text: 'whale white' }]), []);
      assert.deepEqual(await search([{ text: 'sea stories', field: 'tags' }]), [1]);
      // Doc 1 ends its author with "melville" and starts its tags with "whaling": no phrase across the two.
      assert.deepEqual(await search([{ text: 'melville whaling' }]), []);
    });

    it('ranks a match in a heavier field first', async () => {
      const ranked = await search([{ text: 'whale' }]);
      assert.ok(ranked.indexOf(4) < ranked.indexOf(3), `title match before tag match: ${ranked}`);
      assert.ok(ranked.indexOf(1) < ranked.indexOf(5), `title match before author match: ${ranked}`);
    });

    it('matches nothing for a query without words', () => {
      assert.equal(fullTextMatch(db.kysely, INDEX, [{ text: '?!' }]), undefined);
      assert.throws(() => fullTextMatch(db.kysely, INDEX, [{ text: 'x', field: 'nope' }]));
    });

    it('replaces and removes documents inside a unit of work', async () => {
      await db.write((tx) => indexFullTextDocuments(tx, INDEX, [{ id: 2, fields: { title: 'Through the Looking-Glass', author: 'Lewis Carroll' } }]));
      assert.deepEqual(await search([{ text: 'wonderland' }]), []);
      assert.deepEqual(await search([{ text: 'looking glass' }]), [2]);
      await db.write((tx) => removeFullTextDocuments(tx, INDEX, [2]));
      assert.deepEqual(await search([{ text: 'carroll' }]), []);
      const n = await sql<{ n: number }>`select count(*) as n from ft_docs`.execute(db.kysely);
      assert.equal(Number(n.rows[0].n), 4);
    });

    it('matches what a word-by-word reading of the fields matches, phrases never spanning two fields', async () => {
      const word = fc.constantFrom('ab', 'cd', 'Ef', 'gé', 'ÇA', 'ж', '7');
      const text = fc.array(word, { maxLength: 5 }).chain((ws) => fc.constantFrom(' ', ', ', '-', '; ').map((sep) => ws.join(sep)));
      const doc = fc.record({ title: text, author: text, tags: text });
      const term = fc.record({ text: fc.array(word, { minLength: 1, maxLength: 2 }).map((ws) => ws.join(' ')), field: fc.constantFrom(undefined, ...INDEX.fields) });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 8 }), fc.array(term, { minLength: 1, maxLength: 2 }), async (docs, terms) => {
          const base = 100_000 + 100 * run++;
          const ids = docs.map((_, i) => base + i);
          await db.write((tx) => indexFullTextDocuments(tx, INDEX, docs.map((fields, i) => ({ id: ids[i], fields }))));
          try {
            const holds = (fieldText: string, words: string[]) => {
              const have = foldWords(fieldText);
              return have.some((_, at) => words.every((w, k) => have[at + k] === w));
            };
            const expected = ids.filter((_, i) =>
              terms.every((t) => (t.field ? [t.field] : INDEX.fields).some((f) => holds((docs[i] as Record<string, string>)[f], foldWords(t.text)))),
            );
            const found = (await search(terms)).filter((id) => id >= base && id < base + 100).sort((a, b) => a - b);
            assert.deepEqual(found, expected);
          } finally {
            await db.write((tx) => removeFullTextDocuments(tx, INDEX, ids));
          }
        }),
        { numRuns: 60 },
      );
    });

    it('indexes thousands of documents in one unit', async () => {
      const many = Array.from({ length: 3000 }, (_, i) => ({ id: 1000 + i, fields: { title: `volume ${i} of the bulk`, author: i % 2 ? 'odd' : 'even' } }));
      await db.write((tx) => indexFullTextDocuments(tx, INDEX, many));
      assert.equal((await search([{ text: 'bulk' }, { text: 'odd', field: 'author' }])).length, 1500);
    });
  });
}
