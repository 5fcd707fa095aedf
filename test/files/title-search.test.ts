// `title contains` answers the same whether or not the trigram index narrows it (SQLite): values of every length,
// LIKE's special characters, quotes, case, and titles that were renamed, trashed or deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { api, startFiles, type Api } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files title contains (${database})`, () => {
    let t: TestRuntime;
    let call: Api;
    const ids = new Map<string, string>();

    const titles = (q: string) =>
      call(`/files?q=${encodeURIComponent(q)}&maxResults=1000`).then((r) => {
        assert.equal(r.status, 200, r.text);
        return (r.body.items as Array<{ title: string }>).map((f) => f.title).sort();
      });

    before(async () => {
      t = await startFiles(database);
      call = api(t);
      for (const title of ['Quarterly Report.txt', 'report-2024.txt', '100%_done.txt', '100x done.txt', 'say "hi".txt', "it's.txt", 'Ünïcode Ärger.txt', 'ab', 'old name.txt', 'gone.txt']) {
        const r = await call('/files', { method: 'POST', body: { title } });
        assert.equal(r.status, 200, r.text);
        ids.set(title, r.body.id);
      }
    });

    after(async () => {
      await t.close();
    });

    it('matches substrings of any length, case-insensitively', async () => {
      assert.deepEqual(await titles("title contains 'report'"), ['Quarterly Report.txt', 'report-2024.txt']);
      assert.deepEqual(await titles("title contains 'REPORT-20'"), ['report-2024.txt']);
      assert.deepEqual(await titles("title contains 'ab'"), ['ab']);
      assert.deepEqual(await titles("title contains 'b'"), ['ab']);
      assert.deepEqual(await titles("title contains 'ärger'"), ['Ünïcode Ärger.txt']);
      assert.deepEqual(await titles("title contains 'nomatch'"), []);
    });

    it('treats LIKE wildcards and quotes literally', async () => {
      assert.deepEqual(await titles("title contains '100%_'"), ['100%_done.txt']);
      assert.deepEqual(await titles("title contains '0%_d'"), ['100%_done.txt']);
      assert.deepEqual(await titles("title contains 'say \"hi\"'"), ['say "hi".txt']);
      assert.deepEqual(await titles("title contains 'it\\'s'"), ["it's.txt"]);
    });

    it('follows renames, negation and deletion', async () => {
      const renamed = await call(`/files/${ids.get('old name.txt')}`, { method: 'PATCH', body: { title: 'new title.txt' } });
      assert.equal(renamed.status, 200, renamed.text);
      assert.deepEqual(await titles("title contains 'old name'"), []);
      assert.deepEqual(await titles("title contains 'new title'"), ['new title.txt']);
      const deleted = await call(`/files/${ids.get('gone.txt')}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204, deleted.text);
      assert.deepEqual(await titles("title contains 'gone'"), []);
      const all = await titles("not title contains 'report' and not title contains 'txt'");
      assert.deepEqual(all, ['ab']);
    });
  });
}
