// permissions.insert and permissions.update look the file up before they read the body: an unknown file, or one the
// caller cannot see, is a 404 whatever the body holds; a caller who may not share gets 403 before a bad body's 400.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, count, filesSuite } from './helpers.ts';

const BAD_BODIES: Array<Record<string, unknown>> = [{}, { role: 'king', type: 'user', value: OTHER_EMAIL }, { role: 'reader', type: 'user', value: 'nobody' }, { role: 'reader', type: 'planet' }];

for (const database of DATABASES) {
  describe(`files permission checks in order (${database})`, () => {
    const s = filesSuite(database);
    const notFound = (id: string) => ({
      error: {
        code: 404,
        message: `File not found: ${id}`,
        errors: [{ domain: 'global', reason: 'notFound', message: `File not found: ${id}`, locationType: 'parameter', location: 'fileId' }],
        status: 'NOT_FOUND',
      },
    });
    // A user's root folder (and its owner permission) is made at their first request: both users make theirs before
    // the permissions are counted.
    const permissionRows = async () => {
      for (const token of [undefined, OTHER_TOKEN]) assert.equal((await s.a('/files/root', { token })).status, 200);
      return count(s.t, 'files_permissions');
    };
    const privateFile = async () => {
      const r = await s.a('/files', { body: { title: 'private.txt' } });
      assert.equal(r.status, 200, r.text);
      return r.body.id as string;
    };

    it('answers 404 for an unknown file before looking at the body, and stores nothing', async () => {
      const before = await permissionRows();
      for (const body of BAD_BODIES) {
        const inserted = await s.a('/files/no-such-file/permissions', { body });
        assert.deepEqual([inserted.status, inserted.body], [404, notFound('no-such-file')], JSON.stringify(body));
        const updated = await s.a('/files/no-such-file/permissions/anyone', { method: 'PATCH', body: { ...body, role: 'king' } });
        assert.deepEqual([updated.status, updated.body], [404, notFound('no-such-file')], JSON.stringify(body));
      }
      assert.equal(await count(s.t, 'files_permissions'), before);
    });

    it('answers 404 for a file the caller cannot see, whatever the body', async () => {
      const id = await privateFile();
      const before = await permissionRows();
      for (const body of BAD_BODIES) {
        const res = await s.a(`/files/${id}/permissions`, { body, token: OTHER_TOKEN });
        assert.deepEqual([res.status, res.body], [404, notFound(id)], JSON.stringify(body));
      }
      assert.equal(await count(s.t, 'files_permissions'), before);
    });

    it('answers 403 to a reader who may not share, before the body', async () => {
      const id = await privateFile();
      const shared = await s.a(`/files/${id}/permissions?sendNotificationEmails=false`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL } });
      assert.equal(shared.status, 200, shared.text);
      const before = await permissionRows();
      const res = await s.a(`/files/${id}/permissions`, { body: { role: 'king', type: 'user', value: OTHER_EMAIL }, token: OTHER_TOKEN });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.error.errors[0].reason, 'insufficientFilePermissions');
      assert.equal(await count(s.t, 'files_permissions'), before);
    });

    it('still answers 400 for a bad body on a file the caller may share, and for a body that is not a JSON object', async () => {
      const id = await privateFile();
      const before = await permissionRows();
      const bad = await s.a(`/files/${id}/permissions`, { body: { role: 'king', type: 'user', value: OTHER_EMAIL } });
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual(bad.body.error.errors[0], { domain: 'global', reason: 'invalid', message: 'Invalid permission role: king', locationType: 'parameter', location: 'role' });
      const notObject = await s.a('/files/no-such-file/permissions', { raw: '[1]', headers: { 'content-type': 'application/json' } });
      assert.equal(notObject.status, 400, notObject.text);
      assert.equal(await count(s.t, 'files_permissions'), before);
    });
  });
}
