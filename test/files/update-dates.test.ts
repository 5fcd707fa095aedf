// The dates files.update and files.patch set: `modifiedDate` by `setModifiedDate` and `modifiedDateBehavior` as Drive
// documents them, and the caller's view date (`updateViewedDate`, true unless the request says false).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, advanceClock, type TestRuntime } from '../helpers/runtime.ts';
import { api, driveClient, startFiles, type Api } from './helpers.ts';

const EARLIER = '2020-05-06T07:08:09.000Z';

for (const database of DATABASES) {
  describe(`files: dates set by an update (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    before(async () => {
      t = await startFiles(database, {}, 'manual');
      a = api(t);
    });
    after(async () => t.close());

    /** Moves the manual clock on, so that "now" differs from every date written before. */
    const advance = () => advanceClock(t, '1h');
    const insert = async (title: string) => {
      const r = await a('/files', { body: { title } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const patch = async (fileId: string, query: string, body: Record<string, unknown>) => {
      const r = await a(`/files/${fileId}?${query}`, { method: 'PATCH', body });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('reads setModifiedDate=true as fromBodyOrNow: the body date when given, else now', async () => {
      const file = await insert('dated.txt');
      const fromBody = await patch(file.id, 'setModifiedDate=true', { modifiedDate: EARLIER });
      assert.equal(fromBody.modifiedDate, EARLIER);
      await advance();
      const renamed = await patch(file.id, 'setModifiedDate=true', { title: 'renamed.txt' });
      assert.equal(renamed.title, 'renamed.txt');
      assert.ok(Date.parse(renamed.modifiedDate) > Date.parse(file.modifiedDate), 'no date in the body: the current time');
      const client = await driveClient(t).files.update({ fileId: file.id, setModifiedDate: true, requestBody: { description: 'through the client' } });
      assert.equal(client.status, 200);
      assert.equal(client.data.modifiedDate, renamed.modifiedDate);
    });

    it('keeps modifiedDate with fromBody and no date in the body, and sets it with one', async () => {
      const file = await insert('kept.txt');
      await advance();
      const kept = await patch(file.id, 'modifiedDateBehavior=fromBody', { title: 'kept-renamed.txt' });
      assert.equal(kept.title, 'kept-renamed.txt');
      assert.equal(kept.modifiedDate, file.modifiedDate);
      const set = await patch(file.id, 'modifiedDateBehavior=fromBody', { modifiedDate: EARLIER });
      assert.equal(set.modifiedDate, EARLIER);
    });

    it('still refuses an unknown modifiedDateBehavior, and changes nothing', async () => {
      const file = await insert('unchanged.txt');
      const r = await a(`/files/${file.id}?modifiedDateBehavior=sometimes`, { method: 'PATCH', body: { title: 'never' } });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.error.errors[0], { domain: 'global', reason: 'invalid', message: 'Invalid value for modifiedDateBehavior: sometimes', location: 'modifiedDateBehavior', locationType: 'parameter' });
      const after = (await a(`/files/${file.id}`)).body;
      assert.deepEqual([after.title, after.etag], ['unchanged.txt', file.etag]);
    });

    it("marks the file viewed by the updater unless updateViewedDate=false", async () => {
      const file = await insert('seen.txt');
      assert.equal(file.labels.viewed, false);
      const quiet = await patch(file.id, 'updateViewedDate=false', { title: 'unseen.txt' });
      assert.equal(quiet.labels.viewed, false);
      assert.equal(quiet.lastViewedByMeDate, undefined);
      await advance();
      const seen = await patch(file.id, '', { title: 'seen-again.txt' });
      assert.equal(seen.labels.viewed, true);
      assert.equal(seen.lastViewedByMeDate, seen.modifiedDate);
      const viaPut = await a(`/files/${file.id}`, { method: 'PUT', body: { title: 'put.txt' } });
      assert.equal(viaPut.body.lastViewedByMeDate, viaPut.body.modifiedDate);
    });
  });
}
