// A bookshelf's `updated` (last change of the shelf) and `volumesLastUpdated` (last time a volume was added or
// removed): which changes move which, through HTTP and the googleapis Books client, and across a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, bearer, booksClient, createUser, findVolumeId, startBooks, type TestUser } from './helpers.ts';

const START = Date.parse('2026-03-01T08:00:00Z');
const at = (hours: number) => new Date(START + hours * 3_600_000).toISOString();

for (const database of DATABASES) {
  describe(`books shelf times (${database})`, () => {
    let t: TestRuntime;
    let reader: TestUser;
    let moby: string;
    let sawyer: string;

    const change = async (path: string) => {
      const res = await call(`${t.url('books')}/books/v1/mylibrary/bookshelves${path}`, { method: 'POST', headers: bearer(reader.token) });
      assert.equal(res.status, 204, `${path}: ${res.text}`);
    };
    const times = async (shelf: string) => {
      const { data } = await booksClient(t, { token: reader.token }).mylibrary.bookshelves.get({ shelf });
      return { updated: data.updated, volumesLastUpdated: data.volumesLastUpdated, volumeCount: data.volumeCount };
    };
    const hour = () => call(`${t.adminUrl}/clock`, { body: { advance: '1h' } });

    before(async () => {
      t = await startBooks(database, 'sample', START);
      reader = await createUser(t, 'timekeeper');
      moby = await findVolumeId(t, DEV_API_KEY, 'intitle:whale');
      sawyer = await findVolumeId(t, DEV_API_KEY, 'intitle:"adventures of tom sawyer"');
    });
    after(async () => t.close());

    it('moves volumesLastUpdated only when a volume is added or removed', async () => {
      await hour();
      await change(`/2/addVolume?volumeId=${moby}`);
      await change(`/2/addVolume?volumeId=${sawyer}`);
      assert.deepEqual(await times('2'), { updated: at(1), volumesLastUpdated: at(1), volumeCount: 2 });

      // A new order is a change of the shelf, but no volume came or went.
      await hour();
      await change(`/2/moveVolume?volumeId=${sawyer}&volumePosition=0`);
      assert.deepEqual(await times('2'), { updated: at(2), volumesLastUpdated: at(1), volumeCount: 2 });
      const order = await booksClient(t, { token: reader.token }).mylibrary.bookshelves.volumes.list({ shelf: '2' });
      assert.deepEqual(
        order.data.items?.map((v) => v.id),
        [sawyer, moby],
      );

      await hour();
      await change(`/2/removeVolume?volumeId=${moby}`);
      assert.deepEqual(await times('2'), { updated: at(3), volumesLastUpdated: at(3), volumeCount: 1 });

      await hour();
      await change('/2/clearVolumes');
      assert.deepEqual(await times('2'), { updated: at(4), volumesLastUpdated: at(4), volumeCount: 0 });
    });

    it('leaves an empty shelf as it was when it is cleared', async () => {
      await hour();
      const untouched = await times('3');
      assert.deepEqual(untouched, { updated: at(0), volumesLastUpdated: at(0), volumeCount: 0 });
      await change('/3/clearVolumes');
      await change('/2/clearVolumes');
      assert.deepEqual(await times('3'), untouched);
      assert.deepEqual(await times('2'), { updated: at(4), volumesLastUpdated: at(4), volumeCount: 0 });
    });

    it('keeps both times across a restart', async () => {
      await change(`/4/addVolume?volumeId=${moby}`);
      await change(`/4/addVolume?volumeId=${sawyer}`);
      await hour();
      await change(`/4/moveVolume?volumeId=${sawyer}&volumePosition=0`);
      const before = await times('4');
      assert.deepEqual(before, { updated: at(6), volumesLastUpdated: at(5), volumeCount: 2 });
      await t.restart();
      assert.deepEqual(await times('4'), before);
      const shown = await call(`${t.url('books')}/books/v1/users/timekeeper/bookshelves/4?key=${DEV_API_KEY}`);
      assert.equal(shown.body.volumesLastUpdated, at(5));
      assert.equal(shown.body.updated, at(6));
    });
  });
}
