// `modifiedByMeDate` is each user's own last change of a file, shown only to them; `lastModifyingUser` names whoever
// made the file's last change. Every content or metadata change sets both; `orderBy=modifiedByMeDate` reads the
// caller's own dates, and Drive v2 has no `q` term for it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, advanceClock, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_EMAIL, OTHER_EMAIL, OTHER_TOKEN, api, count, raw, startFiles, type Api } from './helpers.ts';

const EARLIER = '2020-05-06T07:08:09.000Z';

for (const database of DATABASES) {
  describe(`files: modifiedByMeDate per user (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    before(async () => {
      t = await startFiles(database, {}, 'manual');
      a = api(t);
    });
    after(async () => t.close());

    /** Moves the manual clock on, so that "now" differs from every date written before. */
    const advance = () => advanceClock(t, '1h');
    const ok = async (path: string, init: Parameters<Api>[1] = {}) => {
      const r = await a(path, init);
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const asOther = (path: string, init: Parameters<Api>[1] = {}) => ok(path, { ...init, token: OTHER_TOKEN });
    /** A file of the development user that the other user may edit. */
    const sharedFile = async (title: string, parents?: string[]) => {
      const file = await ok('/files', { body: { title, ...(parents ? { parents: parents.map((id) => ({ id })) } : {}) } });
      await ok(`/files/${file.id}/permissions?sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      return file;
    };

    it('keeps each user their own date and names the last modifier', async () => {
      const file = await sharedFile('per-user.txt');
      assert.equal(file.modifiedByMeDate, file.createdDate, 'the creator changed it when creating it');
      assert.equal(file.lastModifyingUser.emailAddress, DEV_EMAIL);
      const unseen = await asOther(`/files/${file.id}`);
      assert.equal(unseen.modifiedByMeDate, undefined, 'the other user never changed it');
      assert.equal(unseen.lastModifyingUser.isAuthenticatedUser, false);

      await advance();
      const renamed = await asOther(`/files/${file.id}`, { method: 'PATCH', body: { title: 'renamed.txt' } });
      assert.equal(renamed.modifiedByMeDate, renamed.modifiedDate);
      assert.ok(Date.parse(renamed.modifiedByMeDate) > Date.parse(file.modifiedByMeDate));
      assert.deepEqual([renamed.lastModifyingUser.emailAddress, renamed.lastModifyingUser.isAuthenticatedUser, renamed.lastModifyingUserName], [OTHER_EMAIL, true, 'Other User']);

      const asOwner = await ok(`/files/${file.id}`);
      assert.equal(asOwner.modifiedByMeDate, file.modifiedByMeDate, "the other user's change is not the owner's");
      assert.equal(asOwner.modifiedDate, renamed.modifiedDate);
      assert.deepEqual([asOwner.lastModifyingUser.emailAddress, asOwner.lastModifyingUser.isAuthenticatedUser], [OTHER_EMAIL, false]);
      const listed = await ok(`/files?q=${encodeURIComponent(`title = 'renamed.txt'`)}`);
      assert.equal(listed.items[0].modifiedByMeDate, file.modifiedByMeDate);
    });

    it('is set by content uploads, touch, properties and labels, each by their own user', async () => {
      const file = await sharedFile('changes.txt');
      const steps: Array<[string, () => Promise<unknown>]> = [
        ['content', async () => {
          const r = await raw(t, `/upload/storage/v2/files/${file.id}?uploadType=media`, { method: 'PUT', token: OTHER_TOKEN, headers: { 'content-type': 'text/plain' }, body: 'new bytes' });
          assert.equal(r.status, 200, await r.text());
        }],
        ['touch', () => asOther(`/files/${file.id}/touch`, { method: 'POST' })],
        ['property insert', () => asOther(`/files/${file.id}/properties`, { body: { key: 'k', value: 'v' } })],
        ['property patch', () => asOther(`/files/${file.id}/properties/k?visibility=PRIVATE`, { method: 'PATCH', body: { value: 'w' } })],
        ['property delete', async () => assert.equal((await a(`/files/${file.id}/properties/k?visibility=PRIVATE`, { method: 'DELETE', token: OTHER_TOKEN })).status, 204)],
        ['labels', () => asOther(`/files/${file.id}/modifyLabels`, { body: { labelModifications: [{ labelId: 'label-1', fieldModifications: [{ fieldId: 'f', setTextValues: ['x'] }] }] } })],
      ];
      for (const [name, step] of steps) {
        const before = await asOther(`/files/${file.id}`);
        await advance();
        await step();
        const after = await asOther(`/files/${file.id}`);
        assert.ok(after.modifiedByMeDate && (!before.modifiedByMeDate || Date.parse(after.modifiedByMeDate) > Date.parse(before.modifiedByMeDate)), name);
        assert.equal(after.modifiedDate, after.modifiedByMeDate, name);
        assert.notEqual(after.etag, before.etag, name);
        assert.equal(after.lastModifyingUser.emailAddress, OTHER_EMAIL, name);
        assert.equal((await ok(`/files/${file.id}`)).modifiedByMeDate, file.modifiedByMeDate, `${name}: not the owner's change`);
      }
    });

    it('takes the modifiedDate the body sets, as Drive documents', async () => {
      const file = await sharedFile('dated.txt');
      await advance();
      const dated = await asOther(`/files/${file.id}?setModifiedDate=true`, { method: 'PATCH', body: { modifiedDate: EARLIER } });
      assert.deepEqual([dated.modifiedDate, dated.modifiedByMeDate], [EARLIER, EARLIER]);
      await advance();
      const kept = await asOther(`/files/${file.id}?modifiedDateBehavior=noChange`, { method: 'PATCH', body: { description: 'kept date' } });
      assert.equal(kept.modifiedDate, EARLIER);
      assert.ok(Date.parse(kept.modifiedByMeDate) > Date.parse(file.createdDate), 'a change that keeps modifiedDate is still the caller\'s, now');
    });

    it('names the creator of a shared drive item as its last modifier', async () => {
      const drive = await ok('/drives?requestId=modified-by-me-drive', { body: { name: 'Team' } });
      const item = await ok('/files?supportsAllDrives=true', { body: { title: 'team.txt', parents: [{ id: drive.id }] } });
      assert.deepEqual([item.lastModifyingUser?.emailAddress, item.lastModifyingUser?.isAuthenticatedUser, item.modifiedByMeDate], [DEV_EMAIL, true, item.createdDate]);
    });

    it("orders by the caller's own dates: files never changed (or viewed) first ascending, last descending", async () => {
      const folder = await ok('/files', { body: { title: 'order-folder', mimeType: 'application/vnd.google-apps.folder' } });
      await ok(`/files/${folder.id}/permissions?sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      const make = async (title: string) => {
        await advance();
        return (await ok('/files', { body: { title, parents: [{ id: folder.id }] } })).id as string;
      };
      const older = await make('older');
      const newer = await make('newer');
      await make('untouched');
      await advance();
      await asOther(`/files/${newer}`, { method: 'PATCH', body: { description: 'first' } });
      await advance();
      await asOther(`/files/${older}`, { method: 'PATCH', body: { description: 'second' } });
      const titles = async (orderBy: string, token?: string) =>
        (await ok(`/files?q=${encodeURIComponent(`'${folder.id}' in parents`)}&orderBy=${encodeURIComponent(orderBy)}`, token ? { token } : {})).items.map((f: { title: string }) => f.title);
      assert.deepEqual(await titles('modifiedByMeDate', OTHER_TOKEN), ['untouched', 'newer', 'older']);
      assert.deepEqual(await titles('modifiedByMeDate desc', OTHER_TOKEN), ['older', 'newer', 'untouched']);
      // The owner's own dates are the creations: the other user's later changes do not move them.
      assert.deepEqual(await titles('modifiedByMeDate desc'), ['untouched', 'newer', 'older']);
      assert.deepEqual(await titles('lastViewedByMeDate', OTHER_TOKEN), ['untouched', 'newer', 'older']);
      assert.deepEqual(await titles('lastViewedByMeDate desc', OTHER_TOKEN), ['older', 'newer', 'untouched']);
    });

    it('has no q term, as Drive v2 documents none', async () => {
      const r = await a(`/files?q=${encodeURIComponent(`modifiedByMeDate > '2020-01-01'`)}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.errors[0].location, 'q');
    });

    it('leaves every date and the last modifier as they were when a change is refused', async () => {
      const file = await sharedFile('refused.txt');
      const rowsBefore = await count(t, 'files_modifications');
      await advance();
      const badDate = await a(`/files/${file.id}?setModifiedDate=true`, { method: 'PATCH', token: OTHER_TOKEN, body: { modifiedDate: 'not a date' } });
      assert.equal(badDate.status, 400, badDate.text);
      assert.equal(badDate.body.error.errors[0].location, 'modifiedDate');
      const tooLong = await a(`/files/${file.id}/properties`, { token: OTHER_TOKEN, body: { key: 'k', value: 'v'.repeat(200) } });
      assert.equal(tooLong.status, 400, tooLong.text);
      assert.equal(await count(t, 'files_modifications'), rowsBefore);
      const seen = await asOther(`/files/${file.id}`);
      assert.deepEqual([seen.modifiedByMeDate, seen.modifiedDate, seen.etag, seen.lastModifyingUser.emailAddress], [undefined, file.modifiedDate, file.etag, DEV_EMAIL]);
    });

    it('keeps each user their dates across a restart', async () => {
      const file = await sharedFile('durable.txt');
      await advance();
      const changed = await asOther(`/files/${file.id}`, { method: 'PATCH', body: { title: 'durable-renamed.txt' } });
      await t.restart();
      a = api(t);
      assert.equal((await asOther(`/files/${file.id}`)).modifiedByMeDate, changed.modifiedByMeDate);
      assert.equal((await ok(`/files/${file.id}`)).modifiedByMeDate, file.modifiedByMeDate);
    });
  });
}
