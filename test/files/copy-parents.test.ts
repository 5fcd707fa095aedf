// files.copy without `parents`: the copy inherits the source's parents that the caller can see (and add files to),
// as Drive documents for File.parents; with none, it lands in the caller's My Drive root.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, filesSuite } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';

for (const database of DATABASES) {
  describe(`files.copy parents (${database})`, () => {
    const s = filesSuite(database);
    const insert = async (body: Record<string, unknown>) => {
      const r = await s.a('/files', { body });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    const folder = (title: string) => insert({ title, mimeType: FOLDER });
    const share = async (fileId: string, role: string) => {
      const r = await s.a(`/files/${fileId}/permissions?sendNotificationEmails=false`, { body: { role, type: 'user', value: OTHER_EMAIL } });
      assert.equal(r.status, 200, r.text);
    };
    const parentIds = (file: { parents: Array<{ id: string }> }) => file.parents.map((p) => p.id).sort();

    it('keeps the source folders when the body names no parents', async () => {
      const [left, right] = [await folder('left'), await folder('right')];
      const source = await insert({ title: 'both.txt', parents: [{ id: left.id }, { id: right.id }] });
      for (const body of [{}, { title: 'renamed copy' }]) {
        const copy = await s.a(`/files/${source.id}/copy`, { body });
        assert.equal(copy.status, 200, copy.text);
        assert.deepEqual(parentIds(copy.body), [left.id, right.id].sort());
        const children = await s.a(`/files/${left.id}/children`);
        assert.ok(children.body.items.some((c: { id: string }) => c.id === copy.body.id));
      }
    });

    it('still copies a file of the root into the root, and follows parents given in the body', async () => {
      const source = await insert({ title: 'at-root.txt' });
      const copy = await s.a(`/files/${source.id}/copy`, { body: {} });
      assert.deepEqual([copy.status, copy.body.parents.length, copy.body.parents[0].isRoot], [200, 1, true]);
      const elsewhere = await folder('elsewhere');
      const moved = await s.a(`/files/${source.id}/copy`, { body: { parents: [{ id: elsewhere.id }] } });
      assert.deepEqual(parentIds(moved.body), [elsewhere.id]);
    });

    it("inherits only the parents another user can see and write to, else that user's root", async () => {
      const [writable, readable, hidden] = [await folder('team'), await folder('read-only'), await folder('private')];
      await share(writable.id, 'writer');
      await share(readable.id, 'reader');
      const source = await insert({ title: 'shared.txt', parents: [{ id: writable.id }, { id: readable.id }, { id: hidden.id }] });
      const copy = await s.a(`/files/${source.id}/copy`, { body: {}, token: OTHER_TOKEN });
      assert.equal(copy.status, 200, copy.text);
      assert.deepEqual(parentIds(copy.body), [writable.id]);
      assert.equal(copy.body.owners[0].emailAddress, OTHER_EMAIL);

      const readOnly = await insert({ title: 'read-only.txt', parents: [{ id: readable.id }] });
      const own = await s.a(`/files/${readOnly.id}/copy`, { body: {}, token: OTHER_TOKEN });
      assert.equal(own.status, 200, own.text);
      assert.deepEqual([own.body.parents.length, own.body.parents[0].isRoot], [1, true]);
    });
  });
}
