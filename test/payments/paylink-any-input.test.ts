// Any body sent to the Paylink create endpoints gets an answer of the API (a token or an Error with a code), never a
// 500, and only accepted requests leave a token behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { caller, MID, startGateway } from './support.ts';

const ANSWERS = [200, 400, 403, 422];

const scalar = fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 60 }), fc.boolean(), fc.constant(null), fc.constant(''));
/** Mostly a valid value, sometimes anything: so both accepted and refused requests are explored. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 20 }, { arbitrary: scalar, weight: 1 });

const tokenRequest = fc.record(
  {
    amount: mostly(fc.integer({ min: 1, max: 999_999_999 })),
    identifier: mostly(fc.stringMatching(/^[A-Za-z0-9-]{4,30}$/)),
    merchantid: mostly(fc.constant(MID)),
    currency: mostly(fc.constant('GBP')),
    accountno: mostly(fc.stringMatching(/^[A-Za-z0-9]{1,20}$/)),
    email: mostly(fc.constant('a@example.com')),
    cardholder: mostly(fc.record({ lastname: mostly(fc.string({ maxLength: 30 })), email: mostly(fc.constant('payer@example.com')), address: mostly(fc.record({ postcode: mostly(fc.stringMatching(/^[A-Z0-9 ]{1,8}$/)) }, { requiredKeys: [] })) }, { requiredKeys: [] })),
    config: mostly(
      fc.record(
        {
          expire_in: mostly(fc.constantFrom('20m', '4h', 0, 600, '2w')),
          field_guard: mostly(fc.uniqueArray(fc.record({ name: mostly(fc.constantFrom('identifier', 'lastname', 'postcode', 'dob')), value: mostly(fc.string({ minLength: 1, maxLength: 20 })) }, { requiredKeys: ['name'] }), { maxLength: 3, selector: (g) => JSON.stringify(g.name) })),
          postback: mostly(fc.constantFrom('https://merchant.example/postback', 'none')),
          options: mostly(fc.array(fc.constantFrom('BYPASS_3DSECURE', 'ENFORCE_CSC_REQUIRED'), { maxLength: 3 })),
          pass_through_headers: mostly(fc.dictionary(fc.stringMatching(/^[A-Za-z-]{1,10}$/), fc.string({ maxLength: 10 }), { maxKeys: 3 })),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: ['amount', 'identifier', 'merchantid'] },
);
const billRequest = fc.record(
  {
    request: mostly(tokenRequest),
    due: mostly(fc.constant('2026-03-31')),
    email_notification_path: mostly(fc.record({ to: mostly(fc.array(fc.constantFrom('a@example.com', 'b@example.com'), { minLength: 1, maxLength: 5 })), cc: mostly(fc.array(fc.constant('c@example.com'), { maxLength: 6 })) }, { requiredKeys: ['to'] })),
    sms_notification_path: mostly(fc.record({ to: mostly(fc.constant('+447700900123')) })),
    attachments: mostly(fc.array(fc.record({ filename: mostly(fc.constant('a.pdf')), mime_type: mostly(fc.constant('application/pdf')), data: mostly(fc.constant(Buffer.from('%PDF-1.4 test').toString('base64'))) }, { requiredKeys: ['filename', 'mime_type'] }), { maxLength: 4 })),
  },
  { requiredKeys: ['request', 'email_notification_path'] },
);

for (const database of DATABASES) {
  describe(`paylink create with any input (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startGateway(database);
    });
    after(async () => t.close());

    const count = async () => {
      const n = (await caller(t).post('/paylink/token/changes', { merchantid: MID, after: '2000-01-01T00:00:00Z' })).body.count;
      assert.equal(typeof n, 'number');
      return n as number;
    };

    for (const [path, arbitrary] of [['/paylink/create', fc.oneof({ arbitrary: tokenRequest, weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 })], ['/paylink/bill-payment', fc.oneof({ arbitrary: billRequest, weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 })]] as const) {
      it(`${path} answers every body with a token or an Error`, async () => {
        const before = await count();
        let created = 0;
        await fc.assert(
          fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, async (body) => {
            const res = await caller(t).post(path, body);
            assert.ok(ANSWERS.includes(res.status), `${res.status} for ${JSON.stringify(body)}: ${res.text}`);
            if (res.status === 200) {
              created++;
              assert.equal(res.body.result, 1);
            } else {
              assert.match(res.body.code, /^[A-Z0-9]{3,4}$/);
              assert.equal(typeof res.body.message, 'string');
            }
          }),
          { numRuns: 80 },
        );
        assert.equal(await count(), before + created, 'only accepted requests created tokens');
        assert.ok(created > 0, 'some generated requests were valid');
      });
    }
  });
}
