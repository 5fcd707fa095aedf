// files.list pages through `nextLink` as well as `nextPageToken` (the link repeats every parameter of the request),
// comments.list and replies.list page the same way, and an invalid `q` is answered with the grammar's own message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN } from '../helpers/runtime.ts';
import { filesSuite } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files.list links and query errors (${database})`, () => {
    const s = filesSuite(database);

    it('follows nextLink to the next page of the same query, order and page size', async () => {
      for (const title of ['linked c', 'linked a', 'linked b', 'unrelated']) {
        assert.equal((await s.a('/files', { body: { title } })).status, 200);
      }
      const q = encodeURIComponent("title contains 'linked'");
      const first = await s.a(`/files?q=${q}&orderBy=title&maxResults=2`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body.items.map((f: { title: string }) => f.title), ['linked a', 'linked b']);
      const link = new URL(first.body.nextLink);
      assert.equal(link.searchParams.get('pageToken'), first.body.nextPageToken);
      assert.equal(link.searchParams.get('q'), "title contains 'linked'");
      const next = await fetch(link, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      const page = (await next.json()) as { items: Array<{ title: string }>; nextLink?: string };
      assert.equal(next.status, 200, JSON.stringify(page));
      assert.deepEqual(page.items.map((f) => f.title), ['linked c']);
      assert.equal(page.nextLink, undefined);
    });

    it('gives children.list and changes.list a nextLink that reads their next page', async () => {
      const follow = async (link: string) => {
        const r = await fetch(link, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
        assert.equal(r.status, 200);
        return (await r.json()) as { items: Array<{ id: string }>; nextLink?: string };
      };
      const folder = (await s.a('/files', { body: { title: 'paged folder', mimeType: 'application/vnd.google-apps.folder' } })).body;
      const start = (await s.a('/changes/startPageToken')).body.startPageToken;
      const ids: string[] = [];
      for (const title of ['one', 'two', 'three']) ids.push((await s.a('/files', { body: { title, parents: [{ id: folder.id }] } })).body.id);

      const children = await s.a(`/files/${folder.id}/children?maxResults=2&orderBy=createdDate`);
      assert.equal(new URL(children.body.nextLink).searchParams.get('maxResults'), '2');
      const rest = await follow(children.body.nextLink);
      assert.deepEqual([...children.body.items, ...rest.items].map((c: { id: string }) => c.id), ids);
      assert.equal(rest.nextLink, undefined);

      const changes = await s.a(`/changes?pageToken=${start}&maxResults=2`);
      const more = await follow(changes.body.nextLink);
      assert.deepEqual([...changes.body.items, ...more.items].map((c: { fileId: string }) => c.fileId), ids);
      assert.equal(more.nextLink, undefined);
    });

    it('gives comments.list and replies.list a nextLink that reads their next page', async () => {
      const follow = async (link: string) => {
        const r = await fetch(link, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
        assert.equal(r.status, 200);
        return (await r.json()) as { items: Array<{ commentId?: string; replyId?: string }>; nextLink?: string };
      };
      const file = (await s.a('/files', { body: { title: 'discussed' } })).body;
      const comments: string[] = [];
      for (const content of ['first', 'second', 'third']) comments.push((await s.a(`/files/${file.id}/comments`, { body: { content } })).body.commentId);
      const replies: string[] = [];
      for (const content of ['re one', 're two', 're three']) replies.push((await s.a(`/files/${file.id}/comments/${comments[0]}/replies`, { body: { content } })).body.replyId);

      const page = await s.a(`/files/${file.id}/comments?maxResults=2&includeDeleted=false`);
      assert.equal(page.status, 200, page.text);
      const link = new URL(page.body.nextLink);
      assert.deepEqual([link.searchParams.get('pageToken'), link.searchParams.get('maxResults'), link.searchParams.get('includeDeleted')], [page.body.nextPageToken, '2', 'false']);
      const rest = await follow(page.body.nextLink);
      assert.deepEqual([...page.body.items, ...rest.items].map((c: { commentId?: string }) => c.commentId), comments);
      assert.equal(rest.nextLink, undefined);

      const replyPage = await s.a(`/files/${file.id}/comments/${comments[0]}/replies?maxResults=2`);
      const moreReplies = await follow(replyPage.body.nextLink);
      assert.deepEqual([...replyPage.body.items, ...moreReplies.items].map((r: { replyId?: string }) => r.replyId), replies);
      assert.equal(moreReplies.nextLink, undefined);
      assert.equal((await s.a(`/files/${file.id}/comments?maxResults=3`)).body.nextLink, undefined, 'no link on the last page');
    });

    it('answers an invalid q with the reason invalid, location q and one "Invalid query" prefix', async () => {
      const before = await s.a('/files');
      const r = await s.a(`/files?q=${encodeURIComponent("name = 'x'")}`);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.error.errors, [
        { domain: 'global', reason: 'invalid', message: "Invalid query: unknown search term 'name' at position 0", location: 'q', locationType: 'parameter' },
      ]);
      assert.equal(r.body.error.message, "Invalid query: unknown search term 'name' at position 0");
      assert.deepEqual((await s.a('/files')).body.items, before.body.items);
    });
  });
}
