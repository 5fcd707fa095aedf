// The metadata of a resumable upload session is JSON the upload path parses itself (its bodies arrive as bytes): it
// is held to the limits of every JSON body, so that one nested thousands of levels deep (which the session could not
// store) is a 400, not a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN, type TestRuntime } from '../helpers/runtime.ts';
import { raw, startFiles } from './helpers.ts';

/** `{"a":{"a":...1...}}`, `depth` levels deep, as text (a client's bytes). */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

for (const database of DATABASES) {
  describe(`files: resumable session metadata (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startFiles(database);
    });
    after(async () => t.close());

    const open = (metadata: string) =>
      raw(t, '/upload/storage/v2/files?uploadType=resumable', { method: 'POST', headers: { 'content-type': 'application/json' }, body: metadata });

    it('refuses metadata nested deeper than any JSON body may be', async () => {
      for (const depth of [101, 20_000]) {
        const res = await open(`{"title":"deep.txt","unknown":${nested(depth)}}`);
        const body = await res.json();
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(body.error.errors[0].reason, 'parseError');
        assert.match(body.error.message, /nesting is deeper than 100 levels/);
      }
    });

    it('still opens and completes a session whose metadata is nested within the limit', async () => {
      const opened = await open(`{"title":"shallow.txt","unknown":${nested(50)}}`);
      assert.equal(opened.status, 200, await opened.text());
      const done = await fetch(opened.headers.get('location')!, { method: 'PUT', headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'text/plain' }, body: 'hello' });
      const file = await done.json();
      assert.equal(done.status, 200, JSON.stringify(file));
      assert.equal(file.title, 'shallow.txt');
      assert.equal(file.fileSize, '5');
    });
  });
}
