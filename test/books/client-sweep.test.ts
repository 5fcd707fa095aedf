// Every method the book library serves driven through the googleapis Books client, anonymously, with an API key and
// with a reader's OAuth token: the request reaches the route with the client's own parameter names, and each answer
// matches the `Schema$...` type the client declares for it, the inline parts of a volume included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { google, type books_v1 } from 'googleapis';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { clientShapes } from '../helpers/client-shapes.ts';
import { booksClient, createUser, startBooks, type TestUser } from './helpers.ts';

const { assert: assertShape } = clientShapes('books', 'v1');

type Volumes = books_v1.Schema$Volumes;
type Volume = books_v1.Schema$Volume;

/** Reads every page of a volume list through `startIndex` and `maxResults`, checking each page's shape. */
async function allPages(maxResults: number, read: (page: { startIndex: number; maxResults: number }) => Promise<{ data: Volumes }>): Promise<{ items: Volume[]; pages: number }> {
  const items: Volume[] = [];
  let pages = 0;
  for (;;) {
    const { data } = await read({ startIndex: items.length, maxResults });
    assertShape('Volumes', data);
    if (!data.items) return { items, pages };
    items.push(...data.items);
    pages += 1;
    assert.ok(pages <= 50, 'paging does not end');
  }
}

/** One Open Library edition: a catalogue entry, not free, with no download, published before any ebook's release. */
const EDITION = {
  key: '/books/OL7353617M',
  title: 'Fantastic Mr. Fox',
  authors: [{ name: 'Roald Dahl' }],
  publishers: ['Puffin'],
  publish_date: 'October 1, 1988',
  languages: [{ key: '/languages/eng' }],
  isbn_13: ['9780140328721'],
  subjects: ['Adventures'],
  description: { type: '/type/text', value: 'Three farmers against one fox.' },
  covers: [6498519],
  number_of_pages: 96,
};

/** The methods of the resources the service covers, as the client's generated code calls them. */
function clientRoutes(): string[] {
  const require = createRequire(import.meta.url);
  const text = readFileSync(join(dirname(require.resolve('googleapis/package.json')), 'build/src/apis/books/v1.js'), 'utf8');
  const routes = [...text.matchAll(/url: \(rootUrl\s*\+\s*'([^']+)'\)[^\n]*\n\s*method: '(\w+)'/g)].map(([, path, method]) => `${method} ${path}`);
  return routes.filter((r) => /^\w+ \/books\/v1\/(volumes|users\/\{userId\}\/bookshelves|mylibrary)/.test(r)).sort();
}

// Methods of those resources that are outside C3 (docs/books.md, "Not implemented").
const NOT_SERVED = [
  'DELETE /books/v1/mylibrary/annotations/{annotationId}',
  'GET /books/v1/mylibrary/annotations',
  'GET /books/v1/mylibrary/readingpositions/{volumeId}',
  'GET /books/v1/volumes/mybooks',
  'GET /books/v1/volumes/recommended',
  'GET /books/v1/volumes/useruploaded',
  'GET /books/v1/volumes/{volumeId}/associated',
  'GET /books/v1/volumes/{volumeId}/layers/{layerId}',
  'GET /books/v1/volumes/{volumeId}/layers/{layerId}/annotations/{annotationId}',
  'GET /books/v1/volumes/{volumeId}/layers/{layerId}/data',
  'GET /books/v1/volumes/{volumeId}/layers/{layerId}/data/{annotationDataId}',
  'GET /books/v1/volumes/{volumeId}/layersummary',
  'GET /books/v1/volumes/{volumeId}/layersummary/{summaryId}',
  'POST /books/v1/mylibrary/annotations',
  'POST /books/v1/mylibrary/annotations/summary',
  'POST /books/v1/mylibrary/readingpositions/{volumeId}/setPosition',
  'POST /books/v1/volumes/recommended/rate',
  'PUT /books/v1/mylibrary/annotations/{annotationId}',
];

for (const database of DATABASES) {
  describe(`books through the googleapis client (${database})`, () => {
    let t: TestRuntime;
    let reader: TestUser;
    let anonymous: books_v1.Books;
    let keyed: books_v1.Books;
    let oauth: books_v1.Books;
    const clients = () => ({ anonymous, keyed, oauth });

    before(async () => {
      t = await startBooks(database);
      reader = await createUser(t, 'reader');
      const res = await call(`${t.adminUrl}/services/books/volumes`, { raw: `${JSON.stringify(EDITION)}\n`, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200, res.text);
      anonymous = google.books({ version: 'v1', rootUrl: t.url('books') + '/' });
      keyed = booksClient(t, { apiKey: reader.apiKey });
      oauth = booksClient(t, { token: reader.token });
    });
    after(() => t.close());

    const search = async (params: books_v1.Params$Resource$Volumes$List, client = keyed) => {
      const { data } = await client.volumes.list(params);
      assertShape('Volumes', data);
      return data.items ?? [];
    };

    describe('volumes', () => {
      it('list pages through startIndex and maxResults, for every kind of caller', async () => {
        const whole = await search({ q: 'inauthor:twain', maxResults: 40 });
        assert.equal(whole.length, 10);
        for (const [name, client] of Object.entries(clients())) {
          const paged = await allPages(3, (page) => client.volumes.list({ q: 'inauthor:twain', ...page }));
          assert.equal(paged.pages, 4, name);
          assert.deepEqual(
            paged.items.map((v) => v.id),
            whole.map((v) => v.id),
            name,
          );
          assert.equal(paged.items.some((v) => v.userInfo), name === 'oauth', name);
        }
        const { data } = await keyed.volumes.list({ q: 'inauthor:twain', maxResults: 0 });
        assert.deepEqual(data, { kind: 'books#volumes', totalItems: 10 });
      });

      it('list and get in the full and lite projections', async () => {
        for (const client of Object.values(clients())) {
          const [full] = await search({ q: 'intitle:whale', projection: 'full' }, client);
          const [lite] = await search({ q: 'intitle:whale', projection: 'lite' }, client);
          assert.equal(full.id, lite.id);
          assert.ok(full.volumeInfo!.categories && !lite.volumeInfo!.categories);
          assert.ok(full.accessInfo!.viewability && !lite.accessInfo!.viewability);
          for (const projection of ['full', 'lite']) {
            const got = await client.volumes.get({ volumeId: full.id!, projection, country: 'US', partner: 'p', source: 'sweep', includeNonComicsSeries: true, user_library_consistent_read: false });
            assertShape('Volume', got.data);
            assert.deepEqual(got.data, projection === 'full' ? full : lite);
          }
        }
      });

      it('fields trims list and get answers', async () => {
        const { data } = await keyed.volumes.list({ q: 'intitle:whale', fields: 'totalItems,items(id,volumeInfo/title)' });
        assertShape('Volumes', data);
        assert.deepEqual(Object.keys(data).sort(), ['items', 'totalItems']);
        assert.deepEqual(Object.keys(data.items![0]).sort(), ['id', 'volumeInfo']);
        assert.deepEqual(Object.keys(data.items![0].volumeInfo!), ['title']);
        const got = await oauth.volumes.get({ volumeId: data.items![0].id!, fields: 'id,userInfo/isInMyBooks,accessInfo(epub,pdf)' });
        assertShape('Volume', got.data);
        assert.deepEqual(Object.keys(got.data).sort(), ['accessInfo', 'id', 'userInfo']);
      });

      it('filters, orderBy, printType, langRestrict and download', async () => {
        const every = async (params: books_v1.Params$Resource$Volumes$List, check: (v: Volume) => boolean) => {
          const items = await search({ maxResults: 40, ...params });
          assert.ok(items.every(check), JSON.stringify(params));
          return items;
        };
        const byFilter = async (filter: string, check: (v: Volume) => boolean) => (await every({ q: 'adventures', filter }, check)).length;
        const all = (await search({ q: 'adventures', maxResults: 40 })).length;
        assert.ok(all > 1);
        assert.equal(await byFilter('free-ebooks', (v) => v.saleInfo!.saleability === 'FREE'), all - 1);
        assert.equal(await byFilter('paid-ebooks', (v) => v.saleInfo!.saleability === 'FOR_SALE'), 0);
        assert.equal(await byFilter('ebooks', (v) => v.saleInfo!.isEbook === true), all - 1);
        assert.equal(await byFilter('full', (v) => v.accessInfo!.viewability === 'ALL_PAGES'), all - 1);
        assert.equal(await byFilter('partial', (v) => ['PARTIAL', 'ALL_PAGES'].includes(v.accessInfo!.viewability!)), all - 1);
        assert.equal(await byFilter('public-domain', (v) => v.accessInfo!.publicDomain === true), all - 1);
        assert.equal((await every({ q: 'adventures', download: 'epub' }, (v) => v.accessInfo!.epub!.isAvailable === true)).length, all - 1);
        const newest = await every({ q: 'adventures', orderBy: 'newest' }, () => true);
        assert.equal(newest.at(-1)!.volumeInfo!.title, EDITION.title);
        const dates = newest.map((v) => v.volumeInfo!.publishedDate!);
        assert.deepEqual(dates, [...dates].sort().reverse());
        assert.equal((await every({ q: 'adventures', printType: 'books' }, (v) => v.volumeInfo!.printType === 'BOOK')).length, all);
        assert.equal((await search({ q: 'adventures', printType: 'magazines' })).length, 0);
        const latin = await every({ q: 'inauthor:virgil', langRestrict: 'la' }, (v) => v.volumeInfo!.language === 'la');
        assert.equal(latin.length, 3);
        assert.equal((await search({ q: 'inauthor:virgil', langRestrict: 'en' })).length, (await search({ q: 'inauthor:virgil', maxResults: 40 })).length - 3);
        await every({ q: 'adventures', maxAllowedMaturityRating: 'not-mature', showPreorders: false, partner: 'p', source: 'sweep', libraryRestrict: 'no-restrict' }, () => true);
      });
    });

    describe('bookshelves and mylibrary', () => {
      let ids: string[];
      const shelfIds = async (shelf: string) => (await allPages(2, (page) => oauth.mylibrary.bookshelves.volumes.list({ shelf, ...page }))).items.map((v) => v.id);
      const bookshelf = async (shelf: string) => {
        const { data } = await oauth.mylibrary.bookshelves.get({ shelf });
        assertShape('Bookshelf', data);
        return data;
      };

      before(async () => {
        ids = (await search({ q: 'inauthor:twain', maxResults: 5 })).map((v) => v.id!);
      });

      it('addVolume, moveVolume, removeVolume and clearVolumes, read back through every read', async () => {
        for (const [i, volumeId] of ids.entries()) await oauth.mylibrary.bookshelves.addVolume({ shelf: '2', volumeId, ...(i === 0 ? { reason: 'ONBOARDING', source: 'sweep' } : {}) });
        assert.deepEqual(await shelfIds('2'), ids);
        assert.equal((await bookshelf('2')).volumeCount, 5);
        await oauth.mylibrary.bookshelves.moveVolume({ shelf: '2', volumeId: ids[4], volumePosition: 0 });
        const moved = [ids[4], ...ids.slice(0, 4)];
        assert.deepEqual(await shelfIds('2'), moved);
        await oauth.mylibrary.bookshelves.removeVolume({ shelf: '2', volumeId: ids[1], reason: 'ONBOARDING' });
        const kept = moved.filter((id) => id !== ids[1]);
        assert.deepEqual(await shelfIds('2'), kept);
        assert.equal((await bookshelf('2')).volumeCount, 4);

        // The same shelf as others see it, paged.
        for (const client of Object.values(clients())) {
          const shown = await allPages(3, (page) => client.bookshelves.volumes.list({ userId: reader.id, shelf: '2', showPreorders: false, ...page }));
          assert.deepEqual(
            shown.items.map((v) => v.id),
            kept,
          );
          const { data } = await client.bookshelves.get({ userId: reader.id, shelf: '2', source: 'sweep' });
          assertShape('Bookshelf', data);
          assert.equal(data.volumeCount, 4);
        }
        const mine = await oauth.mylibrary.bookshelves.volumes.list({ shelf: 'To read', projection: 'lite', country: 'US', showPreorders: false, q: 'sawyer' });
        assertShape('Volumes', mine.data);
        assert.ok(mine.data.items!.every((v) => kept.includes(v.id!) && v.userInfo && !v.volumeInfo!.categories));
        const got = await oauth.volumes.get({ volumeId: kept[0] });
        assert.equal(got.data.userInfo!.isInMyBooks, true);
        const inLibrary = await search({ q: 'inauthor:twain', libraryRestrict: 'my-library', maxResults: 40 }, oauth);
        assert.deepEqual(inLibrary.map((v) => v.id).sort(), [...kept].sort());

        await oauth.mylibrary.bookshelves.clearVolumes({ shelf: '2', source: 'sweep' });
        assert.deepEqual(await shelfIds('2'), []);
        assert.equal((await bookshelf('2')).volumeCount, 0);
        assert.equal((await oauth.volumes.get({ volumeId: kept[0] })).data.userInfo!.isInMyBooks, false);
      });

      it('lists the shelves: every one to their reader, the public ones to others', async () => {
        const { data: own } = await oauth.mylibrary.bookshelves.list({ source: 'sweep' });
        assertShape('Bookshelves', own);
        assert.equal(own.items!.length, 9);
        for (const client of Object.values(clients())) {
          const { data } = await client.bookshelves.list({ userId: reader.id, source: 'sweep' });
          assertShape('Bookshelves', data);
          assert.deepEqual(
            data.items!.map((s) => s.id),
            own.items!.filter((s) => s.access === 'PUBLIC').map((s) => s.id),
          );
        }
      });

      it('refuses mylibrary without a token and leaves the shelf as it was', async () => {
        await oauth.mylibrary.bookshelves.addVolume({ shelf: '0', volumeId: ids[0] });
        for (const client of [anonymous, keyed]) {
          await assert.rejects(client.mylibrary.bookshelves.clearVolumes({ shelf: '0' }), (e: any) => e.response.status === 401 && e.response.data.error.code === 401);
        }
        assert.deepEqual(await shelfIds('0'), [ids[0]]);
      });
    });

    it('serves every route of the client for its resources but those outside C3', async () => {
      const doc = await (await fetch(`${t.url('books')}/openapi.json`)).json();
      const served = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();
      const called = clientRoutes();
      // The batch endpoint is the one route beyond the client's methods (the client sends no batches).
      assert.deepEqual(
        served.filter((r) => !called.includes(r)),
        ['POST /batch/books/v1'],
      );
      assert.deepEqual(
        called.filter((r) => !served.includes(r)),
        NOT_SERVED,
      );
      // Each answers as a path the service does not serve, whoever calls, even where the path looks like a volume's.
      const volumeId = (await search({ q: 'intitle:whale' }))[0].id!;
      const unserved = (client: books_v1.Books) => [
        client.volumes.mybooks.list({}),
        client.volumes.recommended.list({}),
        client.volumes.useruploaded.list({}),
        client.volumes.recommended.rate({ rating: 'HAVEIT', volumeId }),
        client.volumes.associated.list({ volumeId }),
        client.layers.list({ volumeId }),
        client.mylibrary.annotations.list({}),
        client.mylibrary.readingpositions.get({ volumeId }),
      ];
      for (const client of Object.values(clients())) {
        for (const answer of unserved(client)) {
          await assert.rejects(answer, (e: any) => e.response.status === 404 && /^The requested URL \/books\/v1\/\S+ was not found on this server\.$/.test(e.response.data.error.message));
        }
      }
    });
  });
}
