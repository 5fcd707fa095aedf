// `-term` in q: volumes matching the term are left out (free words, phrases, field keywords and look-ups), in
// volumes.list and in a search of a shelf, through HTTP and the googleapis Books client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { parseVolumeQuery } from '../../src/services/books/domain/query.ts';
import { DEV_API_KEY, bearer, booksClient, createUser, findVolumeId, startBooks } from './helpers.ts';

describe('a q term led by -', () => {
  it('is an exclusion; a hyphen inside a word is not', () => {
    assert.deepEqual(parseVolumeQuery('football -soccer -intitle:"world cup" -isbn:978-0-14-032872-1 saint-exupery'), {
      terms: [{ text: 'football' }, { text: 'saint-exupery' }],
      lookups: [],
      excluded: { terms: [{ text: 'soccer' }, { text: 'world cup', field: 'title' }], lookups: [{ kind: 'isbn', value: '9780140328721' }] },
    });
    assert.deepEqual(parseVolumeQuery('whale+-moby'), { terms: [{ text: 'whale' }], lookups: [], excluded: { terms: [{ text: 'moby' }], lookups: [] } });
    assert.deepEqual(parseVolumeQuery('whale -'), { terms: [{ text: 'whale' }, { text: '-' }], lookups: [], excluded: { terms: [], lookups: [] } }, 'a lone - is text');
  });
});

for (const database of DATABASES) {
  describe(`books q exclusions (${database})`, () => {
    let t: TestRuntime;
    const ids = async (q: string, headers: Record<string, string> = {}, path = '/volumes') => {
      const key = headers.authorization ? '' : `&key=${DEV_API_KEY}`;
      const res = await call(`${t.url('books')}/books/v1${path}?q=${encodeURIComponent(q)}&maxResults=40${key}`, { headers });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.totalItems, (res.body.items ?? []).length, q);
      return ((res.body.items ?? []) as Array<{ id: string }>).map((v) => v.id).sort();
    };

    before(async () => {
      t = await startBooks(database);
    });
    after(async () => t.close());

    it('leaves out the volumes an excluded word, phrase or field term matches', async () => {
      const twain = await ids('inauthor:twain');
      // Each exclusion, and the searches whose volumes it must leave out.
      for (const [excluding, ...unwantedQueries] of [
        ['-sawyer', 'inauthor:twain sawyer'],
        ['-intitle:sawyer', 'inauthor:twain intitle:sawyer'],
        ['-"tom sawyer"', 'inauthor:twain "tom sawyer"'],
        ['-intitle:abroad -intitle:detective', 'inauthor:twain intitle:abroad', 'inauthor:twain intitle:detective'],
      ]) {
        const unwanted = (await Promise.all(unwantedQueries.map((q) => ids(q)))).flat();
        assert.ok(unwanted.length > 0 && unwanted.length < twain.length, excluding);
        assert.deepEqual(
          await ids(`inauthor:twain ${excluding}`),
          twain.filter((id) => !unwanted.includes(id)),
          excluding,
        );
      }
      // A hyphen inside a word still joins it: Moby-Dick is found.
      assert.equal((await ids('intitle:moby-dick')).length, 1);
    });

    it('excludes within a shelf search and through the googleapis client', async () => {
      const reader = await createUser(t, 'excluder');
      const moby = await findVolumeId(t, DEV_API_KEY, 'intitle:whale');
      const sawyer = await findVolumeId(t, DEV_API_KEY, 'intitle:"adventures of tom sawyer"');
      for (const id of [moby, sawyer]) {
        const res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves/2/addVolume?volumeId=${id}`, { method: 'POST', headers: bearer(reader.token) });
        assert.equal(res.status, 204);
      }
      assert.deepEqual(await ids('inpublisher:gutenberg -whale', bearer(reader.token), '/mylibrary/bookshelves/2/volumes'), [sawyer]);

      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const { data } = await books.volumes.list({ q: 'intitle:adventures -inauthor:twain', maxResults: 40 });
      assert.ok(data.items?.length);
      assert.ok(data.items.every((v) => !(v.volumeInfo?.authors ?? []).includes('Mark Twain')));
      assert.ok(!data.items.some((v) => v.id === sawyer));
    });
  });
}
