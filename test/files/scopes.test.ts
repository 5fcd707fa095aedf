// What each Drive scope admits: drive.metadata changes metadata (not content), the metadata scopes never read
// content, drive.readonly reads content, and watching is reading.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_SCOPED_TOKENS, OTHER_TOKEN, filesSuite, raw } from './helpers.ts';

const METADATA = OTHER_SCOPED_TOKENS['drive.metadata'];
const METADATA_READONLY = OTHER_SCOPED_TOKENS['drive.metadata.readonly'];
const READONLY = OTHER_SCOPED_TOKENS['drive.readonly'];

for (const database of DATABASES) {
  describe(`files scopes (${database})`, () => {
    const s = filesSuite(database);

    /** A text file and a document of the second user, made with its full-scope token. */
    const ownFiles = async () => {
      const upload = await raw(s.t, '/upload/storage/v2/files?uploadType=media', { method: 'POST', token: OTHER_TOKEN, headers: { 'content-type': 'text/plain' }, body: 'scoped bytes' });
      assert.equal(upload.status, 200);
      const doc = await s.a('/files', { token: OTHER_TOKEN, body: { title: 'scoped doc', mimeType: 'application/vnd.google-apps.document' } });
      return { file: (await upload.json()) as { id: string; md5Checksum: string }, doc: doc.body as { id: string } };
    };
    const refusedForScope = (r: { status: number; body: any }) => {
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.equal(r.body.error.message, 'Request had insufficient authentication scopes.');
      assert.equal(r.body.error.errors[0].reason, 'insufficientPermissions');
    };
    const fetched = async (res: Response) => ({ status: res.status, body: res.status === 200 ? await res.arrayBuffer() : await res.json() });

    it('lets drive.metadata change metadata, properties and labels, and touch', async () => {
      const { file } = await ownFiles();
      const patched = await s.a(`/files/${file.id}`, { method: 'PATCH', token: METADATA, body: { title: 'renamed by metadata', description: 'd' } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual([patched.body.title, patched.body.description, patched.body.md5Checksum], ['renamed by metadata', 'd', file.md5Checksum]);
      assert.equal((await s.a(`/files/${file.id}`, { method: 'PUT', token: METADATA, body: { labels: { starred: true } } })).body.labels.starred, true);
      assert.equal((await s.a(`/files/${file.id}/touch`, { method: 'POST', token: METADATA })).status, 200);
      const property = await s.a(`/files/${file.id}/properties`, { token: METADATA, body: { key: 'k', value: 'v' } });
      assert.equal(property.status, 200, property.text);
      assert.equal((await s.a(`/files/${file.id}/properties/k`, { method: 'PATCH', token: METADATA, body: { value: 'w' } })).body.value, 'w');
      assert.equal((await s.a(`/files/${file.id}/properties/k`, { method: 'DELETE', token: METADATA })).status, 204);
      const labels = await s.a(`/files/${file.id}/modifyLabels`, { token: METADATA, body: { labelModifications: [{ labelId: 'scoped-label' }] } });
      assert.equal(labels.status, 200, labels.text);
    });

    it('refuses content to drive.metadata: no upload, download or export, and the content stays', async () => {
      const { file, doc } = await ownFiles();
      const put = await raw(s.t, `/upload/storage/v2/files/${file.id}?uploadType=media`, { method: 'PUT', token: METADATA, headers: { 'content-type': 'text/plain' }, body: 'replaced' });
      refusedForScope(await fetched(put));
      refusedForScope(await fetched(await raw(s.t, `/storage/v2/files/${file.id}?alt=media`, { token: METADATA })));
      refusedForScope(await fetched(await raw(s.t, `/storage/v2/files/${doc.id}/export?mimeType=text/plain`, { token: METADATA })));
      refusedForScope(await fetched(await raw(s.t, `/uc?id=${file.id}&export=download`, { token: METADATA })));
      refusedForScope(await s.a('/files', { token: METADATA, body: { title: 'new' } }));
      const after = await s.a(`/files/${file.id}`, { token: OTHER_TOKEN });
      assert.deepEqual([after.body.md5Checksum, after.body.version], [file.md5Checksum, (file as unknown as { version: string }).version]);
      assert.equal(Buffer.from((await fetched(await raw(s.t, `/storage/v2/files/${file.id}?alt=media`, { token: OTHER_TOKEN }))).body).toString(), 'scoped bytes');
    });

    it('lets drive.metadata.readonly see metadata only, changing nothing', async () => {
      const { file } = await ownFiles();
      assert.equal((await s.a(`/files/${file.id}`, { token: METADATA_READONLY })).status, 200);
      refusedForScope(await s.a(`/files/${file.id}`, { method: 'PATCH', token: METADATA_READONLY, body: { title: 'not allowed' } }));
      refusedForScope(await s.a(`/files/${file.id}/properties`, { token: METADATA_READONLY, body: { key: 'k', value: 'v' } }));
      refusedForScope(await fetched(await raw(s.t, `/storage/v2/files/${file.id}?alt=media`, { token: METADATA_READONLY })));
      const after = await s.a(`/files/${file.id}`, { token: OTHER_TOKEN });
      assert.equal(after.body.title, 'Untitled');
      assert.deepEqual(after.body.properties, []);
    });

    it('lets drive.readonly download, export and watch, but not change metadata', async () => {
      const { file, doc } = await ownFiles();
      const media = await fetched(await raw(s.t, `/storage/v2/files/${file.id}?alt=media`, { token: READONLY }));
      assert.equal(Buffer.from(media.body).toString(), 'scoped bytes');
      assert.equal((await raw(s.t, `/storage/v2/files/${doc.id}/export?mimeType=text/plain`, { token: READONLY })).status, 200);
      refusedForScope(await s.a(`/files/${file.id}`, { method: 'PATCH', token: READONLY, body: { title: 'not allowed' } }));
      const watched = await s.a(`/files/${file.id}/watch`, { token: METADATA_READONLY, body: { id: 'scoped-channel', type: 'web_hook', address: 'https://example.com/hook' } });
      assert.equal(watched.status, 200, watched.text);
      const changes = await s.a('/changes/watch', { token: READONLY, body: { id: 'scoped-changes', type: 'web_hook', address: 'https://example.com/hook' } });
      assert.equal(changes.status, 200, changes.text);
      assert.equal((await s.a('/channels/stop', { token: READONLY, body: { id: 'scoped-changes', resourceId: changes.body.resourceId } })).status, 204);
    });
  });
}
