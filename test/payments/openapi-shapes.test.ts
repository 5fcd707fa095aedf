// The payments OpenAPI document describes each operation's request (documented schemas: the handlers still check
// input themselves, so a bad request keeps its gateway Error and result code).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { call } from '../helpers/runtime.ts';
import { describeGateway, MID } from './support.ts';

type Schema = Record<string, any>;

describeGateway('payments OpenAPI request shapes', (t, c) => {
  let doc: Schema;
  const body = (path: string, method = 'post'): Schema => doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  const params = (path: string, method: string): string[] => (doc.paths[path]?.[method]?.parameters ?? []).map((p: Schema) => `${p.in}:${p.name}`);

  it('serves the document without credentials', async () => {
    const res = await call(`${t.url('payments')}/openapi.json`);
    assert.equal(res.status, 200);
    doc = res.body as Schema;
  });

  it('carries the AuthRequest fields, bounds and required ones', () => {
    const auth = body('/v6/authorise');
    assert.ok(auth, 'authorise documents its body');
    assert.deepEqual([...auth.required].sort(), ['amount', 'cardnumber', 'expmonth', 'expyear', 'identifier', 'merchantid']);
    assert.equal(auth.properties.amount.type, 'integer');
    assert.equal(auth.properties.amount.maximum, 999_999_999);
    assert.deepEqual([auth.properties.expyear.minimum, auth.properties.expyear.maximum], [2000, 2100]);
    assert.deepEqual([auth.properties.identifier.minLength, auth.properties.identifier.maxLength], [4, 50]);
    assert.equal(auth.properties.trans_info.maxLength, 50);
    assert.equal(auth.properties.bill_to.properties.postcode.maxLength, 16);
    assert.deepEqual(auth.properties.csc_policy.anyOf.map((s: Schema) => s.const ?? s.enum?.[0]), ['0', '1', '2', '3']);
  });

  it('carries the refund, capture, charge and other processing bodies', () => {
    assert.deepEqual([...body('/v6/refund').required].sort(), ['amount', 'identifier', 'merchantid', 'refund_ref']);
    const capture = body('/v6/capture');
    assert.deepEqual(capture.required, ['merchantid']);
    assert.ok(capture.properties.transno && capture.properties.identifier && capture.properties.amount);
    assert.match(body('/v6/charge').properties.token.pattern, /^\^ct/);
    for (const path of ['/v6/void', '/v6/retrieve', '/v6/cres', '/v6/bin', '/v6/authenticate', '/v6/merchant-batch/report', '/v6/account/create']) {
      assert.ok(body(path)?.properties, `${path} documents its body`);
    }
    assert.equal(body('/v6/merchant-batch/report').properties.maxResults.minimum, 5);
  });

  it('carries Paylink, direct post and path parameters', () => {
    assert.deepEqual([...body('/paylink/create').required].sort(), ['amount', 'identifier', 'merchantid']);
    assert.ok(body('/paylink/create').properties.config.properties.field_guard);
    assert.deepEqual([...body('/paylink/token/changes').required].sort(), ['after', 'merchantid']);
    assert.ok(body('/direct/auth').required.includes('mac'));
    assert.ok(params('/v6/account/{accountid}/card/{cardId}/status', 'post').includes('path:cardId'));
    assert.ok(params('/v6/merchants/{clientid}', 'get').includes('query:sort'));
  });

  it('leaves checking to the handler: a bad body keeps the gateway Error and its result code', async () => {
    const res = await c.post('/v6/authorise', { amount: 'many', merchantid: MID });
    assert.equal(res.status, 400);
    assert.match(String((res.body as Schema).code), /^[A-Z]\d{3}$/);
  });
});
