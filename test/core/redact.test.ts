import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { REDACTED, isSensitiveName, mayHoldSensitiveKey, redactUrl } from '../../src/core/http/redact.ts';

const NAMES =
  'token|tokens|access_token|client_token|refresh_token|id_token|accessor|secret|secret_id|client_secret|password|passphrase|key|api_key|apikey|licence_key|license_key|private_key|unseal_key|keys|keys_base64|otp|nonce|mac|authorization|cookie|cardnumber|card_number|pan|csc|cvv|cvc|expmonth|expyear|expiry';
/** The rule as first written: a quoted key, anything up to a separator, a sensitive name, a colon. */
const JSON_KEY = new RegExp(`"(?:[^"]*[_-])?(?:${NAMES})"\\s*:`, 'i');

/** Names built from pieces of sensitive names and separators, so that near misses are common. */
const name = fc
  .array(fc.constantFrom('token', 'key', 'api', 'x', '_', '-', 'pan', 'Secret', 'id', 's', 'ac', 'cess', 'KEY', 'name'), { maxLength: 5 })
  .map((parts) => parts.join(''));

describe('redaction rules', () => {
  it('finds a sensitive field name alone or after a separator', () => {
    assert.ok(isSensitiveName('x-api-key'));
    assert.ok(isSensitiveName('OAuth_Token'));
    assert.ok(!isSensitiveName('monkey'), 'a name only ends in "key" after a separator');
    assert.ok(!isSensitiveName('company'));
  });

  it('finds a sensitive key in a JSON text exactly where reading the whole key does', () => {
    const value = fc.oneof(fc.integer(), name, fc.constant(null), fc.array(name, { maxLength: 2 }));
    const body = fc.dictionary(name, fc.oneof(value, fc.dictionary(name, value, { maxKeys: 3 })), { maxKeys: 4 });
    fc.assert(
      fc.property(body, fc.boolean(), (object, spaced) => {
        const text = JSON.stringify(object, null, spaced ? 1 : undefined);
        assert.equal(mayHoldSensitiveKey(text), JSON_KEY.test(text), text);
      }),
      { numRuns: 3000 },
    );
    assert.ok(mayHoldSensitiveKey('{"a":{"client_secret" : 1}}'));
    assert.ok(!mayHoldSensitiveKey('{"name":"token","keys_count":2}'), 'a sensitive word as a value, or a key only containing one');
    assert.ok(mayHoldSensitiveKey('{"\\u0074oken":"x"}'), 'a \\u escape could spell a name');
    assert.ok(!mayHoldSensitiveKey(JSON.stringify({ message: 'Error: "quoted"\n    at f (a.js:1:1)' })), 'other escapes spell no name');
  });

  it('never misses a sensitive key, whatever the strings around it hold', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', ':', '_', '-', 'é', '\u2028', ' '), maxLength: 8 });
    const key = fc.oneof(name, text, fc.tuple(text, name).map(([a, b]) => `${a}_${b}`));
    const value = fc.oneof(text, fc.integer(), fc.dictionary(key, text, { maxKeys: 2 }));
    const holdsSensitive = (v: unknown): boolean =>
      !!v && typeof v === 'object' && Object.entries(v).some(([k, inner]) => isSensitiveName(k) || holdsSensitive(inner));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), (object) => {
        if (holdsSensitive(object)) assert.ok(mayHoldSensitiveKey(JSON.stringify(object)), JSON.stringify(object));
      }),
      { numRuns: 5000 },
    );
  });

  it('redacts sensitive query values only, and returns other URLs as they are', () => {
    const url = '/v1/x?q=1&key=abc&flag&Access_Token=t&%6Bey=k&name=pan';
    assert.equal(redactUrl(url), `/v1/x?q=1&key=${REDACTED}&flag&Access_Token=${REDACTED}&%6Bey=${REDACTED}&name=pan`);
    const plain = '/v1/x?q=1&page=2';
    assert.equal(redactUrl(plain), plain);
    assert.equal(redactUrl('/v1/x'), '/v1/x');
    assert.equal(redactUrl('/v1/x?%E0%A4%A=1'), '/v1/x?%E0%A4%A=1', 'an undecodable name is kept as it is');
  });
});
