// Numbers in secret data keep the text they were sent with, as Vault's json.Number does: big integers, trailing
// zeros, exponents and -0 come back exactly from KV v1 and v2 (also after a restart, a PATCH, a wrap and an unwrap),
// custom_metadata writes a number's own text, typed fields still read such literals as numbers, and a string cannot
// pass itself off as a kept number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Barrier } from '../../src/services/secrets/storage/barrier.ts';
import { LogicalStorage } from '../../src/services/secrets/storage/logical.ts';
import { suiteDatabase } from '../helpers/database.ts';
import { ExactNumber, holdsInexactNumbers, parseExact, stringifyExact, withPlainNumbers } from '../../src/services/secrets/exact-numbers.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { secretsSuite, unsealedBarrier } from './helpers.ts';

/** The data of a KV v2 write, as text: every literal here would change through a double but `3` and `0.5`. */
const DATA = '{"big":12345678901234567890,"price":1.50,"kilo":1e3,"zero":-0,"plain":3,"half":0.5,"text":"1.50","list":[2.10,{"deep":9007199254740993}]}';
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/** The `"data":{...}` object of a KV read, cut from the answer's text (a JSON parse would lose what is tested). */
function dataText(body: string, key: string): string {
  const start = body.indexOf(`"${key}":{`) + key.length + 3;
  let depth = 0;
  for (let i = start; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}' && --depth === 0) return body.slice(start, i + 1);
  }
  throw new Error(`no ${key} object in ${body}`);
}

/** The secret of a KV v2 read (`data.data`), as text. */
const secretText = (body: string): string => dataText(dataText(body, 'data'), 'data');

describe('exact numbers: scanning, parsing and writing', () => {
  it('finds only number literals a double would change, never text inside strings', () => {
    for (const text of ['{"a":1}', '{"a":0.5,"b":-2}', '{"a":"1.50 and 1e3"}', '{"a":"\\"1.50"}', '[1,2,3]', '{"a":1e-7}']) assert.equal(holdsInexactNumbers(text), false, text);
    for (const text of ['{"a":1.50}', '{"a":1e3}', '{"a":-0}', '{"a":12345678901234567890}', '[1.0]', '{"a":"x","b":2E2}']) assert.equal(holdsInexactNumbers(text), true, text);
  });

  it('parses such literals into ExactNumbers, writes them back as sent, and keeps the last of a repeated key', () => {
    const value = parseExact('{"a":1.50,"b":[1e3,2],"c":"1.50","a2":1,"a2":2}') as Record<string, any>;
    assert.ok(value.a instanceof ExactNumber);
    assert.equal(Number(value.a), 1.5);
    assert.equal(value.b[1], 2);
    assert.equal(stringifyExact(value), '{"a":1.50,"b":[1e3,2],"c":"1.50","a2":2}');
    assert.deepEqual(withPlainNumbers(value), { a: 1.5, b: [1000, 2], c: '1.50', a2: 2 });
    assert.equal(stringifyExact(parseExact('\uFEFF{"a":1.50}')), '{"a":1.50}', 'a byte order mark is skipped');
    // A string shaped like the marker (without this process's random part) stays a string.
    const forged = { s: '\u0000exact-number:0000000000000000:42' };
    assert.equal(stringifyExact(forged), JSON.stringify(forged));
  });
});

/** JSON number literals of every shape: big integers, decimals with trailing zeros, exponents. */
const literal = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.nat({ max: 99999 }), fc.nat({ max: 4 })).map(([whole, fraction, zeros]) => `${whole}.${fraction}${'0'.repeat(zeros)}`),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom('e', 'E', 'e+', 'e-'), fc.nat({ max: 40 })).map(([m, e, x]) => `${m}${e}${x}`),
);

describe('exact numbers: any literal survives a parse and a write (property)', () => {
  it('writes back every literal as sent, and reads it as the number it names', () => {
    fc.assert(
      fc.property(literal, literal, literal, fc.string(), (a, b, c, text) => {
        const json = `{"a":${a},"list":[${b},{"c":${c}}],"s":${JSON.stringify(text)}}`;
        const value = parseExact(json) as { a: unknown; list: [unknown, { c: unknown }]; s: string };
        assert.equal(stringifyExact(value), json);
        assert.equal(Number(value.a), Number(a));
        assert.equal(Number(value.list[1].c), Number(c));
        assert.equal(value.s, text);
        assert.equal(holdsInexactNumbers(json), [a, b, c].some((l) => String(Number(l)) !== l));
      }),
    );
  });
});

describe('exact numbers in storage: the literal is what is stored, never the in-process marker', () => {
  let barrier: Barrier;
  suiteDatabase('sqlite', async (db) => {
    ({ barrier } = await unsealedBarrier(db));
  });

  it('writes by put and by batch store the literal, marked to be read back exactly; plain values stay plain JSON', async () => {
    const logical = new LogicalStorage(barrier, 'ns/');
    const value = parseExact('{"a":1.50,"b":[1e3]}');
    await logical.put('one', value);
    await logical.batch([{ key: 'two', value }, { key: 'plain', value: { a: 1.5 } }]);
    for (const key of ['one', 'two']) {
      assert.equal((await barrier.get(`ns/${key}`))!.toString('utf8'), '\u0001{"a":1.50,"b":[1e3]}');
      assert.equal(stringifyExact(await logical.get(key)), '{"a":1.50,"b":[1e3]}');
    }
    assert.equal((await barrier.get('ns/plain'))!.toString('utf8'), '{"a":1.5}');
  });
});

for (const database of DATABASES) {
  describe(`secrets keep the numbers of secret data as sent (${database})`, () => {
    const suite = secretsSuite(database);
    const { v } = suite;

    it('KV v2: a write reads back exactly, also after a restart, and a PATCH keeps the literals it does not change', async () => {
      assert.equal((await v('secret/data/numbers', { raw: `{"data":${DATA}}` })).status, 200);
      assert.equal(secretText((await v('secret/data/numbers')).text), DATA);
      await suite.t.restart();
      assert.equal(secretText((await v('secret/data/numbers')).text), DATA);

      const patched = await v('secret/data/numbers', { method: 'PATCH', raw: '{"data":{"price":2.50,"plain":null}}', headers: MERGE_PATCH });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(secretText((await v('secret/data/numbers')).text), DATA.replace('1.50', '2.50').replace(',"plain":3', ''));
      // subkeys treat a kept number as a leaf.
      const subkeys = await v('secret/subkeys/numbers');
      assert.deepEqual(subkeys.body.data.subkeys, { big: null, price: null, kilo: null, zero: null, half: null, text: null, list: null });
    });

    it('KV v2 typed fields read such literals as numbers; custom_metadata writes their own text', async () => {
      assert.equal((await v('secret/data/typed', { raw: '{"data":{"a":1}}' })).status, 200);
      // cas 1.0 is version 1; max_versions 5.0 is 5.
      assert.equal((await v('secret/data/typed', { raw: '{"options":{"cas":1.0},"data":{"a":2}}' })).status, 200);
      const wrongCas = await v('secret/data/typed', { raw: '{"options":{"cas":1.0},"data":{"a":3}}' });
      assert.deepEqual([wrongCas.status, wrongCas.body], [400, { errors: ['check-and-set parameter did not match the current version'] }]);
      assert.equal((await v('secret/metadata/typed', { raw: '{"max_versions":5.0,"custom_metadata":{"price":1.50,"count":7}}' })).status, 204);
      const meta = await v('secret/metadata/typed');
      assert.equal(meta.body.data.max_versions, 5);
      assert.deepEqual(meta.body.data.custom_metadata, { price: '1.50', count: '7' });
      assert.equal(secretText((await v('secret/data/typed')).text), '{"a":2}');

      // A field whose shape is checked sees the number it names: refused as a plain number is, changing nothing.
      for (const [path, raw, error] of [
        ['secret/data/typed', '{"data":1.50}', 'data must be a JSON object'],
        ['secret/data/typed', '{"data":[1.50]}', 'data must be a JSON object'],
        ['secret/metadata/typed', '{"custom_metadata":1.50}', 'invalid map for custom_metadata'],
      ]) {
        const refused = await v(path, { raw });
        assert.deepEqual([refused.status, refused.body], [400, { errors: [error] }], raw);
      }
      assert.equal(secretText((await v('secret/data/typed')).text), '{"a":2}');
      assert.deepEqual((await v('secret/metadata/typed')).body.data.custom_metadata, { price: '1.50', count: '7' });
    });

    it('KV v1, the cubbyhole, wrapping and unwrapping keep them too', async () => {
      assert.equal((await v('sys/mounts/kv1', { body: { type: 'kv', options: { version: '1' } } })).status, 204);
      assert.equal((await v('kv1/numbers', { raw: DATA })).status, 204);
      assert.equal(dataText((await v('kv1/numbers')).text, 'data'), DATA);
      // A body with a byte order mark, as some clients send it.
      assert.equal((await v('kv1/bom', { raw: `\uFEFF${DATA}` })).status, 204);
      assert.equal(dataText((await v('kv1/bom')).text, 'data'), DATA);

      assert.equal((await v('cubbyhole/numbers', { raw: DATA })).status, 204);
      assert.equal(dataText((await v('cubbyhole/numbers')).text, 'data'), DATA);

      const wrapped = await v('sys/wrapping/wrap', { raw: DATA, headers: { 'x-vault-wrap-ttl': '5m' } });
      assert.equal(wrapped.status, 200, wrapped.text);
      const unwrapped = await v('sys/wrapping/unwrap', { token: wrapped.body.wrap_info.token, body: {} });
      assert.equal(unwrapped.status, 200, unwrapped.text);
      assert.equal(dataText(unwrapped.text, 'data'), DATA);
    });

    it('other paths read every number as a plain number', async () => {
      const made = await v('auth/token/create', { raw: '{"ttl":3600.0,"policies":["default"],"meta":{"n":1.50}}' });
      assert.equal(made.status, 200, made.text);
      assert.equal(made.body.auth.lease_duration, 3600);
      // Token metadata is weakly decoded text, from a plain number.
      assert.deepEqual(made.body.auth.metadata, { n: '1.5' });
    });
  });
}
