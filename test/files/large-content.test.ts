// Content large enough to convert on the worker thread (ops/convert.ts IN_PLACE_BYTES), and the content text kept for
// fullText: only the part that is searched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importUpload } from '../../src/services/files/domain/conversion-jobs.ts';
import { MAX_CONTENT_TEXT } from '../../src/services/files/domain/search-text.ts';
import { migrations } from '../../src/services/files/migrations.ts';
import { IN_PLACE_BYTES, prepareUpload } from '../../src/services/files/ops/convert.ts';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { count, raw, filesSuite } from './helpers.ts';

/** A CSV of `rows` rows, the first cell of row i naming it, larger than IN_PLACE_BYTES from 2,000 rows. */
const csv = (rows: number) => Array.from({ length: rows }, (_, i) => `row${i},alpha ${i},"quoted, ${i}",${i * 3}`).join('\n') + '\n';

/** The extra column of a file's row: where the searched content text is kept. */
async function storedExtra(t: TestRuntime, id: string): Promise<string> {
  const row = await t.rt.db.kysely.selectFrom('files_files').select('extra').where('id', '=', id).executeTakeFirstOrThrow();
  return row.extra as string;
}

describe('files conversions off the event loop', () => {
  it('converts a large upload on the worker to what converting it in place gives', async () => {
    const data = Buffer.from(csv(3_000));
    assert.ok(data.length > IN_PLACE_BYTES);
    const onWorker = await prepareUpload(data, 'text/csv', true, undefined);
    const inPlace = importUpload('text/csv', data);
    assert.ok(Buffer.isBuffer(onWorker.data));
    assert.deepEqual(onWorker, inPlace);
    assert.equal(onWorker.mimeType, 'application/vnd.google-apps.spreadsheet');
  });
});

for (const database of DATABASES) {
  describe(`files large content (${database})`, () => {
    const suite = filesSuite(database);

    const upload = async (query: string, type: string, body: string) => {
      const res = await raw(suite.t, `/upload/storage/v2/files?${query}`, { method: 'POST', headers: { 'content-type': type }, body });
      return { status: res.status, body: await res.json() };
    };
    const search = async (word: string) => (await suite.a(`/files?q=${encodeURIComponent(`fullText contains '${word}'`)}`)).body.items.map((f: any) => f.id);

    it('converts a large CSV into a spreadsheet that exports back and is searched', async () => {
      const text = csv(3_000);
      const sheet = await upload('uploadType=media&convert=true', 'text/csv', text);
      assert.equal(sheet.status, 200, JSON.stringify(sheet.body));
      assert.equal(sheet.body.mimeType, 'application/vnd.google-apps.spreadsheet');
      const exported = await raw(suite.t, `/storage/v2/files/${sheet.body.id}/export?mimeType=text/csv`);
      assert.equal(exported.status, 200);
      const lines = (await exported.text()).trim().split(/\r?\n/);
      assert.equal(lines.length, 3_000);
      assert.equal(lines[2_999], 'row2999,alpha 2999,"quoted, 2999",8997');
      assert.deepEqual(await search('row1234'), [sheet.body.id]);
    });

    it('refuses a large CSV that does not convert with the same 400 as a small one, creating nothing', async () => {
      const before = await count(suite.t, 'files_files');
      const refused = await upload('uploadType=media&convert=true', 'text/csv', `${csv(3_000)}a,"never closed\n`);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.errors[0].reason, 'badRequest');
      assert.match(refused.body.error.message, /cannot be read as rows/);
      assert.equal(await count(suite.t, 'files_files'), before);
    });

    it('keeps only the searched part of a long text: the start is found, the end is not', async () => {
      const body = `${'opening words '.repeat(1_000)}${'filler '.repeat(60_000)}closingword\n`;
      assert.ok(body.length > MAX_CONTENT_TEXT);
      const file = await upload('uploadType=media', 'text/plain', body);
      assert.equal(file.status, 200);
      assert.deepEqual(await search('opening'), [file.body.id]);
      assert.deepEqual(await search('closingword'), [], 'beyond the searched part, as before');
      const extra = JSON.parse(await storedExtra(suite.t, file.body.id));
      assert.equal(extra.contentText.length, MAX_CONTENT_TEXT);
    });

    it('cuts the content text of files stored before, once, by migration', async () => {
      const file = await upload('uploadType=media', 'text/plain', 'short words only');
      const whole = `needle ${'x'.repeat(MAX_CONTENT_TEXT + 10_000)}`;
      const extra = JSON.parse(await storedExtra(suite.t, file.body.id));
      await suite.t.rt.db.kysely.updateTable('files_files').set({ extra: JSON.stringify({ ...extra, contentText: whole }) }).where('id', '=', file.body.id).execute();
      await migrations['0003_content_text_cut'].up(suite.t.rt.db.kysely);
      const after = JSON.parse(await storedExtra(suite.t, file.body.id));
      assert.equal(after.contentText, whole.slice(0, MAX_CONTENT_TEXT));
      assert.deepEqual({ ...after, contentText: undefined }, { ...extra, contentText: undefined }, 'nothing else in extra changed');
      assert.equal((await suite.a(`/files/${file.body.id}`)).status, 200);
    });
  });
}
