// Card-holder accounts and tokenised charges through HTTP.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { caller, describeGateway, ident, MASTERCARD, MID, moveClock, OTHER_CLIENT, OTHER_LICENCE, VISA } from './support.ts';

describeGateway('payments card-holder accounts', (t, c) => {

  const clock = (advance: string) => moveClock(t, { advance });
  const newAccount = async (contact: Record<string, unknown> = { firstname: 'Ada', lastname: 'Lovelace', postcode: 'AB1 2CD' }) => {
    const id = `acct-${ident('a').slice(-12)}`;
    const res = await c.post('/v6/account/create', { account_id: id, contact });
    assert.equal(res.status, 200, res.text);
    return id;
  };
  const register = (id: string, body: Record<string, unknown>) => c.post(`/v6/account/${id}/register`, { cardnumber: VISA, expmonth: 12, expyear: 2030, ...body });
  const charge = (token: string, over: Record<string, unknown> = {}) =>
    c.post('/v6/charge', { token, amount: 990, identifier: ident('ch'), merchantid: MID, ...over });

  it('creates, retrieves, checks existence, changes contact and deletes an account', async () => {
    const id = await newAccount();
    let res = await c.get(`/v6/account/${id}`);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.account_id, res.body.status, res.body.contact.firstname, res.body.cards.length], [id, 'ACTIVE', 'Ada', 0]);
    assert.equal((await c.post('/v6/account/create', { account_id: id })).body.code, 'D049');
    res = await c.get(`/v6/account-exists/${id}`);
    assert.deepEqual([res.body.exists, res.body.active], [true, true]);
    res = await c.post(`/v6/account/${id}/contact`, { email: 'ada@example.com', postcode: 'ZZ9 9ZZ' });
    assert.deepEqual([res.body.contact.email, res.body.contact.postcode, res.body.contact.firstname], ['ada@example.com', 'ZZ9 9ZZ', 'Ada']);
    assert.equal((await c.post(`/v6/account/${id}/contact`, { email: 'x'.repeat(255) })).status, 400);
    res = await c.del(`/v6/account/${id}`);
    assert.deepEqual([res.status, res.body.code], [200, '001']);
    assert.equal((await c.get(`/v6/account-exists/${id}`)).body.exists, false);
    assert.equal((await c.get(`/v6/account/${id}`)).body.code, 'P043');
    assert.equal((await c.post('/v6/account/create', { account_id: 'bad id!' })).body.code, 'D048');
    assert.equal((await c.post('/v6/account/create', { account_id: 'abc' })).body.code, 'D048');
    assert.equal((await c.post('/v6/account/create', {})).body.code, 'P040');
  });

  it('keeps accounts per client', async () => {
    const id = await newAccount();
    const other = caller(t, OTHER_CLIENT, OTHER_LICENCE);
    assert.equal((await other.get(`/v6/account/${id}`)).body.code, 'P043');
    assert.equal((await other.get(`/v6/account-exists/${id}`)).body.exists, false);
  });

  it('registers cards with Luhn, expiry and BIN checks, and manages their status and the default', async () => {
    const id = await newAccount();
    let res = await register(id, { name_on_card: 'A Lovelace' });
    assert.equal(res.status, 200);
    assert.equal(res.body.cards.length, 1);
    const first = res.body.cards[0];
    assert.deepEqual([first.card_status, first.default, first.label, first.last4digits, first.scheme], ['ACTIVE', true, 'Visa/0002', '0002', 'Visa']);
    assert.match(first.token, /^ct/);
    assert.ok(!JSON.stringify(res.body).includes(VISA));
    res = await register(id, { cardnumber: MASTERCARD, default: true });
    assert.equal(res.body.cards.length, 2);
    assert.equal(res.body.default_card_id, res.body.cards[1].card_id);
    assert.equal(res.body.default_card_index, 1);
    // The same card again updates it rather than adding one.
    res = await register(id, { expyear: 2031 });
    assert.equal(res.body.cards.length, 2);
    assert.equal(res.body.cards[0].expyear, 2031);

    assert.equal((await register(id, { cardnumber: '4000000000000003' })).body.code, 'C002');
    assert.equal((await register(id, { expmonth: 1, expyear: 2026 })).body.code, 'C006');
    assert.equal((await register(id, { cardnumber: '9000000000000001' })).body.code, 'C022');
    assert.equal((await register(id, { expmonth: 0 })).body.code, 'C007');
    assert.equal((await register(id, { cardnumber: undefined })).body.code, 'C003');
    assert.equal((await register(id, { name_on_card: 'A' })).status, 400);
    assert.equal((await c.get(`/v6/account/${id}`)).body.cards.length, 2, 'nothing was added by the refusals');

    const cardId = first.card_id;
    res = await c.post(`/v6/account/${id}/card/${cardId}/status`, { card_status: 'INACTIVE' });
    assert.deepEqual([res.status, res.body.code], [200, '001']);
    assert.equal((await c.get(`/v6/account/${id}`)).body.cards[0].card_status, 'INACTIVE');
    res = await c.post(`/v6/account/${id}/card/${cardId}/status`, { card_status: 'BROKEN' });
    assert.equal(res.body.code, '000');
    res = await c.post(`/v6/account/${id}/card/${cardId}/status`, { card_status: 'ACTIVE', default: true });
    assert.equal(res.body.code, '001');
    const view = (await c.get(`/v6/account/${id}`)).body;
    assert.deepEqual([view.cards[0].card_status, view.default_card_id], ['ACTIVE', cardId]);
    res = await c.post(`/v6/account/${id}/card/00000000-0000-0000-0000-000000000000/status`, { card_status: 'ACTIVE' });
    assert.deepEqual([res.status, res.body.code], [422, 'D101']);

    res = await c.del(`/v6/account/${id}/card/${cardId}`);
    assert.deepEqual([res.status, res.body.code], [200, '001']);
    const afterDelete = (await c.get(`/v6/account/${id}`)).body;
    assert.equal(afterDelete.cards.length, 1);
    assert.equal(afterDelete.default_card_id, afterDelete.cards[0].card_id, 'the remaining card becomes the default');
    assert.equal((await c.del(`/v6/account/${id}/card/${cardId}`)).body.code, 'D101');
  });

  it('sets the account status: 001 for ACTIVE or DISABLED, 000 otherwise', async () => {
    const id = await newAccount();
    assert.equal((await c.post(`/v6/account/${id}/status`, { status: 'DISABLED' })).body.code, '001');
    assert.equal((await c.get(`/v6/account/${id}`)).body.status, 'DISABLED');
    assert.equal((await c.post(`/v6/account/${id}/status`, { status: 'ACTIVE' })).body.code, '001');
    assert.equal((await c.post(`/v6/account/${id}/status`, { status: 'ACTIVE' })).body.code, '001');
    assert.equal((await c.post(`/v6/account/${id}/status`, { status: 'GONE' })).body.code, '000');
    assert.equal((await c.get(`/v6/account/${id}`)).body.status, 'ACTIVE');
  });

  it('charges a stored card with a fresh token; every retrieval gives a new token', async () => {
    const id = await newAccount();
    const token = (await register(id, {})).body.cards[0].token;
    const again = (await c.get(`/v6/account/${id}`)).body.cards[0].token;
    assert.notEqual(token, again);
    const res = await charge(token, { trans_info: 'monthly' });
    assert.equal(res.status, 200);
    const a = res.body.AuthResponse;
    assert.deepEqual([a.authorised, a.amount, a.maskedpan], [true, 990, '400000******0002']);
    assert.equal((await charge(again, { csc: '333' })).body.AuthResponse.result_code, '090');
  });

  it('rejects expired, forged and malformed tokens, disabled accounts and inactive cards', async () => {
    const id = await newAccount();
    const view = (await register(id, {})).body;
    const token = view.cards[0].token;
    const forged = token.slice(0, -2) + (token.endsWith('1') ? '22' : '11');
    assert.deepEqual([(await charge(forged)).status, (await charge(forged)).body.code], [422, 'P052']);
    assert.equal((await charge('not-a-token')).body.code, 'P052');
    assert.equal((await charge(token, { token: undefined })).body.code, 'P052');
    // A token of another client's card is no token for this client.
    assert.equal((await caller(t, OTHER_CLIENT, OTHER_LICENCE).post('/v6/charge', { token, amount: 1, identifier: ident('x'), merchantid: 30003 })).body.code, 'P052');

    await c.post(`/v6/account/${id}/status`, { status: 'DISABLED' });
    assert.equal((await charge(token)).body.code, 'P049');
    await c.post(`/v6/account/${id}/status`, { status: 'ACTIVE' });
    await c.post(`/v6/account/${id}/card/${view.cards[0].card_id}/status`, { card_status: 'INACTIVE' });
    assert.equal((await charge(token)).body.code, 'P053');
    await c.post(`/v6/account/${id}/card/${view.cards[0].card_id}/status`, { card_status: 'ACTIVE' });
    assert.equal((await charge(token)).status, 200);

    await clock('31m');
    const expired = await charge(token);
    assert.deepEqual([expired.status, expired.body.code], [422, 'P051']);
  });

  it('needs a valid cardholder agreement for merchant-initiated charges', async () => {
    const id = await newAccount();
    const token = (await register(id, {})).body.cards[0].token;
    assert.equal((await charge(token, { initiation: 'M' })).body.code, 'P044');
    assert.equal((await charge(token, { initiation: 'M', cardholder_agreement: 'Q' })).body.code, 'P045');
    assert.equal((await charge(token, { initiation: 'Z' })).body.code, 'P045');
    const res = await charge(token, { initiation: 'M', cardholder_agreement: 'R', threedsecure: { merchant_termurl: 'https://shop.example/return' } });
    assert.equal(res.body.AuthResponse.authorised, true, 'merchant-initiated charges skip 3-D Secure');
    const unnamed = await charge(token, { initiation: 'C', csc: '123', threedsecure: { merchant_termurl: 'https://shop.example/return' } });
    assert.deepEqual([unnamed.status, unnamed.body.code], [422, 'C028'], '3-D Secure needs the name on the card');
    const named = (await register(id, { name_on_card: 'Ada Lovelace' })).body.cards[0].token;
    const cit = await charge(named, { initiation: 'C', csc: '123', threedsecure: { merchant_termurl: 'https://shop.example/return' } });
    assert.ok(cit.body.RequestChallenged, 'a cardholder-initiated charge may be challenged');
  });

  it('shows cards as expired once their date passes, and refuses to reactivate them', async () => {
    const id = await newAccount();
    const view = (await register(id, { expmonth: 4, expyear: 2026 })).body;
    assert.equal(view.cards[0].card_status, 'ACTIVE');
    await clock('60d');
    const later = (await c.get(`/v6/account/${id}`)).body;
    assert.equal(later.cards[0].card_status, 'EXPIRED');
    assert.equal((await c.post(`/v6/account/${id}/card/${view.cards[0].card_id}/status`, { card_status: 'ACTIVE' })).body.code, '000');
    assert.equal((await charge(later.cards[0].token)).body.code, 'C006');
  });
});
