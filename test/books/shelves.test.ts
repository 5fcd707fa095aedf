// Bookshelves across two users: the caller's own library (mylibrary), other users' public shelves, the shelves Books
// manages itself, and every refusal leaving the shelves as they were.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, bearer, booksClient, createUser, findVolumeId, startBooks, type TestUser } from './helpers.ts';

const START = Date.parse('2026-02-01T09:00:00Z');

for (const database of DATABASES) {
  describe(`books bookshelves (${database})`, () => {
    let t: TestRuntime;
    let alice: TestUser;
    let bob: TestUser;
    const v: Record<'alice' | 'moby' | 'sawyer' | 'huck' | 'snark', string> = {} as any;

    const my = (user: TestUser, path: string, method = 'GET') => call(`${t.url('books')}/books/v1/mylibrary/bookshelves${path}`, { method, headers: bearer(user.token) });
    const shelf = async (user: TestUser, id: number | string) => (await my(user, `/${id}`)).body;
    const shelfIds = async (user: TestUser, id: number | string) => ((await my(user, `/${id}/volumes?maxResults=40`)).body.items ?? []).map((x: any) => x.id);
    const advance = (by: string) => call(`${t.adminUrl}/clock`, { body: { advance: by } });

    before(async () => {
      t = await startBooks(database, 'sample', START);
      alice = await createUser(t, 'alice');
      bob = await createUser(t, 'bob');
      v.alice = await findVolumeId(t, DEV_API_KEY, 'intitle:"alice\'s adventures"');
      v.moby = await findVolumeId(t, DEV_API_KEY, 'intitle:whale');
      v.sawyer = await findVolumeId(t, DEV_API_KEY, 'intitle:"adventures of tom sawyer"');
      v.huck = await findVolumeId(t, DEV_API_KEY, 'intitle:huckleberry');
      v.snark = await findVolumeId(t, DEV_API_KEY, 'intitle:snark');
    });
    after(async () => t.close());

    it('lists the fixed shelves of a new reader, empty, dated from the reader', async () => {
      const res = await my(alice, '');
      assert.equal(res.status, 200);
      assert.equal(res.body.kind, 'books#bookshelves');
      assert.deepEqual(
        res.body.items.map((s: any) => [s.id, s.title, s.access]),
        [
          [0, 'Favorites', 'PUBLIC'],
          [1, 'Purchased', 'PRIVATE'],
          [2, 'To read', 'PUBLIC'],
          [3, 'Reading now', 'PUBLIC'],
          [4, 'Have read', 'PUBLIC'],
          [5, 'Reviewed', 'PUBLIC'],
          [7, 'My Google eBooks', 'PRIVATE'],
          [8, 'Books for you', 'PRIVATE'],
          [9, 'Browsing history', 'PRIVATE'],
        ],
      );
      const fav = res.body.items[0];
      assert.deepEqual(fav, {
        kind: 'books#bookshelf',
        id: 0,
        selfLink: `${t.url('books')}/books/v1/users/alice/bookshelves/0`,
        title: 'Favorites',
        access: 'PUBLIC',
        created: '2026-02-01T09:00:00.000Z',
        updated: '2026-02-01T09:00:00.000Z',
        volumeCount: 0,
        volumesLastUpdated: '2026-02-01T09:00:00.000Z',
      });
      assert.deepEqual(await shelf(alice, 'favorites'), fav, 'a shelf is also named by its title');
    });

    it('adds volumes in order, moving volumeCount and volumesLastUpdated', async () => {
      await advance('1h');
      let res = await my(alice, `/0/addVolume?volumeId=${v.alice}`, 'POST');
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      for (const id of [v.moby, v.sawyer]) assert.equal((await my(alice, `/0/addVolume?volumeId=${id}&reason=ONBOARDING`, 'POST')).status, 204);
      const fav = await shelf(alice, 0);
      assert.equal(fav.volumeCount, 3);
      assert.equal(fav.volumesLastUpdated, '2026-02-01T10:00:00.000Z');
      assert.equal(fav.updated, '2026-02-01T10:00:00.000Z');
      assert.equal(fav.created, '2026-02-01T09:00:00.000Z');
      assert.deepEqual(await shelfIds(alice, 0), [v.alice, v.moby, v.sawyer]);
      // Adding a volume already there changes nothing, not even the time.
      await advance('1h');
      assert.equal((await my(alice, `/0/addVolume?volumeId=${v.moby}`, 'POST')).status, 204);
      assert.equal((await shelf(alice, 0)).volumesLastUpdated, '2026-02-01T10:00:00.000Z');
      assert.deepEqual(await shelfIds(alice, 0), [v.alice, v.moby, v.sawyer]);
      res = await my(alice, '/0/volumes');
      assert.equal(res.body.totalItems, 3);
      assert.deepEqual(res.body.items[0].userInfo, { isPurchased: false, isPreordered: false, isInMyBooks: true, updated: '2026-02-01T10:00:00.000Z' });
    });

    it('pages and searches a shelf', async () => {
      let res = await my(alice, '/0/volumes?startIndex=1&maxResults=1');
      assert.equal(res.body.totalItems, 3);
      assert.deepEqual(
        res.body.items.map((x: any) => x.id),
        [v.moby],
      );
      res = await my(alice, '/0/volumes?q=whale');
      assert.deepEqual(
        res.body.items.map((x: any) => x.id),
        [v.moby],
      );
      assert.equal(res.body.totalItems, 1);
      res = await my(alice, '/0/volumes?q=huckleberry');
      assert.deepEqual(res.body, { kind: 'books#volumes', totalItems: 0 });
      res = await my(alice, '/0/volumes?projection=lite&maxResults=1');
      assert.equal(res.body.items[0].saleInfo.isEbook, undefined);
      assert.equal((await my(alice, '/0/volumes?maxResults=41')).status, 400);
      assert.equal((await my(alice, '/6/volumes')).status, 404);
    });

    it('moves a volume to a position, refusing positions out of range', async () => {
      await advance('1h');
      let res = await my(alice, `/0/moveVolume?volumeId=${v.sawyer}&volumePosition=0`, 'POST');
      assert.equal(res.status, 204);
      assert.deepEqual(await shelfIds(alice, 0), [v.sawyer, v.alice, v.moby]);
      assert.equal((await shelf(alice, 0)).updated, '2026-02-01T12:00:00.000Z');
      assert.equal((await my(alice, `/0/moveVolume?volumeId=${v.sawyer}&volumePosition=2`, 'POST')).status, 204);
      assert.deepEqual(await shelfIds(alice, 0), [v.alice, v.moby, v.sawyer]);
      await advance('1h');
      for (const [query, status, location] of [
        [`volumeId=${v.alice}&volumePosition=3`, 400, 'volumePosition'],
        [`volumeId=${v.alice}&volumePosition=-1`, 400, 'volumePosition'],
        [`volumeId=${v.alice}&volumePosition=first`, 400, 'volumePosition'],
        [`volumeId=${v.alice}`, 400, 'volumePosition'],
        [`volumePosition=0`, 400, 'volumeId'],
        [`volumeId=${v.huck}&volumePosition=0`, 404, undefined],
      ] as const) {
        res = await my(alice, `/0/moveVolume?${query}`, 'POST');
        assert.equal(res.status, status, query);
        assert.equal(res.body.error.errors[0].location, location, query);
      }
      assert.deepEqual(await shelfIds(alice, 0), [v.alice, v.moby, v.sawyer]);
      assert.equal((await shelf(alice, 0)).updated, '2026-02-01T12:00:00.000Z', 'refusals change nothing');
    });

    it('removes a volume, closing the gap, and refuses one that is not there', async () => {
      assert.equal((await my(alice, `/0/removeVolume?volumeId=${v.alice}&reason=ONBOARDING`, 'POST')).status, 204);
      assert.deepEqual(await shelfIds(alice, 0), [v.moby, v.sawyer]);
      assert.equal((await shelf(alice, 0)).volumeCount, 2);
      assert.equal((await my(alice, `/0/moveVolume?volumeId=${v.sawyer}&volumePosition=0`, 'POST')).status, 204);
      assert.deepEqual(await shelfIds(alice, 0), [v.sawyer, v.moby]);
      const before = await shelf(alice, 0);
      await advance('1h');
      let res = await my(alice, `/0/removeVolume?volumeId=${v.alice}`, 'POST');
      assert.equal(res.status, 404);
      assert.equal(res.body.error.errors[0].reason, 'notFound');
      res = await my(alice, '/0/removeVolume', 'POST');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.errors[0].reason, 'required');
      assert.equal((await my(alice, `/0/removeVolume?volumeId=${v.moby}&reason=bored`, 'POST')).status, 400);
      // Books lists ONBOARDING alone as a reason for a removal; the iOS reasons are addVolume's.
      res = await my(alice, `/0/removeVolume?volumeId=${v.moby}&reason=IOS_SEARCH`, 'POST');
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.error.errors, [
        { domain: 'global', reason: 'invalid', message: "Invalid value 'IOS_SEARCH' for reason. Allowed values: onboarding.", location: 'reason', locationType: 'parameter' },
      ]);
      assert.deepEqual(await shelfIds(alice, 0), [v.sawyer, v.moby]);
      assert.deepEqual(await shelf(alice, 0), before);
    });

    it('refuses unknown volumes and shelves, and the shelves Books manages', async () => {
      const before = (await my(alice, '')).body;
      for (const [path, status] of [
        ['/0/addVolume?volumeId=AAAAAAAAAAAA', 404],
        ['/0/addVolume', 400],
        ['/0/addVolume?volumeId=', 400],
        ['/0/addVolume?volumeId=a%00b', 400],
        [`/6/addVolume?volumeId=${v.huck}`, 404],
        [`/42/addVolume?volumeId=${v.huck}`, 404],
        [`/shelf/addVolume?volumeId=${v.huck}`, 404],
        [`/0/addVolume?volumeId=${v.huck}&reason=whim`, 400],
        ...[1, 5, 7, 8, 9].flatMap((id) => [
          [`/${id}/addVolume?volumeId=${v.huck}`, 403],
          [`/${id}/removeVolume?volumeId=${v.huck}`, 403],
          [`/${id}/clearVolumes`, 403],
          [`/${id}/moveVolume?volumeId=${v.huck}&volumePosition=0`, 403],
        ]),
      ] as Array<[string, number]>) {
        const res = await my(alice, path, 'POST');
        assert.equal(res.status, status, path);
        assert.equal(res.body.error.code, status, path);
      }
      const managed = await my(alice, `/1/addVolume?volumeId=${v.huck}`, 'POST');
      assert.equal(managed.body.error.errors[0].reason, 'forbidden');
      assert.match(managed.body.error.message, /Purchased/);
      assert.deepEqual((await my(alice, '')).body, before);
      assert.equal((await my(alice, '/6')).status, 404);
    });

    it('needs a books-scoped token naming the reader', async () => {
      let res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves?key=${alice.apiKey}`);
      assert.equal(res.status, 401);
      res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves/0/addVolume?volumeId=${v.huck}&key=${alice.apiKey}`, { method: 'POST' });
      assert.equal(res.status, 401);
      res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves`);
      assert.equal(res.status, 401);
      res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves`, { headers: bearer('forged-token') });
      assert.equal(res.status, 401);
      const driveOnly = await createUser(t, 'drive-only', ['https://www.googleapis.com/auth/drive']);
      res = await my(driveOnly, `/0/addVolume?volumeId=${v.huck}`, 'POST');
      assert.equal(res.status, 403);
      assert.equal((await shelf(alice, 0)).volumeCount, 2);
    });

    it('keeps each reader to their own library', async () => {
      assert.equal((await my(bob, `/2/addVolume?volumeId=${v.huck}`, 'POST')).status, 204);
      assert.equal((await shelf(bob, 0)).volumeCount, 0);
      assert.equal((await shelf(bob, 2)).volumeCount, 1);
      assert.equal((await shelf(alice, 2)).volumeCount, 0);
      const asAlice = await call(`${t.url('books')}/books/v1/volumes/${v.moby}`, { headers: bearer(alice.token) });
      assert.equal(asAlice.body.userInfo.isInMyBooks, true);
      const asBob = await call(`${t.url('books')}/books/v1/volumes/${v.moby}`, { headers: bearer(bob.token) });
      assert.deepEqual(asBob.body.userInfo, { isPurchased: false, isPreordered: false, isInMyBooks: false });
      const mine = await call(`${t.url('books')}/books/v1/volumes?q=inpublisher:gutenberg&libraryRestrict=my-library`, { headers: bearer(alice.token) });
      assert.deepEqual(mine.body.items.map((x: any) => x.id).sort(), [v.moby, v.sawyer].sort());
    });

    it("shows another reader's public shelves with an API key, and hides private ones", async () => {
      const users = (path: string, key = bob.apiKey) => call(`${t.url('books')}/books/v1/users/${path}${path.includes('?') ? '&' : '?'}key=${key}`);
      let res = await users('alice/bookshelves');
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.items.map((s: any) => s.id),
        [0, 2, 3, 4, 5],
      );
      assert.equal(res.body.items[0].volumeCount, 2);
      res = await users('alice/bookshelves/0/volumes');
      assert.deepEqual(
        res.body.items.map((x: any) => x.id),
        [v.sawyer, v.moby],
      );
      assert.equal(res.body.items[0].userInfo, undefined, 'an API key names no reader');
      res = await users('alice/bookshelves/0/volumes?startIndex=1&maxResults=5');
      assert.deepEqual(
        res.body.items.map((x: any) => x.id),
        [v.moby],
      );
      assert.equal((await users('alice/bookshelves/0')).body.title, 'Favorites');
      for (const path of ['alice/bookshelves/1', 'alice/bookshelves/9/volumes', 'alice/bookshelves/6', 'nobody/bookshelves', 'nobody/bookshelves/0']) {
        res = await users(path);
        assert.equal(res.status, 404, path);
      }
      assert.equal((await users('alice/bookshelves/0/volumes?maxResults=50')).status, 400);
      // Public shelves are served without any credential too.
      const anonymous = await call(`${t.url('books')}/books/v1/users/alice/bookshelves`);
      assert.deepEqual([anonymous.status, anonymous.body], [200, (await users('alice/bookshelves')).body]);
      assert.equal((await users('alice/bookshelves', 'wrong-key')).status, 400);
    });

    it('hides a shelf its reader made private', async () => {
      let res = await call(`${t.adminUrl}/services/books/users/alice/bookshelves/0`, { method: 'PUT', body: { access: 'PRIVATE' } });
      assert.equal(res.status, 200);
      for (const body of [{ access: 'SECRET' }, {}, { access: 'PUBLIC', extra: 1 }]) {
        res = await call(`${t.adminUrl}/services/books/users/alice/bookshelves/0`, { method: 'PUT', body });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      assert.equal((await call(`${t.adminUrl}/services/books/users/alice/bookshelves/6`, { method: 'PUT', body: { access: 'PUBLIC' } })).status, 404);
      assert.equal((await call(`${t.adminUrl}/services/books/users/nobody/bookshelves/0`, { method: 'PUT', body: { access: 'PUBLIC' } })).status, 404);
      res = await call(`${t.url('books')}/books/v1/users/alice/bookshelves?key=${bob.apiKey}`);
      assert.deepEqual(
        res.body.items.map((s: any) => s.id),
        [2, 3, 4, 5],
      );
      assert.equal((await call(`${t.url('books')}/books/v1/users/alice/bookshelves/0/volumes?key=${bob.apiKey}`)).status, 404);
      const own = await shelf(alice, 0);
      assert.equal(own.access, 'PRIVATE');
      assert.equal(own.volumeCount, 2);
    });

    it('clears a shelf, even an empty one', async () => {
      await advance('1h');
      assert.equal((await my(alice, '/0/clearVolumes', 'POST')).status, 204);
      const fav = await shelf(alice, 0);
      assert.equal(fav.volumeCount, 0);
      assert.equal(fav.volumesLastUpdated, '2026-02-01T15:00:00.000Z');
      assert.equal((await my(alice, '/0/clearVolumes', 'POST')).status, 204);
      assert.deepEqual(await shelfIds(alice, 0), []);
      assert.equal((await shelf(bob, 2)).volumeCount, 1, "another reader's shelves stay");
    });

    it('adds concurrently without losing or repeating a position', async () => {
      const ids = (await call(`${t.url('books')}/books/v1/volumes?q=inpublisher:gutenberg&maxResults=12&key=${DEV_API_KEY}`)).body.items.map((x: any) => x.id);
      const results = await Promise.all(ids.map((id: string) => my(alice, `/3/addVolume?volumeId=${id}`, 'POST')));
      assert.ok(results.every((r) => r.status === 204));
      const onShelf = await shelfIds(alice, 3);
      assert.deepEqual([...onShelf].sort(), [...ids].sort());
      const positions = await t.rt.db.kysely.selectFrom('books_shelf_volumes').select('position').where('user_id', '=', 'alice').where('shelf_id', '=', 3).orderBy('position').execute();
      assert.deepEqual(
        positions.map((p) => Number(p.position)),
        ids.map((_: string, i: number) => i),
        'every volume has its own position',
      );
      assert.equal((await my(alice, `/3/moveVolume?volumeId=${onShelf[11]}&volumePosition=0`, 'POST')).status, 204);
      assert.deepEqual(await shelfIds(alice, 3), [onShelf[11], ...onShelf.slice(0, 11)]);
    });

    it('answers the googleapis Books client for every shelf method, and keeps shelves across a restart', async () => {
      const books = booksClient(t, { token: bob.token });
      let res: any = await books.mylibrary.bookshelves.addVolume({ shelf: '4', volumeId: v.snark, reason: 'IOS_SEARCH' });
      assert.equal(res.status, 204);
      await books.mylibrary.bookshelves.addVolume({ shelf: '4', volumeId: v.alice });
      await books.mylibrary.bookshelves.moveVolume({ shelf: '4', volumeId: v.alice, volumePosition: 0 });
      res = await books.mylibrary.bookshelves.volumes.list({ shelf: '4', maxResults: 10, projection: 'lite' });
      assert.deepEqual(
        res.data.items.map((x: any) => x.id),
        [v.alice, v.snark],
      );
      res = await books.mylibrary.bookshelves.get({ shelf: '4' });
      assert.equal(res.data.volumeCount, 2);
      res = await books.mylibrary.bookshelves.list({});
      assert.equal(res.data.items.length, 9);
      await books.mylibrary.bookshelves.removeVolume({ shelf: '4', volumeId: v.snark });
      await assert.rejects(books.mylibrary.bookshelves.addVolume({ shelf: '7', volumeId: v.snark }), (err: any) => err.status === 403);
      await assert.rejects(books.mylibrary.bookshelves.get({ shelf: '6' }), (err: any) => err.status === 404);

      const public_ = booksClient(t, { apiKey: alice.apiKey });
      res = await public_.bookshelves.list({ userId: 'bob' });
      assert.deepEqual(
        res.data.items.map((s: any) => s.id),
        [0, 2, 3, 4, 5],
      );
      res = await public_.bookshelves.get({ userId: 'bob', shelf: '4' });
      assert.equal(res.data.volumeCount, 1);
      res = await public_.bookshelves.volumes.list({ userId: 'bob', shelf: '4', startIndex: 0, maxResults: 5 });
      assert.deepEqual(
        res.data.items.map((x: any) => x.id),
        [v.alice],
      );
      await assert.rejects(public_.bookshelves.get({ userId: 'bob', shelf: '1' }), (err: any) => err.status === 404);

      await books.mylibrary.bookshelves.clearVolumes({ shelf: '2' });
      await t.restart();
      const after = booksClient(t, { token: bob.token });
      res = await after.mylibrary.bookshelves.volumes.list({ shelf: '4' });
      assert.deepEqual(
        res.data.items.map((x: any) => x.id),
        [v.alice],
      );
      assert.equal((await after.mylibrary.bookshelves.get({ shelf: '2' })).data.volumeCount, 0);
    });
  });
}
