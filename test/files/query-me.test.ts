// `'me'` in a `q` membership term (`'me' in owners`, writers, readers) names the caller.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN } from '../helpers/runtime.ts';
import { DEV_EMAIL, OTHER_EMAIL, OTHER_TOKEN, driveClient, filesSuite } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files.list: 'me' in owners, writers and readers (${database})`, () => {
    const s = filesSuite(database);
    const client = (token: string) => driveClient(s.t, token);
    const titles = async (token: string, q: string) => {
      const listed = await client(token).files.list({ q, maxResults: 1000 });
      return (listed.data.items ?? []).map((f) => f.title).sort();
    };

    it('answers for the caller, each user seeing their own side', async () => {
      const mine = (await s.a('/files', { body: { title: 'me-owned.txt' } })).body;
      const theirs = (await s.a('/files', { body: { title: 'me-theirs.txt' }, token: OTHER_TOKEN })).body;
      const readable = (await s.a('/files', { body: { title: 'me-readable.txt' }, token: OTHER_TOKEN })).body;
      const shares = [
        await s.a(`/files/${theirs.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'writer', value: DEV_EMAIL }, token: OTHER_TOKEN }),
        await s.a(`/files/${readable.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'reader', value: DEV_EMAIL }, token: OTHER_TOKEN }),
        await s.a(`/files/${mine.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'reader', value: OTHER_EMAIL } }),
      ];
      for (const r of shares) assert.equal(r.status, 200, r.text);
      const scoped = (q: string) => `title contains 'me-' and ${q}`;

      assert.deepEqual(await titles(DEV_TOKEN, scoped("'me' in owners")), ['me-owned.txt']);
      assert.deepEqual(await titles(DEV_TOKEN, scoped(`'${DEV_EMAIL}' in owners`)), ['me-owned.txt'], "the same as the caller's address");
      assert.deepEqual(await titles(DEV_TOKEN, scoped("not 'me' in owners")), ['me-readable.txt', 'me-theirs.txt']);
      assert.deepEqual(await titles(DEV_TOKEN, scoped("'me' in writers")), ['me-owned.txt', 'me-theirs.txt']);
      assert.deepEqual(await titles(DEV_TOKEN, scoped("'me' in readers")), ['me-owned.txt', 'me-readable.txt', 'me-theirs.txt']);

      assert.deepEqual(await titles(OTHER_TOKEN, scoped("'me' in owners")), ['me-readable.txt', 'me-theirs.txt']);
      assert.deepEqual(await titles(OTHER_TOKEN, scoped("'me' in readers and not 'me' in writers")), ['me-owned.txt']);
    });
  });
}
