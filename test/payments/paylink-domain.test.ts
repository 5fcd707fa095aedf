import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dictionary } from '../../src/core/own.ts';
import { customValues, selectChoices, type CustomParam } from '../../src/services/payments/paylink/domain/custom-params.ts';
import { encodeNextToken, parseChangesPage, parseOrderBy } from '../../src/services/payments/paylink/domain/changes-page.ts';
import { DEFAULT_EXPIRE_MS, expiryFromExpireIn } from '../../src/services/payments/paylink/domain/expire-in.ts';
import { allGuardsPass, guardSourceValue, guardValueMatches, guardsWithoutSource, normaliseGuardValue } from '../../src/services/payments/paylink/domain/field-guard.ts';
import { guardLockState, LOCK_MS, WINDOW_MS } from '../../src/services/payments/paylink/domain/guard-lockout.ts';
import { isE164, isEmailAddress, politeDeliverAfter, resendRefusal } from '../../src/services/payments/paylink/domain/notification-rules.ts';
import { isOpenForPayment, transition, type TokenFacts } from '../../src/services/payments/paylink/domain/token-state.ts';

const T0 = Date.parse('2026-03-10T12:00:00Z');

describe('field-guard comparison', () => {
  it('folds accents, ligatures, case and punctuation', () => {
    assert.equal(normaliseGuardValue("Zoë O'Brien-Smith"), 'zoeobriensmith');
    assert.equal(normaliseGuardValue('Straße'), 'strasse');
    assert.equal(normaliseGuardValue('Łódź Ærø'), 'lodzaero');
    assert.equal(normaliseGuardValue('SW1A 1AA'), 'sw1a1aa');
    assert.ok(guardValueMatches('sw1a1aa', 'SW1A 1AA'));
    assert.ok(guardValueMatches('ZOE', 'Zoë'));
    assert.equal(guardValueMatches('Zoe', 'Zoey'), false);
    assert.equal(guardValueMatches('', ''), false, 'an empty entry never passes');
    assert.equal(guardValueMatches('!!!', '???'), false);
  });

  it('normalised values are lower-case ASCII alphanumerics and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const n = normaliseGuardValue(s);
        assert.match(n, /^[a-z0-9]*$/);
        assert.equal(normaliseGuardValue(n), n);
      }),
    );
  });

  it('matching ignores case, inserted punctuation and spaces', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,20}$/), fc.constantFrom(' ', '-', '.', "'", ','), (word, sep) => {
        const spaced = word.split('').join(sep);
        assert.ok(guardValueMatches(spaced, word.toUpperCase()));
      }),
    );
  });

  it('finds source values in order: own value, identifier, cardholder, custom params, pass-through', () => {
    const sources = {
      identifier: 'INV-1',
      cardholder: { lastname: 'Smith', address: { postcode: 'AB1 2CD' } },
      customParams: [{ name: 'account', value: 'ACC9' }, { name: 'lastname', value: 'Other' }],
      passThroughData: { policy: 'P-77', account: 'ignored' },
    };
    assert.equal(guardSourceValue({ name: 'lastname', value: 'Explicit' }, sources), 'Explicit');
    assert.equal(guardSourceValue({ name: 'identifier' }, sources), 'INV-1');
    assert.equal(guardSourceValue({ name: 'lastname' }, sources), 'Smith');
    assert.equal(guardSourceValue({ name: 'postcode' }, sources), 'AB1 2CD');
    assert.equal(guardSourceValue({ name: 'account' }, sources), 'ACC9');
    assert.equal(guardSourceValue({ name: 'policy' }, sources), 'P-77');
    assert.equal(guardSourceValue({ name: 'dob' }, sources), undefined);
    assert.deepEqual(guardsWithoutSource([{ name: 'lastname' }, { name: 'dob' }, { name: 'email' }], sources), ['dob', 'email']);
  });

  it('passes only when every guard matches', () => {
    const expected = [{ name: 'lastname', value: 'Müller' }, { name: 'postcode', value: 'AB1 2CD' }];
    assert.ok(allGuardsPass(expected, { lastname: 'mueller'.replace('ue', 'u'), postcode: 'ab12cd' }));
    assert.equal(allGuardsPass(expected, { lastname: 'muller' }), false);
    assert.equal(allGuardsPass(expected, { lastname: 'muller', postcode: 42 }), false);
  });
});

describe('field-guard lockout', () => {
  const minutes = (n: number) => n * 60_000;

  it('locks for an hour after the sixth denial within 30 minutes', () => {
    const five = [0, 1, 2, 3, 4].map((i) => T0 + minutes(i));
    assert.deepEqual(guardLockState(five, T0 + minutes(5)), { locked: false });
    const six = [...five, T0 + minutes(5)];
    assert.deepEqual(guardLockState(six, T0 + minutes(6)), { locked: true, permanent: false, until: T0 + minutes(5) + LOCK_MS });
    assert.deepEqual(guardLockState(six, T0 + minutes(5) + LOCK_MS), { locked: false });
  });

  it('does not lock when the denials are spread over more than 30 minutes', () => {
    const spread = [0, 7, 14, 21, 28, 35].map((m) => T0 + minutes(m));
    assert.deepEqual(guardLockState(spread, T0 + minutes(36)), { locked: false });
  });

  it('locks for good after more than 20 denials', () => {
    const many = Array.from({ length: 21 }, (_, i) => T0 + i * 2 * LOCK_MS);
    assert.deepEqual(guardLockState(many, T0 + 100 * LOCK_MS), { locked: true, permanent: true });
    assert.equal(guardLockState(many.slice(0, 20), T0 + 100 * LOCK_MS).locked, false);
  });

  it('agrees with a direct count of the rule', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 * 60 }), { maxLength: 25 }), fc.integer({ min: 0, max: 6 * 60 }), (offsets, nowOffset) => {
        const denials = offsets.map((m) => T0 + minutes(m));
        const now = T0 + minutes(nowOffset);
        const state = guardLockState(denials, now);
        if (denials.length > 20) return assert.deepEqual(state, { locked: true, permanent: true });
        // Brute force: some denial d with more than 5 denials in (d - 30 min, d] and now inside [d, d + 1 h).
        const expected = denials.some((d) => denials.filter((x) => x <= d && x > d - WINDOW_MS).length > 5 && now < d + LOCK_MS);
        assert.equal(state.locked, expected);
      }),
    );
  });
});

describe('notification rules', () => {
  it('validates addresses and E.164 numbers', () => {
    assert.ok(isEmailAddress('payer@example.com'));
    assert.equal(isEmailAddress('not an address'), false);
    assert.equal(isEmailAddress('a@b'), false);
    assert.ok(isE164('+447700900123'));
    assert.equal(isE164('07700900123'), false);
    assert.equal(isE164('+0123456789'), false);
  });

  it('sends inside the polite window and queues outside it until 08:00 local', () => {
    assert.equal(politeDeliverAfter(Date.parse('2026-03-10T12:00:00Z'), 'UTC'), undefined);
    assert.equal(politeDeliverAfter(Date.parse('2026-03-10T21:30:00Z'), 'UTC'), Date.parse('2026-03-11T08:00:00Z'));
    assert.equal(politeDeliverAfter(Date.parse('2026-03-10T03:00:00Z'), 'UTC'), Date.parse('2026-03-10T08:00:00Z'));
    // 12:00 UTC is 08:00 in New York during EDT: inside; 11:00 UTC is 07:00 there: queued for 08:00 EDT.
    assert.equal(politeDeliverAfter(Date.parse('2026-07-10T12:00:00Z'), 'America/New_York'), undefined);
    assert.equal(politeDeliverAfter(Date.parse('2026-07-10T11:00:00Z'), 'America/New_York'), Date.parse('2026-07-10T12:00:00Z'));
  });

  it('a queued time always falls inside the window', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }), fc.constantFrom('UTC', 'Europe/London', 'America/New_York', 'Asia/Tokyo'), (now, zone) => {
        const after = politeDeliverAfter(now, zone);
        if (after === undefined) return;
        assert.ok(after > now && after - now <= 24 * 3_600_000);
        assert.equal(politeDeliverAfter(after, zone), undefined);
      }),
    );
  });

  it('limits resends', () => {
    assert.equal(resendRefusal({ email: true, sms: false }, { emailResends: 4, smsResends: 0 }, T0), undefined);
    assert.equal(resendRefusal({ email: true, sms: false }, { emailResends: 5, smsResends: 0 }, T0)?.channel, 'email');
    assert.equal(resendRefusal({ email: false, sms: true }, { emailResends: 0, smsResends: 0, lastSmsAt: T0 - 59_999 }, T0)?.channel, 'sms');
    assert.equal(resendRefusal({ email: false, sms: true }, { emailResends: 0, smsResends: 2, lastSmsAt: T0 - 60_000 }, T0), undefined);
    assert.equal(resendRefusal({ email: false, sms: true }, { emailResends: 0, smsResends: 3, lastSmsAt: T0 - 3_600_000 }, T0)?.channel, 'sms');
  });
});

describe('changes paging', () => {
  it('reads maxResults, orderBy and nextToken', () => {
    assert.deepEqual(parseChangesPage({}, 'q'), { limit: 25, descending: false });
    assert.deepEqual(parseChangesPage({ maxResults: 5, orderBy: '-p.id' }, 'q'), { limit: 5, descending: true });
    assert.deepEqual(parseChangesPage({ maxResults: 250, orderBy: 'p.id DESC' }, 'q'), { limit: 250, descending: true });
    assert.deepEqual(parseChangesPage({ orderBy: 'p.id' }, 'q'), { limit: 25, descending: false });
    assert.deepEqual(parseChangesPage({ nextToken: encodeNextToken(17, 'q', false) }, 'q'), { limit: 25, descending: false, afterSeq: 17 });
    for (const maxResults of [4, 251, 10.5, '10', -1]) assert.equal((parseChangesPage({ maxResults }, 'q') as any).field, 'maxResults');
    assert.equal((parseChangesPage({ orderBy: 'amount' }, 'q') as any).field, 'orderBy');
    assert.equal((parseChangesPage({ nextToken: 'garbage' }, 'q') as any).field, 'nextToken');
    assert.equal((parseChangesPage({ nextToken: encodeNextToken(17, 'other', false) }, 'q') as any).field, 'nextToken');
    assert.equal((parseChangesPage({ nextToken: encodeNextToken(17, 'q', true) }, 'q') as any).field, 'nextToken');
    assert.equal(parseOrderBy(' -p.id ')?.descending, true);
  });

  it('reads the direction word at the end of any orderBy in one look', () => {
    assert.deepEqual(parseOrderBy('p.id \t desc'), { field: 'p.id', descending: true });
    assert.deepEqual(parseOrderBy('p.id\nAsc'), { field: 'p.id', descending: false });
    assert.equal(parseOrderBy('p.idDESC'), undefined);
    assert.equal(parseOrderBy('DESC'), undefined);
    // /\s+DESC$/ retried this run of spaces from each of its positions: minutes for one request.
    const spaces = ' '.repeat(300_000);
    assert.equal(parseOrderBy(`p.id${spaces}x`), undefined);
    assert.deepEqual(parseOrderBy(`p.id${spaces}DESC`), { field: 'p.id', descending: true });
    assert.equal((parseChangesPage({ orderBy: `p.id${spaces}ASC.` }, 'q') as any).field, 'orderBy');
  });
});

describe('expire_in', () => {
  it('reads seconds, units and never', () => {
    assert.equal(expiryFromExpireIn(undefined, T0), T0 + DEFAULT_EXPIRE_MS);
    assert.equal(expiryFromExpireIn(90, T0), T0 + 90_000);
    assert.equal(expiryFromExpireIn('90s', T0), T0 + 90_000);
    assert.equal(expiryFromExpireIn('20m', T0), T0 + 20 * 60_000);
    assert.equal(expiryFromExpireIn('4h', T0), T0 + 4 * 3_600_000);
    assert.equal(expiryFromExpireIn('2w', T0), T0 + 14 * 86_400_000);
    assert.equal(expiryFromExpireIn('1M', T0), Date.parse('2026-04-10T12:00:00Z'));
    assert.equal(expiryFromExpireIn('1y', T0), Date.parse('2027-03-10T12:00:00Z'));
    assert.equal(expiryFromExpireIn(0, T0), null);
    assert.equal(expiryFromExpireIn('soon', T0), undefined);
    assert.equal(expiryFromExpireIn(-5, T0), undefined);
    assert.equal(expiryFromExpireIn({}, T0), undefined);
  });
});

describe('token life cycle', () => {
  const token = (state: TokenFacts['state'], paid = false, expiresAt: number | null = T0 + 1000): TokenFacts => ({ state, paid, expiresAt });

  it('opens, pays, and refuses a second payment', () => {
    assert.deepEqual(transition(token('created'), 'open', T0), { next: 'opened', changed: true });
    assert.deepEqual(transition(token('opened'), 'pay', T0), { next: 'paid', changed: true });
    assert.ok('refused' in transition(token('paid', true), 'pay', T0));
    assert.ok('refused' in transition(token('created'), 'pay', T0 + 1000), 'expired');
  });

  it('reopens only closed and unpaid tokens', () => {
    assert.deepEqual(transition(token('closed'), 'reopen', T0), { next: 'reopened', changed: true });
    assert.ok('refused' in transition(token('closed', true), 'reopen', T0));
    assert.ok('refused' in transition(token('cancelled'), 'reopen', T0));
    assert.ok(isOpenForPayment(token('reopened'), T0));
  });

  it('cancel, close and reconcile apply from any state and repeat harmlessly', () => {
    for (const state of ['created', 'opened', 'paid', 'cancelled', 'closed', 'reopened', 'reconciled'] as const) {
      for (const [action, next] of [['cancel', 'cancelled'], ['close', 'closed'], ['reconcile', 'reconciled']] as const) {
        const r = transition(token(state, state === 'paid'), action, T0);
        assert.ok('next' in r && r.next === next);
        assert.equal(r.changed, state !== next);
      }
    }
    assert.equal(isOpenForPayment(token('cancelled'), T0), false);
  });
});

describe('custom parameters', () => {
  const param = (p: Partial<CustomParam> & { name: string }): CustomParam => ({ field_type: 'text', locked: false, required: false, order: 0, ...p });

  it('reads select options with and without labels', () => {
    assert.deepEqual(selectChoices('a|b'), [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }]);
    assert.deepEqual(selectChoices('m:Monthly|y:Yearly'), [{ value: 'm', label: 'Monthly' }, { value: 'y', label: 'Yearly' }]);
    assert.deepEqual(selectChoices(undefined), []);
  });

  it('checks required, pattern, select and date entries; hidden and locked keep the merchant value', () => {
    const params = [
      param({ name: 'account', label: 'Account', required: true, pattern: '[0-9]{6}' }),
      param({ name: 'plan', field_type: 'select', options: 'm:Monthly|y:Yearly' }),
      param({ name: 'dob', field_type: 'dob' }),
      param({ name: 'source', field_type: 'hidden', value: 'mail' }),
      param({ name: 'ref', locked: true, value: 'R1' }),
    ];
    assert.deepEqual(customValues(params, { custom_account: '' }), { problem: 'Account is required.' });
    assert.deepEqual(customValues(params, { custom_account: '12345x' }), { problem: 'Account is not in the expected format.' });
    assert.deepEqual(customValues(params, { custom_account: '123456', custom_plan: 'w' }), { problem: 'Choose one of the options for plan.' });
    assert.deepEqual(customValues(params, { custom_account: '123456', custom_dob: '1990-02-30' }), { problem: 'dob must be a date (YYYY-MM-DD).' });
    assert.deepEqual(customValues(params, { custom_account: ' 123456 ', custom_plan: 'y', custom_dob: '1990-02-28', custom_source: 'forged', custom_ref: 'forged' }), {
      // A prototype-free record: parameter names are the merchant's.
      values: Object.assign(dictionary(), { account: '123456', plan: 'y', dob: '1990-02-28', source: 'mail', ref: 'R1' }),
    });
  });

  it('checks an entry in time linear in its length, whatever the pattern', () => {
    // `(a|a)*b` backtracks 2^199 times in JavaScript's engine over this entry.
    const r = customValues([param({ name: 'n', label: 'N', pattern: '(a|a)*b' })], { custom_n: 'a'.repeat(199) });
    assert.deepEqual(r, { problem: 'N is not in the expected format.' });
    assert.deepEqual(customValues([param({ name: 'n', pattern: '(a|a)*b' })], { custom_n: 'aab' }), { values: Object.assign(dictionary(), { n: 'aab' }) });
  });

  it('never accepts an entry the pattern does not match in full', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (entry) => {
        const r = customValues([param({ name: 'n', pattern: '[0-9]{6}' })], { custom_n: entry });
        if ('values' in r && r.values.n !== undefined) assert.match(r.values.n, /^[0-9]{6}$/);
      }),
    );
  });
});
