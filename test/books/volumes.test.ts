// volumes.list and volumes.get over the small catalog plus Open Library records imported through the admin API:
// every parameter, every refusal, through HTTP and the googleapis Books client.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, DEV_TOKEN, bearer, booksClient, createUser, startBooks } from './helpers.ts';

const SAMPLE_VOLUMES = 291;
const TWAIN_WORKS = 10;

/** Three Open Library editions: catalogue entries with ISBN, LCCN and OCLC numbers, not readable here. */
const EDITIONS = [
  {
    key: '/books/OL7353617M',
    title: 'Fantastic Mr. Fox',
    authors: [{ name: 'Roald Dahl' }],
    publishers: ['Puffin'],
    publish_date: 'October 1, 1988',
    languages: [{ key: '/languages/eng' }],
    subjects: ['Foxes', 'Farmers'],
    isbn_10: ['0140328726'],
    isbn_13: ['9780140328721'],
    lccn: ['88012345'],
    oclc_numbers: ['19308495'],
    number_of_pages: 96,
  },
  { key: '/books/OL1000001M', title: 'Le Petit Prince', authors: [{ name: 'Antoine de Saint-Exupéry' }], publishers: ['Gallimard'], publish_date: '1946', languages: [{ key: '/languages/fre' }], isbn_13: ['9782070612758'] },
  { key: '/works/OL45883W', title: 'Fox in Socks', by_statement: 'by Dr. Seuss.', first_publish_date: '1965', subjects: ['Tongue twisters'] },
];
const ndjson = EDITIONS.map((e) => `/type/edition\t${e.key}\t3\t2020-01-01T00:00:00\t${JSON.stringify(e)}`).join('\n') + '\n';

for (const database of DATABASES) {
  describe(`books volumes (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    const list = (params: Record<string, string | number>, headers: Record<string, string> = {}) => {
      const qs = new URLSearchParams({ key: DEV_API_KEY, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
      if (headers.authorization) qs.delete('key');
      return call(`${base}/books/v1/volumes?${qs}`, { headers });
    };
    const catalogSize = async () => (await call(`${t.adminUrl}/services/books/volumes`)).body.total as number;

    before(async () => {
      t = await startBooks(database);
      base = t.url('books');
    });
    after(async () => t.close());

    it('starts with the small catalog and imports Open Library dump lines through the admin API', async () => {
      assert.equal(await catalogSize(), SAMPLE_VOLUMES);
      const res = await call(`${t.adminUrl}/services/books/volumes`, { raw: ndjson, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { loaded: 3, skipped: 0, total: SAMPLE_VOLUMES + 3 });
      // The same records again, gzip-compressed, replace themselves.
      const again = await fetch(`${t.adminUrl}/services/books/volumes`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: gzipSync(ndjson) });
      assert.deepEqual(await again.json(), { loaded: 3, skipped: 0, total: SAMPLE_VOLUMES + 3 });
    });

    it('refuses an import with a bad record, naming its line, and loads nothing of it', async () => {
      const bad = `${JSON.stringify({ key: '/books/OL9M', title: 'Fine' })}\n${JSON.stringify({ key: '/books/OL8M', title: 'Bad', isbn_13: 9780000000000 })}\n`;
      let res = await call(`${t.adminUrl}/services/books/volumes`, { raw: bad, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /^line 2: isbn_13 must be a list of strings; nothing was loaded$/);
      res = await call(`${t.adminUrl}/services/books/volumes`, { raw: 'Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves\n9999,Text,2020-02-30x,T,en,,,,\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /^line 2: Issued/);
      res = await call(`${t.adminUrl}/services/books/volumes`, { body: { key: '/books/OL9M' } });
      assert.equal(res.status, 400);
      assert.equal(await catalogSize(), SAMPLE_VOLUMES + 3);
    });

    it('finds a work by free text and by author, with its author', async () => {
      const res = await list({ q: 'alice wonderland' });
      assert.equal(res.status, 200);
      assert.equal(res.body.kind, 'books#volumes');
      assert.equal(res.body.items[0].volumeInfo.title, "Alice's Adventures in Wonderland");
      assert.deepEqual(res.body.items[0].volumeInfo.authors, ['Lewis Carroll']);
      const twain = await list({ q: 'inauthor:twain', maxResults: 40 });
      assert.equal(twain.body.totalItems, TWAIN_WORKS);
      assert.ok(twain.body.items.every((v: any) => v.volumeInfo.authors.includes('Mark Twain')));
      const sawyer = await list({ q: 'tom sawyer' });
      assert.deepEqual(sawyer.body.items.map((v: any) => v.volumeInfo.title).sort(), ['The Adventures of Tom Sawyer, Complete', 'Tom Sawyer Abroad', 'Tom Sawyer, Detective']);
    });

    it('scopes keywords to their field and ranks a title match first', async () => {
      assert.equal((await list({ q: 'intitle:twain' })).body.totalItems, 0);
      const whale = await list({ q: 'intitle:whale' });
      assert.deepEqual(whale.body.items.map((v: any) => v.volumeInfo.title), ['Moby-Dick; or, The Whale']);
      assert.equal((await list({ q: 'intitle:"dick moby"' })).body.totalItems, 0, 'a quoted phrase keeps its order');
      assert.ok((await list({ q: 'subject:farmers' })).body.items.some((v: any) => v.volumeInfo.title === 'Fantastic Mr. Fox'));
      assert.equal((await list({ q: 'inpublisher:gallimard' })).body.items[0].volumeInfo.title, 'Le Petit Prince');
      assert.equal((await list({ q: 'inpublisher:gutenberg', maxResults: 0 })).body.totalItems, SAMPLE_VOLUMES);
      const fox = await list({ q: 'fox' });
      assert.equal(fox.body.items[0].volumeInfo.title.includes('Fox'), true, 'title matches rank above others');
      assert.equal((await list({ q: 'saint exupery' })).body.totalItems, 1, 'accents fold away');
    });

    it('applies a keyword followed by blanks to the next word or phrase', async () => {
      for (const [spaced, joined] of [
        ['intitle: whale', 'intitle:whale'],
        ['INTITLE:  "moby dick"', 'intitle:"moby dick"'],
        ['inauthor:+twain intitle: sawyer', 'inauthor:twain intitle:sawyer'],
        ['inauthor: twain -intitle: sawyer', 'inauthor:twain -intitle:sawyer'],
        ['isbn: 9780140328721', 'isbn:9780140328721'],
      ]) {
        const res = await list({ q: spaced, maxResults: 40 });
        assert.equal(res.status, 200, `${spaced}: ${res.text}`);
        assert.ok(res.body.totalItems > 0, spaced);
        assert.deepEqual(res.body, (await list({ q: joined, maxResults: 40 })).body, spaced);
      }
      // Still scoped to the field: Twain is an author, never a title word.
      assert.equal((await list({ q: 'intitle: twain' })).body.totalItems, 0);
    });

    it('takes a keyword named like an Object.prototype member as ordinary text', async () => {
      for (const [q, text] of [['constructor:war', 'constructor war'], ['toString:whale', 'tostring whale'], ['valueOf:"moby dick"', 'valueof moby dick']]) {
        const res = await list({ q });
        assert.equal(res.status, 200, `${q}: ${res.text}`);
        assert.deepEqual(res.body, (await list({ q: text })).body, q);
      }
    });

    it('looks up ISBN, LCCN and OCLC numbers, combined with text', async () => {
      for (const q of ['isbn:9780140328721', 'isbn:0-14-032872-6', 'lccn:88-012345', 'oclc:19308495', 'fox isbn:9780140328721']) {
        const res = await list({ q });
        assert.equal(res.body.totalItems, 1, q);
        assert.equal(res.body.items[0].volumeInfo.title, 'Fantastic Mr. Fox');
      }
      assert.equal((await list({ q: 'whale isbn:9780140328721' })).body.totalItems, 0);
      assert.equal((await list({ q: 'isbn:0000000000' })).body.totalItems, 0);
      assert.deepEqual((await list({ q: '?!' })).body, { kind: 'books#volumes', totalItems: 0 }, 'no items field when empty');
    });

    it('pages with startIndex and maxResults (default 10, at most 40)', async () => {
      const all = (await list({ q: 'inpublisher:gutenberg', maxResults: 40 })).body;
      assert.equal(all.items.length, 40);
      assert.equal((await list({ q: 'inpublisher:gutenberg' })).body.items.length, 10);
      const ids: string[] = [];
      for (let start = 0; start < TWAIN_WORKS; start += 4) {
        const page = (await list({ q: 'inauthor:twain', startIndex: start, maxResults: 4 })).body;
        assert.equal(page.totalItems, TWAIN_WORKS);
        ids.push(...page.items.map((v: any) => v.id));
      }
      assert.equal(new Set(ids).size, TWAIN_WORKS);
      assert.deepEqual(ids, (await list({ q: 'inauthor:twain', maxResults: 40 })).body.items.map((v: any) => v.id));
      assert.deepEqual((await list({ q: 'inauthor:twain', startIndex: 500 })).body, { kind: 'books#volumes', totalItems: TWAIN_WORKS });
    });

    it('orders by newest, and filters by print type, language, access and download', async () => {
      const newest = (await list({ q: 'inauthor:twain', orderBy: 'newest', maxResults: 40 })).body.items.map((v: any) => v.volumeInfo.publishedDate);
      assert.deepEqual(newest, [...newest].sort().reverse());
      assert.equal((await list({ q: 'fox', printType: 'books' })).body.totalItems, 2);
      assert.equal((await list({ q: 'fox', printType: 'MAGAZINES' })).body.totalItems, 0);
      const placeholders = await list({ q: 'fox', printType: 'PRINT_TYPE_UNDEFINED', orderBy: 'ORDER_BY_UNDEFINED', projection: 'PROJECTION_UNDEFINED', filter: 'FILTER_UNDEFINED' });
      assert.equal(placeholders.body.totalItems, 2, 'the discovery placeholders mean the defaults');
      assert.ok(placeholders.body.items[0].accessInfo);
      assert.equal((await list({ q: 'petit prince', langRestrict: 'fr' })).body.totalItems, 1);
      assert.equal((await list({ q: 'petit prince', langRestrict: 'en' })).body.totalItems, 0);
      const foxes = { q: 'fox' };
      assert.equal((await list({ ...foxes })).body.totalItems, 2);
      for (const filter of ['free-ebooks', 'full', 'partial', 'ebooks', 'public-domain', 'paid-ebooks']) {
        assert.equal((await list({ ...foxes, filter })).body.totalItems, 0, filter);
      }
      for (const filter of ['free-ebooks', 'full', 'partial', 'ebooks', 'public-domain']) {
        assert.equal((await list({ q: 'inauthor:twain', filter })).body.totalItems, TWAIN_WORKS, filter);
      }
      assert.equal((await list({ q: 'inauthor:twain', filter: 'paid-ebooks' })).body.totalItems, 0);
      assert.equal((await list({ q: 'inauthor:twain', download: 'epub' })).body.totalItems, TWAIN_WORKS);
      assert.equal((await list({ q: 'fox', download: 'epub' })).body.totalItems, 0);
    });

    it('shows the lite projection and applies fields', async () => {
      const lite = (await list({ q: 'intitle:whale', projection: 'lite' })).body.items[0];
      assert.deepEqual(Object.keys(lite).sort(), ['accessInfo', 'etag', 'id', 'kind', 'saleInfo', 'selfLink', 'volumeInfo']);
      assert.equal(lite.volumeInfo.readingModes, undefined);
      assert.deepEqual(lite.volumeInfo.authors, ['Herman Melville']);
      const full = (await list({ q: 'intitle:whale' })).body.items[0];
      assert.equal(full.accessInfo.accessViewStatus, 'FULL_PUBLIC_DOMAIN');
      assert.equal(full.selfLink, `${base}/books/v1/volumes/${full.id}`);
      const picked = await list({ q: 'intitle:whale', fields: 'totalItems,items(id,volumeInfo/title)' });
      assert.deepEqual(picked.body, { totalItems: 1, items: [{ id: full.id, volumeInfo: { title: 'Moby-Dick; or, The Whale' } }] });
    });

    it('refuses a search without q and bad parameters, with the parameter named', async () => {
      for (const params of [{}, { q: '' }, { q: '   ' }] as Array<Record<string, string>>) {
        const res = await list(params);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body.error.errors, [{ domain: 'global', reason: 'queryRequired', message: 'Missing query.', location: 'q', locationType: 'parameter' }]);
      }
      const bad: Array<[Record<string, string | number>, string]> = [
        [{ maxResults: 41 }, 'maxResults'],
        [{ maxResults: -1 }, 'maxResults'],
        [{ maxResults: 'ten' }, 'maxResults'],
        [{ startIndex: -1 }, 'startIndex'],
        [{ orderBy: 'oldest' }, 'orderBy'],
        [{ printType: 'comics' }, 'printType'],
        [{ filter: 'cheap' }, 'filter'],
        [{ projection: 'huge' }, 'projection'],
        [{ download: 'pdf' }, 'download'],
        [{ langRestrict: 'english' }, 'langRestrict'],
        [{ libraryRestrict: 'mine' }, 'libraryRestrict'],
        [{ showPreorders: 'maybe' }, 'showPreorders'],
      ];
      for (const [params, location] of bad) {
        const res = await list({ q: 'fox', ...params });
        assert.equal(res.status, 400, JSON.stringify(params));
        assert.equal(res.body.error.errors[0].location, location);
      }
      assert.match((await list({ q: 'fox', maxResults: 41 })).body.error.message, /\[0, 40\]/);
    });

    it('serves volumes without any credential, as Books does, and checks a credential that is given', async () => {
      let res = await call(`${base}/books/v1/volumes?q=fox`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, (await list({ q: 'fox' })).body, 'the same answer as to an API key');
      assert.ok(res.body.totalItems > 0);
      const id = res.body.items[0].id;
      res = await call(`${base}/books/v1/volumes/${id}`);
      assert.deepEqual([res.status, res.body.id, res.body.userInfo], [200, id, undefined]);
      // The googleapis client without any auth.
      const anonymous = booksClient(t, {});
      assert.equal((await anonymous.volumes.list({ q: 'fox' })).data.totalItems, (await list({ q: 'fox' })).body.totalItems);
      for (const empty of ['key=', 'access_token=']) {
        assert.equal((await call(`${base}/books/v1/volumes?q=fox&${empty}`)).status, 200, `${empty} is no credential`);
      }
      res = await call(`${base}/books/v1/volumes?q=fox`, { headers: bearer('forged-token') });
      assert.equal(res.status, 401);
      res = await call(`${base}/books/v1/volumes?q=fox&key=not-a-key`);
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /API key not valid/);
      const calendarOnly = await createUser(t, 'calendar-only', ['https://www.googleapis.com/auth/calendar']);
      res = await list({ q: 'fox' }, bearer(calendarOnly.token));
      assert.equal(res.status, 403);
      assert.equal((await list({ q: 'fox' }, bearer(DEV_TOKEN))).status, 200);
      res = await list({ q: 'fox', libraryRestrict: 'my-library' });
      assert.equal(res.status, 401, 'my-library needs a user');
      res = await call(`${base}/books/v1/volumes?q=fox&libraryRestrict=my-library`);
      assert.equal(res.status, 401, 'and so does an anonymous caller');
    });

    it('gets a volume by id, 404 for an unknown id', async () => {
      const id = (await list({ q: 'intitle:whale' })).body.items[0].id;
      let res = await call(`${base}/books/v1/volumes/${id}?key=${DEV_API_KEY}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.volumeInfo.title, 'Moby-Dick; or, The Whale');
      assert.equal(res.body.userInfo, undefined, 'an API key names no reader');
      res = await call(`${base}/books/v1/volumes/${id}?projection=lite&key=${DEV_API_KEY}`);
      assert.equal(res.body.saleInfo.saleability, undefined);
      for (const missing of ['AAAAAAAAAAAA', 'nope', '%20']) {
        res = await call(`${base}/books/v1/volumes/${missing}?key=${DEV_API_KEY}`);
        assert.equal(res.status, 404, missing);
        assert.equal(res.body.error.errors[0].reason, 'notFound');
      }
      res = await call(`${base}/books/v1/volumes/${id}?key=${DEV_API_KEY}&projection=everything`);
      assert.equal(res.status, 400);
      for (const path of ['/volumes/ab%00cd?', '/volumes?q=isbn:1%002&', '/users/a%00b/bookshelves?']) {
        res = await call(`${base}/books/v1${path}key=${DEV_API_KEY}`);
        assert.equal(res.status, 400, path);
        assert.match(res.body.error.message, /NUL/);
      }
    });

    it('answers the googleapis Books client unchanged', async () => {
      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const found = await books.volumes.list({ q: 'inauthor:twain', maxResults: 5, orderBy: 'newest', filter: 'free-ebooks', printType: 'books', projection: 'full', langRestrict: 'en', download: 'epub' });
      assert.equal(found.data.totalItems, TWAIN_WORKS);
      assert.equal(found.data.items?.length, 5);
      const got = await books.volumes.get({ volumeId: found.data.items![0].id! });
      assert.deepEqual(got.data.volumeInfo?.authors, ['Mark Twain']);
      await assert.rejects(books.volumes.get({ volumeId: 'AAAAAAAAAAAA' }), (err: any) => err.status === 404);
      await assert.rejects(books.volumes.list({ q: 'fox', maxResults: 41 }), (err: any) => err.status === 400);
      const reader = booksClient(t, { token: DEV_TOKEN });
      const mine = await reader.volumes.list({ q: 'fox', libraryRestrict: 'my-library' });
      assert.equal(mine.data.totalItems, 0);
    });

    it('keeps imported volumes across a restart and restores the small catalog on reset', async () => {
      await t.restart();
      base = t.url('books');
      assert.equal(await catalogSize(), SAMPLE_VOLUMES + 3);
      assert.equal((await list({ q: 'isbn:9780140328721' })).body.totalItems, 1);
      assert.equal((await call(`${t.adminUrl}/reset`, { body: { service: 'books' } })).status, 200);
      assert.equal(await catalogSize(), SAMPLE_VOLUMES);
      assert.equal((await list({ q: 'isbn:9780140328721' })).body.totalItems, 0);
      assert.equal((await list({ q: 'alice wonderland' })).body.totalItems, 1);
    });
  });
}
