import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { directPostMac, isNonce, macMatches } from '../../src/services/payments/direct/domain/mac.ts';

describe('direct post mac', () => {
  it('matches the documented worked example', () => {
    assert.equal(
      directPostMac('LK123456789', '0123456789ABCDEF', 27595, 'OD-12345678'),
      '163DBAB194D743866A9BCC7FC9C8A88FCD99C6BBBF08D619291212D1B91EE12E',
    );
  });

  it('is upper-case hex of HMAC-SHA-256 over upper-cased nonce + amount + identifier', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.stringMatching(/^[0-9a-fA-F]{8,64}$/), fc.integer({ min: 1, max: 999_999_999 }), fc.string({ minLength: 4, maxLength: 50 }), (key, nonce, amount, id) => {
        const expected = createHmac('sha256', Buffer.from(key, 'utf8')).update(`${nonce.toUpperCase()}${amount}${id}`, 'utf8').digest('hex').toUpperCase();
        const mac = directPostMac(key, nonce, amount, id);
        assert.equal(mac, expected);
        assert.match(mac, /^[0-9A-F]{64}$/);
        assert.equal(directPostMac(key, nonce.toLowerCase(), String(amount), id), mac, 'nonce case and amount type do not matter');
        assert.ok(macMatches(mac.toLowerCase(), key, nonce, amount, id));
      }),
    );
  });

  it('rejects a mac for any other amount, identifier or key', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 999_999_998 }), fc.string({ minLength: 4, maxLength: 50 }), (key, amount, id) => {
        const mac = directPostMac(key, 'ABCDEF0123456789', amount, id);
        assert.equal(macMatches(mac, key, 'ABCDEF0123456789', amount + 1, id), false);
        assert.equal(macMatches(mac, key, 'ABCDEF0123456789', amount, `${id}x`), false);
        assert.equal(macMatches(mac, `${key}x`, 'ABCDEF0123456789', amount, id), false);
        assert.equal(macMatches('not-hex', key, 'ABCDEF0123456789', amount, id), false);
      }),
    );
  });

  it('accepts hex nonces of sensible length only', () => {
    assert.ok(isNonce('0123456789ABCDEF'));
    assert.ok(isNonce('abcdef0123456789'));
    assert.equal(isNonce('xyz12345'), false);
    assert.equal(isNonce('ABC'), false);
    assert.equal(isNonce(''), false);
  });
});
