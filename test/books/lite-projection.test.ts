// projection=lite: the fields Books' discovery document marks "(In LITE projection)", on every method that takes the
// parameter, through HTTP and the googleapis Books client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, bearer, booksClient, createUser, findVolumeId, startBooks, type TestUser } from './helpers.ts';

const LITE_VOLUME_INFO = ['authors', 'canonicalVolumeLink', 'contentVersion', 'imageLinks', 'infoLink', 'publishedDate', 'publisher', 'title'];
const LITE_SALE_INFO = ['buyLink', 'country'];
const LITE_ACCESS_INFO = ['accessViewStatus', 'country', 'epub', 'pdf'];

/** What lite keeps of a full volume: the marked fields, with the same values. */
function liteOf(full: any) {
  const pick = (from: any, keys: string[]) => Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
  return {
    kind: full.kind,
    id: full.id,
    etag: full.etag,
    selfLink: full.selfLink,
    volumeInfo: pick(full.volumeInfo, LITE_VOLUME_INFO),
    saleInfo: pick(full.saleInfo, LITE_SALE_INFO),
    accessInfo: pick(full.accessInfo, LITE_ACCESS_INFO),
  };
}

for (const database of DATABASES) {
  describe(`books projection=lite (${database})`, () => {
    let t: TestRuntime;
    let reader: TestUser;
    let mobyId: string;
    let full: any;

    before(async () => {
      t = await startBooks(database);
      reader = await createUser(t, 'lite-reader');
      mobyId = await findVolumeId(t, DEV_API_KEY, 'intitle:whale');
      full = (await call(`${t.url('books')}/books/v1/volumes/${mobyId}?key=${DEV_API_KEY}`)).body;
    });
    after(async () => t.close());

    it('keeps the marked parts of volumeInfo, saleInfo and accessInfo on volumes.get and volumes.list', async () => {
      const got = await call(`${t.url('books')}/books/v1/volumes/${mobyId}?projection=lite&key=${DEV_API_KEY}`);
      assert.equal(got.status, 200);
      assert.deepEqual({ ...got.body }, liteOf(full));
      assert.deepEqual(Object.keys(got.body.volumeInfo).sort(), LITE_VOLUME_INFO);
      assert.deepEqual(got.body.accessInfo, {
        country: 'US',
        accessViewStatus: 'FULL_PUBLIC_DOMAIN',
        epub: { isAvailable: true, downloadLink: full.accessInfo.epub.downloadLink },
        pdf: { isAvailable: false },
      });
      // saleInfo's country and buyLink are marked too; saleability and isEbook are not.
      assert.deepEqual(got.body.saleInfo, { country: 'US', buyLink: full.saleInfo.buyLink });
      assert.equal(got.body.volumeInfo.language, undefined, 'language is not a lite field');

      const listed = await call(`${t.url('books')}/books/v1/volumes?q=intitle:whale&projection=LITE&key=${DEV_API_KEY}`);
      assert.deepEqual(listed.body.items, [liteOf(full)]);
    });

    it('is what the googleapis client gets, with the marked parts of userInfo, on the shelf listings too', async () => {
      const books = booksClient(t, { token: reader.token });
      const { data } = await books.volumes.get({ volumeId: mobyId, projection: 'lite' });
      const { userInfo, ...volume } = data;
      assert.deepEqual(volume, liteOf(full));
      // Of userInfo only isPurchased and isPreordered are marked.
      assert.deepEqual(userInfo, { isPurchased: false, isPreordered: false });

      assert.equal((await call(`${t.url('books')}/books/v1/mylibrary/bookshelves/0/addVolume?volumeId=${mobyId}`, { method: 'POST', headers: bearer(reader.token) })).status, 204);
      const shelf = await books.mylibrary.bookshelves.volumes.list({ shelf: '0', projection: 'lite' });
      const [item] = shelf.data.items!;
      assert.deepEqual(item.accessInfo, liteOf(full).accessInfo);
      assert.deepEqual(item.volumeInfo, liteOf(full).volumeInfo);
      assert.deepEqual(item.saleInfo, liteOf(full).saleInfo);
      assert.deepEqual(item.userInfo, { isPurchased: false, isPreordered: false });
      const fullItem = (await books.mylibrary.bookshelves.volumes.list({ shelf: '0' })).data.items![0];
      assert.equal(fullItem.userInfo?.isInMyBooks, true, 'the full projection keeps every userInfo field');
    });
  });
}
