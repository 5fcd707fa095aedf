// Text PostgreSQL cannot store (the NUL character) arrives only in requests: it is refused with a 400 in the API's
// envelope, not a 500, and nothing is written. SQLite stores it, so there the requests simply succeed or miss.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const AUTH = { authorization: `Bearer ${DEV_TOKEN}` };

for (const database of DATABASES) {
  describe(`NUL characters in requests (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['files', 'calendar'], database });
    });
    after(async () => t.close());

    it('a file id with NUL answers 4xx, found by the fuzzer as a 500 on PostgreSQL', async () => {
      const res = await call(`${t.url('files')}/storage/v2/files/a%00b/touch`, { method: 'POST', headers: AUTH });
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
      assert.equal(res.body.error.code, res.status);
    });

    it('NUL inside body text answers 2xx or 400, never 500', async () => {
      const before = await call(`${t.url('files')}/drive/v2/files`, { headers: AUTH });
      const created = await call(`${t.url('files')}/drive/v2/files`, { body: { title: 'a\u0000b' }, headers: AUTH });
      assert.ok(created.status < 300 || created.status === 400, `${created.status} ${created.text}`);
      if (created.status === 400) {
        const after = await call(`${t.url('files')}/drive/v2/files`, { headers: AUTH });
        assert.equal(after.body.items.length, before.body.items.length, 'the refused insert wrote nothing');
      }
      const event = await call(`${t.url('calendar')}/calendar/v3/calendars/primary/events`, {
        body: { summary: 'x\u0000y', start: { dateTime: '2026-01-01T10:00:00Z' }, end: { dateTime: '2026-01-01T11:00:00Z' } },
        headers: AUTH,
      });
      assert.ok(event.status < 300 || event.status === 400, `${event.status} ${event.text}`);
    });
  });
}
