// Request bodies on every listener: nesting bounded, empty JSON bodies read as none, depth counted without recursion.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonBodyError, MAX_JSON_DEPTH, jsonNestingDepth, parseJsonBody } from '../../src/core/http/json-body.ts';
import { DATABASES, call, startTestRuntime, DEV_API_KEY, type TestRuntime } from '../helpers/runtime.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON body limits', () => {
  it('counts nesting like a parser would, ignoring brackets inside strings', () => {
    assert.equal(jsonNestingDepth('{"a":[1,{"b":"[[[{"}]}'), 3);
    assert.equal(jsonNestingDepth('"\\"[["'), 0);
    fc.assert(fc.property(fc.jsonValue(), (v) => jsonNestingDepth(JSON.stringify(v)) === depthOf(v)));
  });

  it('refuses a document nested deeper than the limit without overflowing the stack', () => {
    assert.deepEqual(parseJsonBody(nested(MAX_JSON_DEPTH)), JSON.parse(nested(MAX_JSON_DEPTH)));
    assert.throws(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1)), JsonBodyError);
    assert.throws(() => parseJsonBody(nested(100_000)), JsonBodyError);
    assert.throws(() => parseJsonBody('{"__proto__": {"x": 1}}'), JsonBodyError);
    assert.equal(parseJsonBody('  '), undefined);
  });
});

function depthOf(v: unknown): number {
  // The reference walk is recursive on purpose: fast-check's values are shallow.
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

for (const database of DATABASES) {
  describe(`hostile bodies on the listeners (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting', 'secrets'], database, settings: { secrets: { devRootToken: 'test-root-token' } } });
    });
    after(async () => t.close());

    it('answers 400 in the family envelope for 10,000-deep JSON, and records nothing', async () => {
      const report = `${t.url('errorreporting')}/v1beta1/projects/p/events:report?key=${DEV_API_KEY}`;
      const res = await call(report, { raw: nested(10_000), headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 400);
      assert.match(res.body.error.message, /deeper than/);
      const log = await call(`${t.adminUrl}/services/errorreporting/projects/p/log`);
      assert.equal(log.body.total ?? log.body.entries?.length ?? 0, 0);
    });

    it('secrets refuses deep JSON with a Vault error', async () => {
      const res = await call(`${t.url('secrets')}/v1/secret/data/deep`, {
        raw: `{"data":${nested(10_000)}}`,
        headers: { 'content-type': 'application/json', 'x-secrets-token': 'test-root-token' },
      });
      assert.equal(res.status, 400);
      assert.ok(Array.isArray(res.body.errors));
    });
  });
}
