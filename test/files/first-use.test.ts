// A caller's My Drive and application data folders are made at their first request. Requests of a new caller that
// arrive together (a client uploading in parallel) must each be served, and the roots made once: on PostgreSQL
// concurrent units once raced to insert them and all but one answered 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, count, filesSuite, raw } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files: a new caller's first requests together (${database})`, () => {
    const s = filesSuite(database);

    it('serves every one of eight concurrent first uploads and makes each root once', async () => {
      const filesBefore = await count(s.t, 'files_files');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          raw(s.t, '/upload/storage/v2/files?uploadType=media', { method: 'POST', token: OTHER_TOKEN, headers: { 'content-type': 'text/plain' }, body: `upload ${i}` }),
        ),
      );
      assert.deepEqual(answers.map((r) => r.status), Array(8).fill(200), await answers[0].clone().text());
      const uploaded = await Promise.all(answers.map((r) => r.json()));
      // Eight files and the caller's two roots.
      assert.equal(await count(s.t, 'files_files'), filesBefore + 10);
      const root = await (await raw(s.t, '/storage/v2/files/root', { token: OTHER_TOKEN })).json();
      assert.ok(uploaded.every((f) => f.parents.length === 1 && f.parents[0].id === root.id));
      assert.deepEqual(root.owners.map((o: { emailAddress: string }) => o.emailAddress), [OTHER_EMAIL]);
    });
  });
}
