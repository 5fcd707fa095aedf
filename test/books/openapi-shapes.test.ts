// The book library's OpenAPI document describes each method's path and query parameters (Books methods take no
// request body), and requests derived from those descriptions never get a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manifest } from '../../src/services/books/index.ts';
import { DATABASES, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import type { FuzzRoute } from '../fuzz/routes.ts';
import { recording, sendSchemaRequests } from '../helpers/schema-requests.ts';
import { bearer, createUser, findVolumeId, type TestUser } from './helpers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

for (const database of DATABASES) {
  describe(`books OpenAPI request shapes (${database})`, () => {
    let t: TestRuntime;
    let reader: TestUser;
    let doc: any;
    const routes: FuzzRoute[] = [];
    before(async () => {
      t = await startTestRuntime({ services: [recording(manifest, routes)], database, clock: 'manual', settings: { books: { catalog: 'sample' } } });
      reader = await createUser(t, 'reader');
      doc = await (await fetch(`${t.url('books')}/openapi.json`)).json();
    });
    after(async () => t.close());

    const parameter = (path: string, method: string, name: string) => doc.paths[path]?.[method]?.parameters?.find((p: any) => p.name === name);
    const SHELF = '/books/v1/mylibrary/bookshelves/{shelf}';

    it('describes the parameters of the mylibrary changes', () => {
      for (const [method, reasons] of [
        ['addVolume', ['ios-prex', 'ios-search', 'onboarding']],
        ['removeVolume', ['onboarding']],
      ] as const) {
        assert.equal(parameter(`${SHELF}/${method}`, 'post', 'volumeId').required, true);
        assert.deepEqual(parameter(`${SHELF}/${method}`, 'post', 'reason').schema.enum, reasons);
        assert.equal(parameter(`${SHELF}/${method}`, 'post', 'shelf').in, 'path');
      }
      const position = parameter(`${SHELF}/moveVolume`, 'post', 'volumePosition');
      assert.equal(position.required, true);
      assert.equal(position.schema.type, 'integer');
      assert.equal(position.schema.minimum, 0);
      assert.equal(parameter(`${SHELF}/clearVolumes`, 'post', 'shelf').required, true);
    });

    it('describes volumes.list and the shelf listings with the bounds the handlers enforce', () => {
      assert.equal(parameter('/books/v1/volumes', 'get', 'q').required, true);
      assert.equal(parameter('/books/v1/volumes', 'get', 'maxResults').schema.maximum, 40);
      assert.ok(parameter('/books/v1/volumes', 'get', 'filter').schema.enum.includes('free-ebooks'));
      assert.deepEqual(parameter('/books/v1/volumes/{volumeId}', 'get', 'projection').schema.enum, ['full', 'lite']);
      assert.equal(parameter('/books/v1/users/{userId}/bookshelves/{shelf}/volumes', 'get', 'startIndex').schema.minimum, 0);
      assert.equal(parameter(`${SHELF}/volumes`, 'get', 'q').required, false);
      for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(methods)) {
          if (method === 'head') continue;
          assert.ok(op.parameters?.some((p: any) => p.name === 'key'), `${method} ${path} documents its query string`);
          // Books methods take no body; the batch endpoint's body is its calls.
          if (path !== '/batch/books/v1') assert.equal(op.requestBody, undefined, `${method} ${path} takes no body`);
        }
      }
    });

    it('answers requests derived from the documented schemas without a 5xx', async () => {
      const volumeId = await findVolumeId(t, reader.apiKey, 'intitle:whale');
      const values: Record<string, string> = { userId: reader.id, shelf: '0', volumeId };
      const { failures, statuses } = await sendSchemaRequests({
        base: t.url('books'),
        routes: routes.filter((r) => r.url.startsWith('/books/v1/')),
        include: () => true,
        pathValue: (name) => values[name] ?? 'x',
        headers: bearer(reader.token),
        runs: RUNS,
      });
      assert.deepEqual(failures, []);
      assert.ok((statuses[200] ?? 0) + (statuses[204] ?? 0) > RUNS * 3, `plausible requests succeed: ${JSON.stringify(statuses)}`);
    });
  });
}
