// The file storage's OpenAPI document describes each method's parameters and request body, and requests derived
// from those descriptions (valid credentials, real fixtures) never get a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { permissionIdForEmail } from '../../src/services/files/domain/roles.ts';
import { manifest } from '../../src/services/files/index.ts';
import { DATABASES, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import type { FuzzRoute } from '../fuzz/routes.ts';
import { OTHER_EMAIL, api, type Api } from './helpers.ts';
import { recording, sendSchemaRequests } from '../helpers/schema-requests.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

for (const database of DATABASES) {
  describe(`files OpenAPI request shapes (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    let doc: any;
    const routes: FuzzRoute[] = [];
    before(async () => {
      t = await startTestRuntime({ services: [recording(manifest, routes)], database });
      a = api(t);
      doc = await (await fetch(`${t.url('files')}/openapi.json`)).json();
    });
    after(async () => t.close());

    const bodyOf = (path: string, method: string) => doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
    const parameter = (path: string, method: string, name: string) => doc.paths[path]?.[method]?.parameters?.find((p: any) => p.name === name);

    it('describes the File resource of insert, patch, copy and a resumable upload', () => {
      for (const [path, method] of [['/storage/v2/files', 'post'], ['/drive/v2/files/{fileId}', 'patch'], ['/storage/v2/files/{fileId}/copy', 'post'], ['/upload/storage/v2/files', 'post']]) {
        const file = bodyOf(path, method);
        assert.ok(file, `${method} ${path} has a JSON body`);
        assert.equal(file.properties.title.maxLength, 32_767);
        assert.equal(file.properties.labels.properties.starred.type, 'boolean');
        assert.equal(file.properties.parents.items.properties.id.type, 'string');
        assert.equal(file.properties.modifiedDate.format, 'date-time');
        assert.equal(file.properties.properties.items.properties.visibility.enum.join(), 'PRIVATE,PUBLIC');
        assert.notEqual(file.additionalProperties, false, 'read-only fields sent back are ignored');
      }
      assert.equal(parameter('/upload/storage/v2/files', 'post', 'uploadType').schema.enum.join(), 'media,multipart,resumable');
    });

    it('describes permissions, comments, drives and labels bodies with what the handlers require', () => {
      const permission = bodyOf('/storage/v2/files/{fileId}/permissions', 'post');
      assert.deepEqual([...permission.required].sort(), ['role', 'type']);
      assert.ok(permission.properties.role.enum.includes('writer'));
      assert.equal(bodyOf('/storage/v2/files/{fileId}/permissions/{permissionId}', 'patch').required, undefined);
      assert.equal(bodyOf('/storage/v2/files/{fileId}/comments', 'post').properties.content.maxLength, 32_768);
      assert.deepEqual(bodyOf('/storage/v2/files/{fileId}/comments/{commentId}/replies', 'post').properties.verb.enum, ['resolve', 'reopen']);
      const drive = bodyOf('/storage/v2/drives', 'post');
      assert.deepEqual(drive.required, ['name']);
      assert.equal(drive.properties.restrictions.additionalProperties, false);
      assert.equal(parameter('/storage/v2/drives', 'post', 'requestId').required, true);
      assert.deepEqual(bodyOf('/storage/v2/files/{fileId}/modifyLabels', 'post').required, ['labelModifications']);
      assert.deepEqual(bodyOf('/storage/v2/files/{fileId}/watch', 'post').required, ['id', 'address']);
    });

    it('describes path and query parameters with the bounds the handlers enforce', () => {
      assert.equal(parameter('/storage/v2/files', 'get', 'maxResults').schema.maximum, 1000);
      assert.ok(parameter('/storage/v2/files', 'get', 'corpora').schema.enum.includes('allDrives'));
      assert.equal(parameter('/storage/v2/files/{fileId}', 'get', 'fileId').in, 'path');
      assert.equal(parameter('/storage/v2/files/{fileId}/export', 'get', 'mimeType').required, true);
      assert.equal(parameter('/storage/v2/files/{fileId}/permissions', 'get', 'maxResults').schema.maximum, 100);
      assert.equal(parameter('/storage/v2/files/{fileId}/comments', 'get', 'maxResults').schema.maximum, 100);
      assert.equal(parameter('/storage/v2/files/generateIds', 'get', 'prettyPrint').schema.type, 'boolean', 'system parameters too');
      for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(methods)) {
          if (method === 'head') continue;
          assert.ok(op.parameters?.some((p: any) => p.name === 'quotaUser'), `${method} ${path} documents its query string`);
        }
      }
    });

    it('answers requests derived from the documented schemas without a 5xx', async () => {
      const file = (await a('/files', { body: { title: 'fuzzed.txt', mimeType: 'text/plain' } })).body;
      const comment = (await a(`/files/${file.id}/comments`, { body: { content: 'first' } })).body;
      const reply = (await a(`/files/${file.id}/comments/${comment.commentId}/replies`, { body: { content: 'second' } })).body;
      await a(`/files/${file.id}/properties`, { body: { key: 'k1', value: 'v' } });
      const permission = (await a(`/files/${file.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'reader', value: OTHER_EMAIL } })).body;
      const drive = (await a('/drives?requestId=fuzz-fixture', { body: { name: 'Fuzzed drive' } })).body;
      assert.ok(file.id && comment.commentId && reply.replyId && permission.id && drive.id);
      const values: Record<string, string> = {
        fileId: file.id,
        folderId: 'root',
        childId: file.id,
        parentId: 'root',
        permissionId: permission.id,
        commentId: comment.commentId,
        replyId: reply.replyId,
        propertyKey: 'k1',
        revisionId: 'head',
        changeId: '1',
        driveId: drive.id,
        appId: '619683526622',
        email: OTHER_EMAIL,
      };
      const { failures, statuses } = await sendSchemaRequests({
        base: t.url('files'),
        routes: routes.filter((r) => r.url.startsWith('/storage/v2/') || r.url.startsWith('/upload/storage/v2/')),
        include: (_route, method) => method !== 'DELETE',
        pathValue: (name) => values[name] ?? 'x',
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
        runs: RUNS,
      });
      assert.deepEqual(failures, []);
      assert.ok((statuses[200] ?? 0) > RUNS * 10, `plausible requests succeed: ${JSON.stringify(statuses)}`);
      assert.equal(permissionIdForEmail(OTHER_EMAIL), permission.id);
    });
  });
}
