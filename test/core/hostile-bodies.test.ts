// The body findings of the robustness probe, each reproduced as it was sent: JSON 10,000 deep on every route named,
// XML nested past the stack, form bodies, and empty bodies under `Content-Type: application/json` on operations that
// take none (payments Paylink close/reopen, the Google-style listeners).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MAX_XML_DEPTH, xmlNestingDepth } from '../../src/core/http/xml-body.ts';
import { readXml } from '../../src/services/catalog/domain/datafeed-format-xml.ts';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, LICENCE, MID } from '../payments/support.ts';

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepXml = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);
const JSON_TYPE = { 'content-type': 'application/json' };
const ROOT = 'test-root-token';
const BIDDER = 'Bearer bidding-demo-bidder-token';

describe('XML nesting depth', () => {
  it('counts elements only, without recursion', () => {
    assert.equal(xmlNestingDepth('<?xml version="1.0"?><!-- <a><b> --><R a=">" b=\'/>\'><x/><y><![CDATA[<z><z>]]></y></R>'), 2);
    assert.equal(xmlNestingDepth(deepXml(200_000)), 200_000);
  });

  it('a datafeed nested past the stack is an invalid-XML issue, not a thrown overflow', () => {
    const reading = readXml(`<rss><channel>${deepXml(20_000)}</channel></rss>`);
    assert.equal(reading.items.length, 0);
    assert.equal(reading.issues[0]?.code, 'parse/invalid_xml');
  });
});

for (const database of DATABASES) {
  describe(`hostile bodies on every family (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({
        services: ['secrets', 'bidding', 'errorreporting', 'payments', 'calendar', 'files', 'books'],
        database,
        settings: { secrets: { devRootToken: ROOT }, payments: { dev_licence_key: LICENCE } },
      });
    });
    after(async () => t.close());

    it('answers 400 to 10,000-deep JSON on each route the probe named', async () => {
      const secrets = { ...JSON_TYPE, 'x-vault-token': ROOT };
      const google = { ...JSON_TYPE, authorization: BIDDER };
      const cases: Array<[string, string, string, Record<string, string>]> = [
        ['POST', `${t.url('secrets')}/v1/secret/data/deep`, `{"data":${deepJson(10_000)}}`, secrets],
        ['PUT', `${t.url('secrets')}/v1/secret/metadata/deep`, `{"custom_metadata":${deepJson(10_000)}}`, secrets],
        ['POST', `${t.url('bidding')}/v2beta1/bidders/1/filterSets`, deepJson(10_000), google],
        ['POST', `${t.url('errorreporting')}/v1beta1/projects/p/events:report?key=${DEV_API_KEY}`, deepJson(10_000), JSON_TYPE],
        ['PUT', `${t.url('errorreporting')}/v1beta1/projects/p/groups/g?key=${DEV_API_KEY}`, deepJson(10_000), JSON_TYPE],
      ];
      for (const [method, url, raw, headers] of cases) {
        const res = await call(url, { method, raw, headers });
        assert.equal(res.status, 400, `${method} ${url}: ${res.text.slice(0, 200)}`);
        assert.match(res.text, /deeper than/);
      }
      const read = await call(`${t.url('secrets')}/v1/secret/data/deep`, { headers: { 'x-vault-token': ROOT } });
      assert.equal(read.status, 404, 'the refused write stored nothing');
    });

    it('payments refuses XML nested past the limit with D029 in XML, as it refuses any unreadable body', async () => {
      const key = caller(t).key();
      for (const depth of [MAX_XML_DEPTH + 1, 3_000, 50_000]) {
        const res = await call(`${t.url('payments')}/v6/authorise`, {
          raw: `<AuthRequest><merchantid>${MID}</merchantid>${deepXml(depth)}</AuthRequest>`,
          headers: { 'content-type': 'text/xml', 'pay-api-key': key },
        });
        assert.equal(res.status, 400, res.text);
        assert.match(res.text, /<code>D029<\/code>/);
        assert.match(res.text, /deeper than/);
      }
    });

    it('form bodies are flat and bounded: bracketed keys are plain names, an oversized body is 413', async () => {
      const key = () => caller(t).key();
      const many = await call(`${t.url('payments')}/v6/authorise`, {
        raw: 'a[b][c][d]=1&'.repeat(50_000),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'pay-api-key': key() },
      });
      assert.equal(many.status, 400, many.text);
      const huge = await call(`${t.url('payments')}/v6/authorise`, {
        raw: `cardnumber=${'9'.repeat(11 * 1024 * 1024)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'pay-api-key': key() },
      });
      assert.equal(huge.status, 413, huge.text.slice(0, 200));
      const secretsForm = await call(`${t.url('secrets')}/v1/secret/data/form`, {
        raw: `data=${deepJson(10_000)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-vault-token': ROOT },
      });
      assert.equal(secretsForm.status, 400, secretsForm.text);
    });

    it('Paylink close and reopen accept an empty body sent as application/json', async () => {
      const headers = () => ({ ...JSON_TYPE, 'pay-api-key': caller(t).key() });
      const created = await call(`${t.url('payments')}/paylink/create`, {
        body: { amount: 1250, identifier: `INV-${randomBytes(4).toString('hex')}`, merchantid: MID },
        headers: { 'pay-api-key': caller(t, CLIENT, LICENCE).key() },
      });
      assert.equal(created.status, 200, created.text);
      for (const action of ['close', 'reopen']) {
        const res = await call(`${t.url('payments')}/paylink/${created.body.token}/${action}`, { method: 'PUT', raw: '', headers: headers() });
        assert.equal(res.status, 200, `${action}: ${res.text}`);
        assert.equal(res.body.code, '001');
      }
    });

    it('an empty body is no body whatever its declared Content-Type, while uploads still read the type of an empty file', async () => {
      const types = ['text/xml', 'application/xml', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x', 'image/png'];
      const created = await call(`${t.url('payments')}/paylink/create`, {
        body: { amount: 990, identifier: `INV-${randomBytes(4).toString('hex')}`, merchantid: MID },
        headers: { 'pay-api-key': caller(t).key() },
      });
      for (const type of types) {
        for (const action of ['close', 'reopen']) {
          const res = await call(`${t.url('payments')}/paylink/${created.body.token}/${action}`, { method: 'PUT', raw: '', headers: { 'content-type': type, 'pay-api-key': caller(t).key() } });
          assert.equal(res.status, 200, `${action} with ${type}: ${res.text}`);
        }
        const google = { 'content-type': type, authorization: `Bearer ${DEV_TOKEN}` };
        const clear = await call(`${t.url('calendar')}/calendar/v3/calendars/primary/clear`, { method: 'POST', raw: '', headers: google });
        assert.equal(clear.status, 204, `calendar clear with ${type}: ${clear.text}`);
        const trash = await call(`${t.url('files')}/drive/v2/files/trash`, { method: 'DELETE', raw: '', headers: google });
        assert.equal(trash.status, 204, `files emptyTrash with ${type}: ${trash.text}`);
        const filterSet = await call(`${t.url('bidding')}/v2beta1/bidders/1000/filterSets/none`, { method: 'DELETE', raw: '', headers: { 'content-type': type, authorization: BIDDER } });
        assert.equal(filterSet.status, 404, `bidding delete with ${type}: ${filterSet.text}`);
      }
      const upload = await call(`${t.url('files')}/upload/drive/v2/files?uploadType=media`, { method: 'POST', raw: '', headers: { 'content-type': 'image/png', authorization: `Bearer ${DEV_TOKEN}` } });
      assert.equal(upload.status, 200, upload.text);
      assert.equal(upload.body.mimeType, 'image/png', 'the empty file keeps its declared type');
    });

    it('a Content-Type that is no media type is a 400 naming it; a well-formed one no operation reads is a 415 naming it, and neither writes', async () => {
      const headers = (type: string) => ({ 'content-type': type, authorization: `Bearer ${DEV_TOKEN}` });
      const insert = (type: string) => call(`${t.url('calendar')}/calendar/v3/calendars`, { method: 'POST', raw: '{"summary":"typed"}', headers: headers(type) });
      const before = await call(`${t.url('calendar')}/calendar/v3/users/me/calendarList`, { headers: headers('application/json') });
      const malformed = await insert('not/a/mime');
      assert.equal(malformed.status, 400, malformed.text);
      assert.equal(malformed.body.error.message, 'Invalid Content-Type header: not/a/mime');
      const unsupported = await insert('text/csv; charset=utf-8');
      assert.equal(unsupported.status, 415, unsupported.text);
      assert.equal(unsupported.body.error.message, 'Unsupported content type: text/csv; charset=utf-8');
      const after = await call(`${t.url('calendar')}/calendar/v3/users/me/calendarList`, { headers: headers('application/json') });
      assert.deepEqual(after.body.items.map((c: { id: string }) => c.id), before.body.items.map((c: { id: string }) => c.id));
    });

    it('Google-style listeners accept an empty body sent as application/json on operations that take none', async () => {
      const headers = { ...JSON_TYPE, authorization: `Bearer ${DEV_TOKEN}` };
      const cases: Array<[string, string]> = [
        ['POST', `${t.url('calendar')}/calendar/v3/calendars/primary/clear`],
        ['DELETE', `${t.url('files')}/drive/v2/files/trash`],
        ['POST', `${t.url('books')}/books/v1/mylibrary/bookshelves/0/clearVolumes`],
      ];
      for (const [method, url] of cases) {
        const res = await call(url, { method, raw: '', headers });
        assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.doesNotMatch(res.text, /Body cannot be empty/);
      }
    });
  });
}
