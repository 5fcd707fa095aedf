// Requests whose id lists outgrow what one SQL statement binds (32,766 values on SQLite, 65,535 on PostgreSQL):
// a folder with that many descendants, that many shared drives, a file given that many parents. Each answers as it
// does for a short list, never 500. The rows are written straight into the tables (through bulkInsert): creating
// tens of thousands of files through the API would take minutes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bulkInsert } from '../../src/core/db/bulk.ts';
import { rootFolderId, newFileId } from '../../src/services/files/domain/ids.ts';
import { newFileRecord } from '../../src/services/files/service.ts';
import { toRow } from '../../src/services/files/store/files.ts';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_EMAIL, api, startFiles, type Api } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const NUMERIC_COLUMNS = new Set(['is_root', 'starred', 'hidden', 'restricted', 'trashed', 'explicitly_trashed', 'trashed_at', 'created_at', 'modified_at', 'modified_by_me_at', 'version', 'file_size', 'writers_can_share']);
/**
 * One more than SQLite binds in one statement. PostgreSQL binds 65,535, but seeding twice the rows there would cost
 * seconds: both databases read these lists through the same bound array (test/core/in-list.test.ts goes past
 * PostgreSQL's limit).
 */
const PAST_LIMIT = 32_767;

for (const database of DATABASES) {
  describe(`files: lists longer than one statement binds (${database})`, () => {
    let t: TestRuntime;
    before(async () => void (t = await startFiles(database)));
    after(async () => t.close());
    const a: Api = (path, init) => api(t)(path, init);
    /** A file made through the API (its owner permission, parents and closure as any request writes them). */
    const insert = async (body: Record<string, unknown>) => {
      const made = await a('/files', { body });
      assert.equal(made.status, 200, made.text);
      return made.body;
    };

    /** `n` files owned by the development user directly in `parentId`, with their parent and ancestor rows. */
    const seedChildren = async (parentId: string, n: number, over: { mimeType?: string; trashed?: boolean } = {}): Promise<string[]> => {
      const db = t.rt.db.kysely;
      const above = (await db.selectFrom('files_ancestors').select('ancestor_id').where('file_id', '=', parentId).execute()).map((r) => r.ancestor_id as string);
      const now = Date.now();
      const ids: string[] = [];
      const files: unknown[][] = [];
      const parents: unknown[][] = [];
      const ancestors: unknown[][] = [];
      let columns: string[] = [];
      for (let i = 0; i < n; i++) {
        const id = newFileId();
        const record = newFileRecord({ id, ownerEmail: DEV_EMAIL, title: `item-${i}`, mimeType: over.mimeType ?? 'text/plain', now });
        if (over.trashed) Object.assign(record, { trashed: true, explicitlyTrashed: true, trashedAt: now, trashingUser: DEV_EMAIL });
        const row = toRow(record);
        columns = Object.keys(row);
        files.push(Object.values(row));
        parents.push([id, parentId]);
        ancestors.push([id, id]);
        for (const ancestor of above) ancestors.push([id, ancestor]);
        ids.push(id);
      }
      // On PostgreSQL each column travels as one array (unnest), far faster than rows of scalar parameters.
      const fileTypes = columns.map((c) => (NUMERIC_COLUMNS.has(c) ? 'bigint' : 'text'));
      await bulkInsert(db, 'files_files', columns, files, { pgTypes: fileTypes });
      await bulkInsert(db, 'files_parents', ['file_id', 'parent_id'], parents, { pgTypes: ['text', 'text'] });
      await bulkInsert(db, 'files_ancestors', ['file_id', 'ancestor_id'], ancestors, { pgTypes: ['text', 'text'] });
      return ids;
    };

    it('trashes and untrashes a folder with more descendants than one statement binds', async () => {
      const folder = await insert({ title: 'Archive', mimeType: FOLDER });
      // Descendants trashed on their own before: trashing the folder reads them all and leaves them as they are.
      await seedChildren(folder.id, PAST_LIMIT, { trashed: true });
      const live = await insert({ title: 'live.txt', parents: [{ id: folder.id }] });
      const trashed = await a(`/files/${folder.id}/trash`, { method: 'POST' });
      assert.equal(trashed.status, 200, trashed.text);
      assert.deepEqual([trashed.body.labels.trashed, trashed.body.explicitlyTrashed], [true, true]);
      assert.equal((await a(`/files/${live.id}`)).body.labels.trashed, true);
      const untrashed = await a(`/files/${folder.id}/untrash`, { method: 'POST' });
      assert.equal(untrashed.status, 200, untrashed.text);
      assert.equal(untrashed.body.labels.trashed, false);
      assert.equal((await a(`/files/${live.id}`)).body.labels.trashed, false);
      const stillTrashed = await t.rt.db.kysely.selectFrom('files_files').select((eb) => eb.fn.countAll().as('n')).where('trashed', '=', 1).executeTakeFirstOrThrow();
      assert.equal(Number(stillTrashed.n), PAST_LIMIT);
    });

    it('lists shared drives when there are more of them than one statement binds', async () => {
      const mine = await a('/drives?requestId=long-lists-drive', { body: { name: 'Mine' } });
      assert.equal(mine.status, 200, mine.text);
      const now = Date.now();
      const rows = Array.from({ length: PAST_LIMIT }, (_, i) => [`0AFOREIGN${i}`, `Foreign ${i}`, 'someone@example.com', `r${i}`, now, '{}']);
      await bulkInsert(t.rt.db.kysely, 'files_drives', ['id', 'name', 'creator_email', 'request_id', 'created_at', 'extra'], rows);
      const listed = await a('/drives?maxResults=100');
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body.items.map((d: any) => d.id), [mine.body.id]);
    });

    it('creates and copies a file into more parent folders than one statement binds as pairs', async () => {
      await insert({ title: 'warm-up' });
      // Each parent row binds two values (file, parent): half the statement limit is already too many.
      const folders = await seedChildren(rootFolderId(DEV_EMAIL), Math.ceil(PAST_LIMIT / 2), { mimeType: FOLDER });
      const parents = folders.map((id) => ({ id }));
      const made = await a('/files', { body: { title: 'everywhere.txt', parents } });
      assert.equal(made.status, 200, made.text);
      assert.equal(made.body.parents.length, folders.length);
      const copy = await a(`/files/${made.body.id}/copy`, { body: { title: 'copy.txt', parents } });
      assert.equal(copy.status, 200, copy.text);
      assert.equal(copy.body.parents.length, folders.length);
    });
  });
}
