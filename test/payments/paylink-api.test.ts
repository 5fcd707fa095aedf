// Paylink merchant API through HTTP: create, status, life cycle, adjustment, changes paging, bill payments with
// notifications, attachments (inline and uploaded) and resend limits. Every refusal leaves nothing behind.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, FOREIGN_MID as OTHER_MID, OTHER_CLIENT, OTHER_LICENCE, startGateway } from './support.ts';

const MID = 42001;
const START = Date.parse('2026-03-10T12:00:00Z');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 32), Buffer.from('\n%%EOF\n')]);

for (const database of DATABASES) {
  describe(`paylink merchant API (${database})`, () => {
    let t: TestRuntime;
    let base: string;

    before(async () => {
      t = await startGateway(database, START, [{ merchantid: MID, clientid: CLIENT, name: 'Acme Water', currency: 'GBP', time_zone: 'UTC' }]);
      base = t.url('payments');
    });
    after(async () => t.close());

    const key = () => caller(t).key();
    const otherKey = () => caller(t, OTHER_CLIENT, OTHER_LICENCE).key();
    const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = { 'pay-api-key': key() }) =>
      call(`${base}${path}`, { method, body, headers });
    const create = (body: Record<string, unknown> = {}) => api('POST', '/paylink/create', { amount: 1250, identifier: `INV-${randomBytes(4).toString('hex')}`, merchantid: MID, ...body });
    const outbox = async (correlation: string) => (await call(`${t.adminUrl}/outbox?service=payments&correlation=${correlation}`)).body.messages as any[];
    const changesCount = async () => (await api('POST', '/paylink/token/changes', { merchantid: MID, after: '2000-01-01T00:00:00Z' })).body.count as number;
    const advance = (ms: number) => call(`${t.adminUrl}/clock`, { body: { advance: ms } });

    it('creates a token with a hosted page address and reports its status', async () => {
      const res = await create({ identifier: 'INV-0001', cardholder: { firstname: 'Zoë', lastname: 'Smith', email: 'zoe@example.com' } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.result, 1);
      assert.equal(typeof res.body.token, 'string');
      assert.equal(res.body.url, `${base}/pay/${res.body.token}`);
      assert.equal(res.body.identifier, 'INV-0001');
      assert.equal(res.body.mode, 'test');
      assert.equal(res.body.expires, '2026-03-10T12:30:00.000Z', 'tokens expire after 30 minutes by default');
      const status = await api('GET', `/paylink/${res.body.token}/status`);
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.token, res.body.token);
      assert.equal(status.body.mid, MID);
      assert.equal(status.body.amount, 1250);
      assert.equal(status.body.is_open_for_payment, true);
      assert.equal(status.body.is_paid, false);
      assert.equal(status.body.is_cancelled, false);
      assert.deepEqual(status.body.state_history.map((e: any) => e.state), ['TokenCreated']);
      const page = await fetch(res.body.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Acme Water/);
    });

    it('answers XML when asked', async () => {
      const res = await call(`${base}/paylink/create`, {
        method: 'POST',
        raw: `<PaylinkTokenRequestModel><amount>990</amount><identifier>XML-0001</identifier><merchantid>${MID}</merchantid></PaylinkTokenRequestModel>`,
        headers: { 'pay-api-key': key(), 'content-type': 'text/xml', accept: 'text/xml' },
      });
      assert.equal(res.status, 200, res.text);
      assert.match(res.text, /<PaylinkTokenCreated>[\s\S]*<identifier>XML-0001<\/identifier>/);
    });

    it('refuses bad requests with the Error model and creates nothing', async () => {
      const before = await changesCount();
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ amount: undefined }, 400, 'P004'],
        [{ amount: 'ten' }, 400, 'P005'],
        [{ amount: 1_000_000_000 }, 400, 'P005'],
        [{ identifier: undefined }, 400, 'P026'],
        [{ identifier: 'abc' }, 400, 'P039'],
        [{ identifier: 'x'.repeat(51) }, 400, 'P016'],
        [{ identifier: 'INV-\u00e9t\u00e9' }, 400, 'P045'],
        [{ merchantid: undefined }, 400, 'P002'],
        [{ accountno: 'has space' }, 400, 'P042'],
        [{ email: 'nope' }, 400, 'P045'],
        [{ currency: 'EUR' }, 422, 'P034'],
        [{ config: { expire_in: 'soon' } }, 400, 'P045'],
        [{ config: { postback: 'ftp://example.com/x' } }, 400, 'P045'],
        [{ config: { options: ['MAKE_IT_FREE'] } }, 400, 'P045'],
        [{ config: { field_guard: [{ name: 'dob' }] } }, 422, 'D041'],
        [{ config: { custom_params: [{ name: 'a', field_type: 'colour' }] } }, 400, 'P045'],
        [{ config: { custom_params: [{ name: 'a', pattern: '([' }] } }, 400, 'P045'],
        // Valid JavaScript, but the server checks entries with RE2, which has no lookaround or backreferences.
        [{ config: { custom_params: [{ name: 'a', pattern: '(?=a)a' }] } }, 400, 'P045'],
        [{ config: { custom_params: [{ name: 'a', pattern: '(a)\\1' }] } }, 400, 'P045'],
        [{ config: { custom_params: [{ name: 'a', field_type: 'select' }] } }, 400, 'P045'],
        [{ config: { custom_params: [{ name: 'a' }, { name: 'a' }] } }, 400, 'P045'],
        [{ merchantid: OTHER_MID }, 403, ''],
      ];
      for (const [patch, status, code] of cases) {
        const body: Record<string, unknown> = { amount: 1250, identifier: 'BAD-0001', merchantid: MID, ...patch };
        for (const k of Object.keys(patch)) if (patch[k] === undefined) delete body[k];
        const res = await api('POST', '/paylink/create', body);
        assert.equal(res.status, status, `${JSON.stringify(patch)}: ${res.text}`);
        if (code) assert.equal(res.body.code, code, JSON.stringify(patch));
        assert.equal(typeof res.body.message, 'string');
      }
      assert.equal((await api('POST', '/paylink/create', { amount: 1 }, {})).status, 401);
      assert.equal((await api('POST', '/paylink/create', { amount: 1 }, { 'pay-api-key': caller(t, CLIENT, 'WRONGLICENCE0000').key() })).status, 403);
      assert.equal(await changesCount(), before, 'no token was created');
    });

    it('finds no source value for a guard named like an Object.prototype member: D041, nothing created', async () => {
      const before = await changesCount();
      for (const name of ['constructor', 'toString', 'valueOf', '__proto__', 'constructor.name', 'address.constructor.name']) {
        const res = await create({ cardholder: { firstname: 'Zoë', address: { postcode: 'SW1A 1AA' } }, config: { field_guard: [{ name }] } });
        assert.equal(res.status, 422, `${name}: ${res.text}`);
        assert.equal(res.body.code, 'D041', name);
        assert.equal(res.body.message, `No source value for field guard ${name}`);
      }
      assert.equal(await changesCount(), before, 'no token was created');
    });

    it('keeps tokens to their own client', async () => {
      const { body } = await create();
      const res = await api('GET', `/paylink/${body.token}/status`, undefined, { 'pay-api-key': otherKey() });
      assert.equal(res.status, 403);
      assert.equal((await api('PUT', `/paylink/${body.token}/cancel`, undefined, { 'pay-api-key': otherKey() })).status, 403);
      assert.equal((await api('GET', `/paylink/${body.token}/status`)).body.is_cancelled, false);
      const unknown = await api('GET', '/paylink/NoSuchToken/status');
      assert.equal(unknown.status, 422);
      assert.equal(unknown.body.code, 'D101');
    });

    it('cancels, closes (hiding status), reopens only closed unpaid tokens, and reconciles', async () => {
      const a = (await create()).body.token;
      let res = await api('PUT', `/paylink/${a}/cancel`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.code, '001');
      res = await api('GET', `/paylink/${a}/status`);
      assert.equal(res.body.is_cancelled, true);
      assert.equal(res.body.is_open_for_payment, false);
      res = await api('PUT', `/paylink/${a}/reopen`);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, '000');
      assert.equal((await api('GET', `/paylink/${a}/status`)).body.state, 'cancelled', 'the refused reopen changed nothing');

      const b = (await create()).body.token;
      assert.equal((await api('PUT', `/paylink/${b}/close`)).body.code, '001');
      res = await api('GET', `/paylink/${b}/status`);
      assert.equal(res.status, 422, 'a closed token no longer appears in status calls');
      assert.equal(res.body.code, 'D101');
      assert.equal((await api('PUT', `/paylink/${b}/reopen`)).body.code, '001');
      res = await api('GET', `/paylink/${b}/status`);
      assert.equal(res.body.state, 'reopened');
      assert.equal(res.body.is_open_for_payment, true);
      assert.deepEqual(res.body.state_history.map((e: any) => e.state), ['TokenCreated', 'Closed', 'Reopened']);
      assert.equal((await api('PUT', `/paylink/${b}/reconciled`)).body.code, '001');
      res = await api('GET', `/paylink/${b}/status`);
      assert.equal(res.body.is_reconciled, true);
      assert.equal(res.body.is_open_for_payment, false);
    });

    it('adjusts the amount of an open token', async () => {
      const { token, identifier } = (await create()).body;
      let res = await api('POST', `/paylink/${token}/adjustment`, { amount: 990, identifier, reason: 'part payment' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.code, '001');
      for (const [body, code] of [[{ amount: 0 }, 'P005'], [{}, 'P004'], [{ amount: 5, identifier: 'OTHER-1' }, 'P045'], [{ amount: 5, reason: 7 }, 'P045']] as const) {
        res = await api('POST', `/paylink/${token}/adjustment`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, code);
      }
      res = await api('GET', `/paylink/${token}/status`);
      assert.equal(res.body.amount, 990);
      assert.equal(res.body.state_history.at(-1).message, 'Amount changed from 1250 to 990: part payment');
      await api('PUT', `/paylink/${token}/cancel`);
      res = await api('POST', `/paylink/${token}/adjustment`, { amount: 100 });
      assert.equal(res.status, 422);
      assert.equal((await api('GET', `/paylink/${token}/status`)).body.amount, 990);
    });

    it('lists changes with maxResults, nextToken and orderBy', async () => {
      await advance(60_000);
      const since = new Date(t.rt.clock.now()).toISOString();
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push((await create()).body.token);
      const page = (extra: Record<string, unknown>) => api('POST', '/paylink/token/changes', { merchantid: MID, after: since, ...extra });
      let res = await page({ maxResults: 5 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.count, 7);
      assert.deepEqual(res.body.tokens.map((s: any) => s.token), made.slice(0, 5));
      res = await page({ maxResults: 5, nextToken: res.body.nextToken });
      assert.deepEqual(res.body.tokens.map((s: any) => s.token), made.slice(5));
      assert.equal(res.body.nextToken, undefined);
      res = await page({ maxResults: 5, orderBy: '-p.id' });
      assert.deepEqual(res.body.tokens.map((s: any) => s.token), made.slice(2).reverse());
      res = await page({ maxResults: 5, orderBy: 'p.id DESC', nextToken: res.body.nextToken });
      assert.deepEqual(res.body.tokens.map((s: any) => s.token), made.slice(0, 2).reverse());
      for (const bad of [{ maxResults: 4 }, { maxResults: 251 }, { orderBy: 'amount' }, { nextToken: 'bogus' }, { after: 'yesterday' }]) {
        res = await page(bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      assert.equal((await api('POST', '/paylink/token/changes', { merchantid: MID })).status, 400);
      assert.equal((await api('POST', '/paylink/token/changes', { merchantid: OTHER_MID, after: since })).status, 403);
    });

    it('creates a bill payment with e-mail, SMS and attachments, and accepts the upload once', async () => {
      const res = await api('POST', '/paylink/bill-payment', {
        request: { amount: 4500, identifier: 'BILL-0001', merchantid: MID, cardholder: { lastname: 'Smith' }, config: { field_guard: [{ name: 'lastname', label: 'Surname' }] } },
        addressee: 'Ms Smith',
        descriptor: 'Water bill March',
        due: '2026-03-31',
        memo: 'Thank you for your custom.',
        email_notification_path: { to: ['payer@example.com'], cc: ['accounts@example.com'], reply: ['billing@acme.example'] },
        sms_notification_path: { to: '+447700900123' },
        attachments: [
          { filename: 'bill.pdf', 'mime-type': 'application/pdf', data: PDF.toString('base64') },
          { filename: 'terms.pdf', mime_type: 'application/pdf' },
        ],
      });
      assert.equal(res.status, 200, res.text);
      const { token, attachments } = res.body;
      assert.deepEqual(attachments.map((a: any) => [a.name, a.result]), [['bill.pdf', 'OK'], ['terms.pdf', 'UPLOAD']]);
      const upload = attachments[1];
      assert.equal(upload.expires, new Date(t.rt.clock.now() + 24 * 3_600_000).toISOString());

      const messages = await outbox(token);
      const email = messages.find((m) => m.channel === 'email');
      const sms = messages.find((m) => m.channel === 'sms');
      assert.equal(email.recipient, 'payer@example.com');
      assert.equal(email.headers.cc, 'accounts@example.com');
      assert.equal(email.headers['reply-to'], 'billing@acme.example');
      assert.match(email.body, /Dear Ms Smith/);
      assert.match(email.body, new RegExp(`${base}/pay/${token}`));
      assert.equal(sms.recipient, '+447700900123');
      assert.ok(sms.body.length <= 153);
      const short = /(http:\/\/\S+\/u\/\S+)/.exec(sms.body)![1];
      const hop = await fetch(short, { redirect: 'manual' });
      assert.equal(hop.status, 302);
      assert.equal(hop.headers.get('location'), `/pay/${token}`);

      let up = await fetch(upload.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: Buffer.from('not a pdf') });
      assert.equal(up.status, 400);
      up = await fetch(upload.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF });
      assert.equal(up.status, 200, await up.text());
      up = await fetch(upload.url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF });
      assert.equal(up.status, 403, 'an upload address works once');

      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      let status = await api('GET', `/paylink/${token}/status`);
      assert.equal(status.body.is_attachment, true);
      assert.equal(status.body.is_email_sent, true);
      assert.equal(status.body.is_sms_sent, true);
      const states = status.body.state_history.map((e: any) => e.state);
      for (const s of ['BillPaymentEmailNotificationQueued', 'BillPaymentSmsNotificationQueued', 'AttachmentAdded', 'AttachmentAwaitingUpload', 'AttachmentUploaded']) assert.ok(states.includes(s), s);

      assert.equal((await api('PUT', `/paylink/${token}/purge-attachments`)).body.code, '001');
      status = await api('GET', `/paylink/${token}/status`);
      assert.equal(status.body.is_attachment, false);
      assert.equal((await api('PUT', `/paylink/${token}/purge-attachments`)).body.code, '001', 'also when none are left');
    });

    it('expires upload addresses after 24 hours', async () => {
      const res = await api('POST', '/paylink/bill-payment', {
        request: { amount: 100, identifier: 'BILL-0002', merchantid: MID, config: { expire_in: '7d' } },
        attachments: [{ filename: 'late.pdf', mime_type: 'application/pdf' }],
      });
      assert.equal(res.status, 200, res.text);
      await advance(24 * 3_600_000 + 1000);
      const up = await fetch(res.body.attachments[0].url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF });
      assert.equal(up.status, 403);
    });

    it('refuses bill payments over the limits', async () => {
      const before = await changesCount();
      const request = { amount: 100, identifier: 'BILL-LIMIT', merchantid: MID, cardholder: { lastname: 'X' }, config: { field_guard: [{ name: 'lastname' }] } };
      const many = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com', 'f@example.com'];
      const pdf = { filename: 'a.pdf', mime_type: 'application/pdf' };
      const cases: Array<Record<string, unknown>> = [
        { email_notification_path: [{ to: ['a@example.com'] }, { to: ['b@example.com'] }], sms_notification_path: [{ to: '+447700900001' }, { to: '+447700900002' }] },
        { email_notification_path: { to: many } },
        { email_notification_path: { to: ['a@example.com'], bcc: many } },
        { email_notification_path: { to: [] } },
        { email_notification_path: { to: ['not-an-address'] } },
        { sms_notification_path: { to: '07700900123' } },
        { request: { ...request, config: {} }, sms_notification_path: { to: '+447700900123' } },
        { attachments: [pdf, pdf, pdf, pdf] },
        { attachments: [{ filename: '../etc/passwd.pdf', mime_type: 'application/pdf' }] },
        { attachments: [{ filename: 'a.doc', mime_type: 'application/msword' }] },
        { attachments: [{ filename: 'big.pdf', mime_type: 'application/pdf', data: Buffer.concat([PDF, Buffer.alloc(33 * 1024)]).toString('base64') }] },
        { attachments: [{ filename: 'fake.pdf', mime_type: 'application/pdf', data: Buffer.from('hello').toString('base64') }] },
        { due: '2026-02-30' },
        { request: undefined },
      ];
      for (const extra of cases) {
        const res = await api('POST', '/paylink/bill-payment', { request, ...extra });
        assert.equal(res.status, 400, `${JSON.stringify(extra).slice(0, 120)}: ${res.text}`);
        assert.ok(['P044', 'P045', 'P027'].includes(res.body.code), res.text);
      }
      assert.equal(await changesCount(), before);
    });

    it('keeps tokens, timelines and upload addresses across a restart', async () => {
      const res = await api('POST', '/paylink/bill-payment', {
        request: { amount: 321, identifier: 'BILL-RESTART', merchantid: MID, config: { expire_in: '2d' } },
        attachments: [{ filename: 'later.pdf', mime_type: 'application/pdf' }],
      });
      const { token } = res.body;
      await api('POST', `/paylink/${token}/adjustment`, { amount: 300 });
      await t.restart();
      base = t.url('payments');
      const status = await api('GET', `/paylink/${token}/status`);
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.amount, 300);
      assert.deepEqual(status.body.state_history.map((e: any) => e.state), ['TokenCreated', 'AttachmentAwaitingUpload', 'Adjusted']);
      const upload = new URL(res.body.attachments[0].url);
      const up = await fetch(`${base}${upload.pathname}`, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: PDF });
      assert.equal(up.status, 200);
    });

    it('holds an SMS outside the polite window and limits resends', async () => {
      await call(`${t.adminUrl}/clock`, { body: { set: '2026-03-12T21:30:00Z' } });
      const res = await api('POST', '/paylink/bill-payment', {
        request: { amount: 700, identifier: 'BILL-0003', merchantid: MID, cardholder: { lastname: 'Jones' }, config: { expire_in: '30d', field_guard: [{ name: 'lastname' }] } },
        email_notification_path: { to: ['payer@example.com'] },
        sms_notification_path: { to: '+447700900555' },
      });
      assert.equal(res.status, 200, res.text);
      const token = res.body.token;
      const sms = (await outbox(token)).find((m) => m.channel === 'sms');
      assert.equal(sms.status, 'pending');
      assert.equal(sms.nextAttemptAt, '2026-03-13T08:00:00.000Z');
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      let status = (await api('GET', `/paylink/${token}/status`)).body;
      assert.equal(status.is_email_sent, true);
      assert.equal(status.is_sms_sent, false, 'the SMS waits for the polite window');
      assert.ok(status.state_history.some((e: any) => e.message === 'SMS notification queued, held until 2026-03-13T08:00:00.000Z (outside the polite window)'));

      const resend = (body: unknown) => api('POST', `/paylink/${token}/resend-notification`, body);
      for (let i = 0; i < 5; i++) assert.equal((await resend({ email: true })).body.code, '001', `e-mail resend ${i + 1}`);
      let r = await resend({ email: true });
      assert.equal(r.status, 422);
      assert.match(r.body.message, /5 times/);
      r = await resend({ sms: true });
      assert.equal(r.status, 422, 'not within a minute of the last SMS');
      for (let i = 0; i < 3; i++) {
        await advance(61_000);
        assert.equal((await resend({ sms: true })).body.code, '001', `SMS resend ${i + 1}`);
      }
      await advance(61_000);
      r = await resend({ sms: true });
      assert.equal(r.status, 422);
      assert.equal((await resend({})).status, 400);
      assert.equal((await resend({ email: 'yes' })).status, 400);
      const messages = await outbox(token);
      assert.equal(messages.filter((m) => m.channel === 'email').length, 6);
      assert.equal(messages.filter((m) => m.channel === 'sms').length, 4);
      await call(`${t.adminUrl}/clock`, { body: { set: '2026-03-13T08:00:00Z' } });
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      status = (await api('GET', `/paylink/${token}/status`)).body;
      assert.equal(status.is_sms_sent, true, 'delivered once the window opened');
    });
  });
}
