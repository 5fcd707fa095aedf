// `isbn:` finds a volume by its ISBN-10 or by the ISBN-13 made from it, whichever of the two its record lists, in
// volumes.list (terms and exclusions) and through the googleapis Books client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lookupValues } from '../../src/services/books/domain/catalog-volume.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, booksClient, startBooks } from './helpers.ts';

/** One edition listing only its ISBN-10, one listing only its ISBN-13. */
const EDITIONS = [
  { key: '/books/OL2001001M', title: 'The Adventures of Tom Sawyer', authors: [{ name: 'Mark Twain' }], publishers: ['Signet Classics'], isbn_10: ['0451526538'] },
  { key: '/books/OL2001002M', title: 'Le Petit Prince', authors: [{ name: 'Antoine de Saint-Exupéry' }], publishers: ['Gallimard'], isbn_13: ['9782070612758'] },
];

describe('the values an isbn: look-up matches', () => {
  it('are the number and its ISBN-10 or 978 ISBN-13 twin, when its check digit is right', () => {
    assert.deepEqual(lookupValues('isbn', '0451526538'), ['0451526538', '9780451526533']);
    assert.deepEqual(lookupValues('isbn', '9782070612758'), ['9782070612758', '2070612759']);
    assert.deepEqual(lookupValues('isbn', '080442957X'), ['080442957X', '9780804429573']);
    assert.deepEqual(lookupValues('isbn', '0451526539'), ['0451526539'], 'a wrong check digit has no twin');
    assert.deepEqual(lookupValues('isbn', '9791032305690'), ['9791032305690'], '979 ISBN-13s have no ISBN-10');
    assert.deepEqual(lookupValues('lccn', '88012345'), ['88012345']);
  });
});

for (const database of DATABASES) {
  describe(`books isbn: look-ups (${database})`, () => {
    let t: TestRuntime;
    const titles = async (q: string) => {
      const res = await call(`${t.url('books')}/books/v1/volumes?q=${encodeURIComponent(q)}&key=${DEV_API_KEY}`);
      assert.equal(res.status, 200, res.text);
      return ((res.body.items ?? []) as Array<{ volumeInfo: { title: string } }>).map((v) => v.volumeInfo.title);
    };

    before(async () => {
      t = await startBooks(database);
      const res = await call(`${t.adminUrl}/services/books/volumes`, { raw: EDITIONS.map((e) => JSON.stringify(e)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200, res.text);
    });
    after(async () => t.close());

    it('finds a record listing only the ISBN-10 by its ISBN-13, and the reverse', async () => {
      for (const q of ['isbn:0451526538', 'isbn:9780451526533', 'isbn:978-0-451-52653-3', 'sawyer isbn:9780451526533']) {
        assert.deepEqual(await titles(q), ['The Adventures of Tom Sawyer'], q);
      }
      for (const q of ['isbn:9782070612758', 'isbn:2070612759', 'isbn:2-07-061275-9']) {
        assert.deepEqual(await titles(q), ['Le Petit Prince'], q);
      }
      assert.deepEqual(await titles('isbn:9780451526539'), [], 'a wrong check digit finds nothing');
    });

    it('excludes by either spelling', async () => {
      assert.deepEqual(await titles('inpublisher:gallimard -isbn:2070612759'), []);
      assert.deepEqual(await titles('inpublisher:signet -isbn:9780451526533'), []);
      assert.deepEqual(await titles('inpublisher:signet -isbn:2070612759'), ['The Adventures of Tom Sawyer']);
    });

    it('answers the googleapis Books client', async () => {
      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const { data } = await books.volumes.list({ q: 'isbn:9780451526533' });
      assert.equal(data.totalItems, 1);
      assert.deepEqual(data.items?.[0].volumeInfo?.industryIdentifiers?.find((i) => i.type === 'ISBN_10'), { type: 'ISBN_10', identifier: '0451526538' });
    });
  });
}
