// Arbitrary input on every gateway operation: an Error body with a 4xx status, never a 500.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { call } from '../helpers/runtime.ts';
import { describeGateway, MID } from './support.ts';

const POSTS = [
  '/v6/capture',
  '/v6/void',
  '/v6/refund',
  '/v6/retrieve',
  '/v6/charge',
  '/v6/cres',
  '/v6/bin',
  '/v6/ping',
  '/v6/account/create',
  '/v6/account/acct-fuzz/register',
  '/v6/account/acct-fuzz/contact',
  '/v6/account/acct-fuzz/status',
  '/v6/account/acct-fuzz/card/x/status',
  '/v6/merchant-batch/report',
  `/v6/merchant-batch/${MID}/1/transactions`,
];

describeGateway('payments robustness', (t, c) => {
  it('answers arbitrary JSON bodies with a 2xx or a 4xx Error', async () => {
    const value = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));
    const field = fc.constantFrom('merchantid', 'amount', 'identifier', 'transno', 'refund_ref', 'token', 'cres', 'bin', 'account_id', 'cardnumber', 'expmonth', 'expyear', 'status', 'card_status', 'default', 'date_from', 'date_until', 'merchant_id', 'maxResults', 'nextToken', 'orderBy', 'email');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POSTS), fc.oneof(fc.dictionary(field, value, { maxKeys: 5 }), fc.array(fc.integer(), { maxLength: 2 })), async (path, body) => {
        const res = await c.post(path, body);
        assert.ok(res.status < 500, `${res.status} for ${path} ${JSON.stringify(body)}: ${res.text}`);
        if (res.status >= 400) assert.equal(typeof res.body.code, 'string', res.text);
      }),
      { numRuns: 120 },
    );
  });

  it('answers odd paths, XML and media types with a 4xx Error', async () => {
    const base = t.url('payments');
    const cases: Array<[string, RequestInit]> = [
      ['/v6/account/%ZZ', {}],
      ['/v6/merchant-batch/abc/1', {}],
      ['/v6/authorise', { method: 'POST', body: '<a>1</a><b>2</b>', headers: { 'content-type': 'text/xml' } }],
      ['/v6/authorise', { method: 'POST', body: '<AuthRequest><amount><x>1</x></amount></AuthRequest>', headers: { 'content-type': 'text/xml' } }],
      ['/v6/authorise', { method: 'POST', body: 'x'.repeat(100), headers: { 'content-type': 'application/pdf' } }],
      ['/3dsv2/acs', { method: 'POST', body: '<x/>', headers: { 'content-type': 'text/xml' } }],
      ['/3dsv2/acs/result', { method: 'POST' }],
    ];
    for (const [path, init] of cases) {
      const headers = { ...(init.headers as Record<string, string> | undefined), 'pay-api-key': c.key() };
      const res = await call(`${base}${path}`, { method: init.method, raw: init.body as string | undefined, headers });
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} for ${path}: ${res.text}`);
    }
  });
});
