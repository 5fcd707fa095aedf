// Pure rules of the gateway: Luhn, the API key, the digest, card tokens, the sandbox acquirer, 3-D Secure, the
// transaction state machine, policies, paging and XML.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeApiKey, dtBytes, makeApiKey, verifyApiKey } from '../../src/services/payments/domain/api-key.ts';
import { binInfo, isExpired, luhnValid, maskPan, withLuhnDigit } from '../../src/services/payments/domain/card.ts';
import { CARD_TOKEN_TTL_MS, issueCardToken, readCardToken } from '../../src/services/payments/domain/card-token.ts';
import { responseDigest } from '../../src/services/payments/domain/digest.ts';
import { decimalAmount, displayAmount } from '../../src/services/payments/domain/money.ts';
import { decodePageToken, encodePageToken, parseOrderBy } from '../../src/services/payments/domain/pagination.ts';
import { effectivePolicies } from '../../src/services/payments/domain/policies.ts';
import { acquire, avsResult, cscResult } from '../../src/services/payments/domain/sandbox.ts';
import { challengeResult, threeDsFor } from '../../src/services/payments/domain/three-d-secure.ts';
import { captureRefusal, refundRefusal, voidRefusal, type TransStatus, type TxView } from '../../src/services/payments/domain/transaction-states.ts';
import { parseSettings } from '../../src/services/payments/settings.ts';
import { parseXml, toXml } from '../../src/services/payments/xml.ts';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');

describe('Luhn and card numbers', () => {
  it('accepts the published test cards and rejects one changed digit', () => {
    for (const pan of ['4000000000000002', '374387188019714', '30144453965469', '3528000000000007', '5100000000000008', '6333110000000002', '4857790000000002']) {
      assert.ok(luhnValid(pan), pan);
    }
    assert.equal(luhnValid('4000000000000003'), false);
  });

  it('a completed number is valid and any single-digit change breaks it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11,21}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (partial, pos, delta) => {
        const pan = withLuhnDigit(partial);
        assert.ok(luhnValid(pan));
        const i = pos % pan.length;
        const changed = pan.slice(0, i) + String((Number(pan[i]) + delta) % 10) + pan.slice(i + 1);
        assert.equal(luhnValid(changed), false);
      }),
    );
  });

  it('masks all but the first six and last four digits', () => {
    assert.equal(maskPan('4000000000000002'), '400000******0002');
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12,22}$/), (pan) => {
        const m = maskPan(pan);
        assert.equal(m.length, pan.length);
        assert.equal(m.slice(0, 6), pan.slice(0, 6));
        assert.equal(m.slice(-4), pan.slice(-4));
        assert.match(m.slice(6, -4), /^\*+$/);
      }),
    );
  });

  it('knows schemes and CSC lengths from the BIN', () => {
    assert.equal(binInfo('374387')?.cscLength, 4);
    assert.equal(binInfo('400000')?.scheme, 'Visa');
    assert.equal(binInfo('485779')?.bin_commercial, true);
    assert.equal(binInfo('557347')?.bin_debit, true);
    assert.equal(binInfo('900000'), undefined);
  });

  it('expires after the last day of the expiry month', () => {
    assert.equal(isExpired(3, 2026, T0), false);
    assert.equal(isExpired(2, 2026, T0), true);
    assert.equal(isExpired(12, 2025, T0), true);
  });
});

describe('API key', () => {
  it('matches the published worked example', () => {
    const key = makeApiKey('Dummy', '7G79TG62BAJTK669', Buffer.from('ACB875AEF083DE292299BD69FCDEB5C5', 'hex'), Date.parse('2020-01-01T09:23:00Z'));
    assert.equal(key, 'RHVtbXk6QUNCODc1QUVGMDgzREUyOTIyOTlCRDY5RkNERUI1QzU6tleiG2iztdBCGz64E3/HUhfKIdGWr3VnEtu2IkcmFjA=');
    assert.deepEqual([...dtBytes(Date.parse('2020-01-01T09:23:00Z'))], [0x20, 0x20, 0x01, 0x01, 0x09, 0x23]);
  });

  it('writes each minute as its yyyyMMddHHmm digits read as hex, within the minute and across its turn', () => {
    const digitsOf = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 12);
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('1000-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:58:00Z') }), (ms) => {
        for (const at of [ms, ms + 1, ms - 1, ms + MINUTE]) assert.equal(dtBytes(at).toString('hex'), digitsOf(at), new Date(at).toISOString());
      }),
    );
  });

  it('verifies inside the TTL window and one minute ahead, not outside it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{2,20}$/), fc.integer({ min: -25, max: 3 }), (client, offset) => {
        const key = decodeApiKey(makeApiKey(client, 'LICENCE-KEY-1', randomBytes(16), T0 + offset * MINUTE))!;
        assert.equal(key.clientid, client);
        // The minute the key was made in, whichever of the window it is; none outside the window.
        const inWindow = offset >= -20 && offset <= 1;
        const made = Math.floor((T0 + offset * MINUTE) / MINUTE) * MINUTE;
        assert.equal(verifyApiKey(key, 'LICENCE-KEY-1', T0, 20), inWindow ? made : undefined, `offset ${offset}`);
      }),
    );
  });

  it('rejects another licence key, a changed byte and malformed keys', () => {
    const raw = makeApiKey('C1', 'LK-ONE-1234', randomBytes(16), T0);
    assert.equal(verifyApiKey(decodeApiKey(raw)!, 'LK-TWO-1234', T0, 20), undefined);
    const bytes = Buffer.from(raw, 'base64');
    bytes[bytes.length - 1] ^= 1;
    assert.equal(verifyApiKey(decodeApiKey(bytes.toString('base64'))!, 'LK-ONE-1234', T0, 20), undefined);
    for (const bad of ['', 'not base64!', Buffer.from('no-colons').toString('base64'), Buffer.from('a:XYZ:short').toString('base64')]) {
      assert.equal(decodeApiKey(bad), undefined, bad);
    }
  });

  it('splits on the first two colons only, whatever the hash bytes are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (nonce) => {
        const key = decodeApiKey(makeApiKey('C1', 'LK', Buffer.from(nonce), T0))!;
        assert.equal(key.nonceHex, Buffer.from(nonce).toString('hex').toUpperCase());
        assert.equal(key.hash.length, 32);
      }),
    );
  });
});

describe('response digest', () => {
  it('matches the published worked example', () => {
    const d = responseDigest({ authcode: '88A123', amount: 1500, result_code: '000', merchantid: 123456, transno: 8601, identifier: 'TX-0001' }, 'BWCG00WES4JSH0Q6');
    assert.equal(d, 'xnKflRW1tqa9BTgu79sGZsES7e3c+LpJ4+hJHt8VfwI=');
  });
});

describe('card tokens', () => {
  const key = randomBytes(32);
  const card = '0f8fad5b-d9cb-469f-a165-70867728950e';

  it('round-trips, differs per issue and starts with ct', () => {
    const a = issueCardToken(key, card, T0);
    const b = issueCardToken(key, card, T0);
    assert.notEqual(a, b);
    assert.match(a, /^ct[1-9A-HJ-NP-Za-km-z]+$/);
    assert.deepEqual(readCardToken(key, a, T0 + 1000), { ok: true, cardId: card });
  });

  it('expires after 30 minutes', () => {
    const t = issueCardToken(key, card, T0);
    assert.equal(readCardToken(key, t, T0 + CARD_TOKEN_TTL_MS - 1).ok, true);
    assert.deepEqual(readCardToken(key, t, T0 + CARD_TOKEN_TTL_MS), { ok: false, reason: 'expired' });
  });

  it('any changed character or another key makes it invalid', () => {
    const t = issueCardToken(key, card, T0);
    assert.deepEqual(readCardToken(randomBytes(32), t, T0), { ok: false, reason: 'invalid' });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: t.length - 1 }), fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'), (i, ch) => {
        fc.pre(t[i] !== ch);
        const forged = t.slice(0, i) + ch + t.slice(i + 1);
        assert.equal(readCardToken(key, forged, T0).ok, false);
      }),
    );
  });
});

describe('sandbox acquirer', () => {
  const merchant = { policies: { avs_postcode: '2', csc: '2', duplicate: '1', match_avsa: '2' } as const };
  const base = { cscLength: 3 as const, policies: effectivePolicies(merchant, {}), preAuth: false };

  it('approves with the fixed codes', () => {
    const o = acquire({ ...base, amount: 1500, csc: '012' });
    assert.deepEqual([o.authorised, o.result, o.result_code, o.authcode, o.trans_status], [true, 1, '001', 'A12345', 'O']);
    assert.equal(acquire({ ...base, amount: 1500, preAuth: true }).authcode, 'B12345');
  });

  it('applies the amount and CSC triggers', () => {
    const table: Array<[number, string, string, number]> = [
      [3333, '333', '090', 0],
      [3344, '344', '095', 0],
      [3355, '355', '096', 0],
      [3366, '366', '094', 0],
      [3377, '377', '091', 0],
      [4444, '444', '089', 4],
      [6666, '666', 'F006', 2],
    ];
    for (const [amount, csc, code, result] of table) {
      assert.equal(acquire({ ...base, amount }).result_code, code, `amount ${amount}`);
      const byCsc = acquire({ ...base, amount: 100, csc });
      assert.deepEqual([byCsc.result_code, byCsc.result, byCsc.authorised], [code, result, false], `csc ${csc}`);
    }
    // Amex: the last three digits of the 4-digit CSC count.
    assert.equal(acquire({ ...base, cscLength: 4, amount: 100, csc: '1333' }).result_code, '090');
  });

  it('conditional triggers fire only when the check is enforced', () => {
    assert.equal(acquire({ ...base, amount: 5566, csc: '123' }).authorised, true);
    const enforced = effectivePolicies(merchant, { csc_policy: '1', avs_postcode_policy: '1', match_avsa: '1' });
    assert.equal(acquire({ ...base, policies: enforced, amount: 5566, csc: '123', postcode: 'AB1 2CD', address1: '10 High St' }).result_code, '094');
    assert.equal(acquire({ ...base, policies: enforced, amount: 5555, csc: '123', postcode: 'AB1 2CD', address1: '10 High St' }).result_code, '096');
    assert.equal(acquire({ ...base, policies: enforced, amount: 5544, csc: '123', postcode: 'AB1 2CD', address1: '10 High St' }).result_code, '095');
  });

  it('honours the policies: enforced mismatches decline, bypass allows, ignore skips', () => {
    const p = (v: '1' | '2' | '3') => effectivePolicies(merchant, { csc_policy: v, avs_postcode_policy: v, match_avsa: v });
    assert.equal(acquire({ ...base, policies: p('1'), amount: 100, csc: '999', postcode: '11', address1: '1' }).result_code, '094');
    assert.equal(acquire({ ...base, policies: p('1'), amount: 100, csc: '123', postcode: '99', address1: '1' }).result_code, '096');
    assert.equal(acquire({ ...base, policies: p('1'), amount: 100, csc: '123', postcode: '11', address1: '99 Road' }).result_code, '095');
    assert.equal(acquire({ ...base, policies: p('1'), amount: 100, csc: '123' }).result_code, '096', 'missing postcode fails an enforced check');
    assert.equal(acquire({ ...base, policies: p('2'), amount: 100, csc: '999', postcode: '99', address1: '99' }).authorised, true);
    assert.equal(cscResult('999', '2'), 'N');
    assert.equal(cscResult('999', '3'), ' ');
    assert.equal(avsResult('99', '99', p('3')), ' ');
    assert.equal(avsResult('AB1', '12 Road', p('2')), 'Y');
    assert.equal(avsResult(undefined, undefined, p('2')), 'U');
  });

  it('request policies override the merchant default; 0 means the default', () => {
    const strict = { policies: { avs_postcode: '1', csc: '1', duplicate: '1', match_avsa: '1' } as const };
    assert.equal(effectivePolicies(strict, { csc_policy: '0' }).csc, '1');
    assert.equal(effectivePolicies(strict, { csc_policy: '2' }).csc, '2');
    assert.equal(effectivePolicies({ policies: { avs_postcode: '0', csc: '0', duplicate: '0', match_avsa: '0' } }, {}).duplicate, '2');
  });
});

describe('3-D Secure table', () => {
  it('maps the CSC to frictionless outcomes, an error or a challenge', () => {
    assert.deepEqual(
      ['731', '732', '733', '741', '750'].map((c) => {
        const o = threeDsFor(c, 'VI');
        return o.kind === 'frictionless' ? [o.authen_result, o.proceed] : o.kind;
      }),
      [['N', false], ['U', true], ['R', false], ['A', true], ['Y', true]],
    );
    assert.equal(threeDsFor('761', 'VI').kind, 'error');
    assert.equal(threeDsFor('123', 'VI').kind, 'challenge');
    assert.equal(threeDsFor(undefined, 'VI').kind, 'challenge');
    assert.equal(challengeResult('Y', 'VI').proceed, true);
    assert.equal(challengeResult('N', 'VI').proceed, false);
  });
});

describe('transaction state machine', () => {
  const statuses: TransStatus[] = ['H', 'P', 'O', 'A', 'S', 'C', 'D', 'R'];
  const tx = (over: Partial<TxView>): TxView => ({ trans_type: 'S', trans_status: 'O', amount: 1000, refunded: 0, created_at: T0, ...over });

  it('captures only uncaptured pre-authorisations, within 7 days and up to the amount', () => {
    fc.assert(
      fc.property(fc.constantFrom(...statuses), fc.constantFrom('S' as const, 'P' as const, 'R' as const), (status, type) => {
        const r = captureRefusal(tx({ trans_status: status, trans_type: type }), T0, 1000);
        assert.equal(r === undefined, type === 'P' && status === 'P');
      }),
    );
    assert.equal(captureRefusal(tx({ trans_type: 'P', trans_status: 'P' }), T0 + 8 * 24 * 3600_000, 1000)?.code, 'T003');
    assert.equal(captureRefusal(tx({ trans_type: 'P', trans_status: 'P' }), T0, 1001)?.code, 'T002');
    assert.equal(captureRefusal(tx({ trans_type: 'P', trans_status: 'O' }), T0, 1)?.code, 'T011');
    assert.equal(captureRefusal(tx({ trans_type: 'S' }), T0, 1)?.code, 'T012');
    assert.equal(captureRefusal(tx({ trans_type: 'P', trans_status: 'C' }), T0, 1)?.code, 'T009');
  });

  it('voids only open sales and pre-authorisations', () => {
    fc.assert(
      fc.property(fc.constantFrom(...statuses), (status) => {
        assert.equal(voidRefusal(tx({ trans_status: status })) === undefined, status === 'O' || status === 'P');
      }),
    );
    assert.equal(voidRefusal(tx({ trans_status: 'C' }))?.code, 'T009');
    assert.equal(voidRefusal(tx({ trans_status: 'A' }))?.code, 'T004');
    assert.equal(voidRefusal(tx({ trans_status: 'D' }))?.code, 'T013');
  });

  it('refunds never exceed what remains', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 20_000 }), (amount, refundedRaw, ask) => {
        const refunded = Math.min(refundedRaw, amount);
        const r = refundRefusal(tx({ amount, refunded }), ask);
        assert.equal(r === undefined, ask <= amount - refunded);
        if (r) assert.ok(['R002', 'R003', 'R005'].includes(r.code));
      }),
    );
    assert.equal(refundRefusal(tx({ trans_type: 'R' }), 1)?.code, 'R010');
    assert.equal(refundRefusal(tx({ trans_status: 'D' }), 1)?.code, 'R011');
  });
});

describe('paging, money and XML', () => {
  it('parses orderBy with - and DESC and refuses unknown fields', () => {
    assert.deepEqual(parseOrderBy('-amount', ['amount', 'trans_no']), [{ field: 'amount', desc: true }]);
    assert.deepEqual(parseOrderBy('trans_no DESC', ['amount', 'trans_no']), [{ field: 'trans_no', desc: true }]);
    assert.throws(() => parseOrderBy('nope', ['amount']), /orderBy/);
  });

  it('binds page tokens to their query', () => {
    const t = encodePageToken(10, { a: 1 });
    assert.equal(decodePageToken(t, { a: 1 }), 10);
    assert.equal(decodePageToken('', { a: 1 }), 0);
    assert.throws(() => decodePageToken(t, { a: 2 }));
    assert.throws(() => decodePageToken('garbage', { a: 1 }));
  });

  it('formats minor units', () => {
    assert.equal(decimalAmount(1234, 'GBP'), '12.34');
    assert.equal(decimalAmount(5, 'GBP'), '0.05');
    assert.equal(decimalAmount(500, 'JPY'), '500');
    assert.equal(displayAmount(7589, 'GBP'), '£75.89');
  });

  it('XML round-trips a model under its root element', () => {
    const xml = toXml('Acknowledgement', { code: '001', message: 'a < b & c', tags: ['x', 'y'] });
    assert.match(xml, /^<\?xml[^>]*\?><Acknowledgement><code>001<\/code>/);
    assert.deepEqual(parseXml(xml), { root: 'Acknowledgement', body: { code: '001', message: 'a < b & c', tags: ['x', 'y'] } });
    assert.throws(() => parseXml('<a><b></a>'));
    assert.throws(() => parseXml('<!DOCTYPE a [<!ENTITY x "xx">]><a>&x;</a>'));
  });
});

describe('settings', () => {
  it('accepts a full configuration and refuses bad ones', () => {
    parseSettings({ key_ttl_minutes: 5, clients: [{ clientid: 'ACME', licence_key: 'ACMELICENCE1' }], merchants: [{ merchantid: 1, clientid: 'ACME', time_zone: 'Europe/Paris' }] });
    assert.throws(() => parseSettings({ clients: [{ clientid: 'ACME' }] }), /licence_key/);
    assert.throws(() => parseSettings({ merchants: [{ merchantid: 1, clientid: 'ACME', time_zone: 'Mars/Base' }] }), /time zone/);
    assert.throws(() => parseSettings({ key_ttl_minutes: 0 }));
    assert.throws(() => parseSettings({ surprise: true }));
  });
});
