// Search answers kept serialised (SQLite): a repeated request gets the same bytes, every check still runs, and a
// change to the graph is seen by the next request. On PostgreSQL nothing is kept; the same behaviour is asserted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { request } from 'node:http';
import { DATABASES, DEV_API_KEY, call } from '../helpers/runtime.ts';
import { samplesSuite } from './helpers.ts';

/** A GET with a body, which fetch does not send. */
function getWithBody(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const database of DATABASES) {
  describe(`entity search answers kept (${database})`, () => {
    const suite = samplesSuite(database);
    const byId = (query: string, key?: string) => suite.search(query, key);
    const putEntity = (doc: Record<string, unknown>) => call(`${suite.t.adminUrl}/services/entities/entities`, { body: doc });
    const doc = (description: string) => ({
      id: '/g/twin_kept',
      types: ['Person'],
      names: { en: 'Kept Person' },
      descriptions: { en: description },
      popularity: 10,
    });

    it('answers a repeated request with the same bytes and content type', async () => {
      const first = await byId('ids=/g/twin_turing');
      const again = await byId('ids=/g/twin_turing');
      assert.equal(first.status, 200);
      assert.equal(again.status, 200);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
      assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'), 'each answer has its own request id');
    });

    it('keeps each query apart: fields and prettyPrint shape their own answers', async () => {
      const full = await byId('ids=/g/twin_turing');
      const some = await byId('ids=/g/twin_turing&fields=itemListElement(result(name))');
      const flat = await byId('ids=/g/twin_turing&prettyPrint=false');
      assert.deepEqual(some.body, { itemListElement: [{ result: { name: 'Alan Turing' } }] });
      assert.deepEqual(flat.body, full.body);
      assert.ok(!flat.text.includes('\n') && full.text.includes('\n'));
      // Asked again, each gets its own answer back.
      assert.equal((await byId('ids=/g/twin_turing&fields=itemListElement(result(name))')).text, some.text);
      assert.equal((await byId('ids=/g/twin_turing&prettyPrint=false')).text, flat.text);
    });

    it('still checks the API key and the empty body of a request it has an answer for', async () => {
      assert.equal((await byId('ids=/g/twin_hopper')).status, 200);
      const wrongKey = await call(`${suite.base}/v1/entities:search?ids=/g/twin_hopper&key=not-a-key-at-all`);
      assert.equal(wrongKey.status, 400);
      assert.equal(wrongKey.body.error.status, 'INVALID_ARGUMENT');
      assert.match(wrongKey.body.error.message, /API key not valid/);
      const noKey = await call(`${suite.base}/v1/entities:search?ids=/g/twin_hopper`);
      assert.equal(noKey.status, 403);
      const withBody = await getWithBody(`${suite.base}/v1/entities:search?key=${DEV_API_KEY}&ids=/g/twin_hopper`, '{"a":1}');
      assert.equal(withBody.status, 400);
      assert.equal(JSON.parse(withBody.text).error.message, 'The request body must be empty.');
      assert.equal((await byId('ids=/g/twin_hopper')).status, 200);
    });

    it('refuses a key deleted after its answer was kept', async () => {
      const principal = await call(`${suite.t.adminUrl}/principals`, { body: { kind: 'app', name: 'kept answers' } });
      assert.equal(principal.status, 201, principal.text);
      const issued = await call(`${suite.t.adminUrl}/principals/${principal.body.id}/credentials`, { body: { type: 'api_key' } });
      assert.equal(issued.status, 201, issued.text);
      const key = issued.body.value as string;
      assert.equal((await byId('ids=/g/twin_turing', key)).status, 200);
      assert.equal((await byId('ids=/g/twin_turing', key)).status, 200);
      assert.equal((await call(`${suite.t.adminUrl}/principals/${principal.body.id}`, { method: 'DELETE' })).status, 204);
      const refused = await byId('ids=/g/twin_turing', key);
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.message, /API key not valid/);
    });

    it('answers the graph as it is after a document is stored, replaced or deleted', async () => {
      const lookup = () => byId('ids=/g/twin_kept');
      const search = () => byId('query=kept%20person');
      assert.deepEqual((await lookup()).body.itemListElement, []);
      assert.deepEqual((await search()).body.itemListElement, []);

      assert.equal((await putEntity(doc('First'))).status, 200);
      assert.equal((await lookup()).body.itemListElement[0].result.description, 'First');
      assert.equal((await search()).body.itemListElement[0].result.description, 'First');

      assert.equal((await putEntity(doc('Second'))).status, 200);
      assert.equal((await lookup()).body.itemListElement[0].result.description, 'Second');
      assert.equal((await search()).body.itemListElement[0].result.description, 'Second');

      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_kept`, { method: 'DELETE' })).status, 204);
      assert.deepEqual((await lookup()).body.itemListElement, []);
      assert.deepEqual((await search()).body.itemListElement, []);
    });

    it('answers what is stored once writes and lookups sent together have all been answered', async () => {
      const lookup = () => byId('ids=/g/twin_kept');
      const sent: Array<Promise<unknown>> = [];
      for (let i = 0; i < 8; i++) {
        sent.push(putEntity(doc(`Version ${i}`)));
        sent.push(lookup(), lookup());
      }
      await Promise.all(sent);
      const stored = await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_kept`);
      assert.equal(stored.status, 200);
      for (let i = 0; i < 3; i++) assert.equal((await lookup()).body.itemListElement[0].result.description, stored.body.descriptions.en);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_kept`, { method: 'DELETE' })).status, 204);
    });

    it('answers the graph as it is after a reset', async () => {
      assert.equal((await putEntity(doc('Before reset'))).status, 200);
      assert.equal((await byId('ids=/g/twin_kept')).body.itemListElement.length, 1);
      const reset = await call(`${suite.t.adminUrl}/reset`, { body: { service: 'entities' } });
      assert.equal(reset.status, 200, reset.text);
      // The samples again: the stored document is gone, a sample is found.
      assert.deepEqual((await byId('ids=/g/twin_kept')).body.itemListElement, []);
      assert.equal((await byId('ids=/g/twin_turing')).body.itemListElement[0].result.name, 'Alan Turing');
    });

    it('does not keep a refusal: a bad request stays refused, a good one after it is answered', async () => {
      const bad = await byId('ids=/g/twin_turing&limit=0');
      assert.equal(bad.status, 400);
      assert.equal((await byId('ids=/g/twin_turing&limit=0')).status, 400);
      assert.equal((await byId('ids=/g/twin_turing&limit=1')).status, 200);
    });
  });
}
