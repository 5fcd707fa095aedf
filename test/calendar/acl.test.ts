// acl.list paging and ETag, and rule ids: the owner's implicit rule, and ids of scope types twinstack does not store.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, BOB, DEV, calendarSuite, client, expectError } from './helpers.ts';

const enc = encodeURIComponent;

for (const database of DATABASES) {
  describe(`calendar acl (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev } = suite;
    let cal: string;
    before(async () => {
      cal = (await dev('/calendars', { body: { summary: 'Team' } })).body.id;
      for (const value of [ALICE, BOB]) {
        const res = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value } } });
        assert.equal(res.status, 200, res.text);
      }
    });

    it('list: maxResults pages the owner rule and the stored rules; a token of another calendar is 400', async () => {
      const first = await dev(`/calendars/${enc(cal)}/acl?maxResults=2`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body.items.map((r: any) => r.id), [`user:${DEV}`, `user:${ALICE}`]);
      assert.ok(first.body.nextPageToken);
      const second = await dev(`/calendars/${enc(cal)}/acl?maxResults=2&pageToken=${enc(first.body.nextPageToken)}`);
      assert.deepEqual(second.body.items.map((r: any) => r.id), [`user:${BOB}`]);
      assert.equal(second.body.nextPageToken, undefined);
      expectError(await dev(`/calendars/primary/acl?pageToken=${enc(first.body.nextPageToken)}`), 400, 'invalid');
      expectError(await dev(`/calendars/${enc(cal)}/acl?maxResults=0`), 400, 'invalid');
      // The googleapis client pages the same way.
      const viaClient = await client(suite.t).acl.list({ calendarId: cal, maxResults: 1 });
      assert.equal(viaClient.data.items?.length, 1);
      assert.ok(viaClient.data.nextPageToken);
    });

    it('list: the ETag changes when a rule changes role', async () => {
      const before = (await dev(`/calendars/${enc(cal)}/acl`)).body.etag;
      const res = await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${BOB}`)}`, { method: 'PATCH', body: { role: 'writer' } });
      assert.equal(res.status, 200, res.text);
      const after = await dev(`/calendars/${enc(cal)}/acl`);
      assert.notEqual(after.body.etag, before);
      assert.equal(after.body.items.find((r: any) => r.id === `user:${BOB}`).role, 'writer');
    });

    it('rule ids: the owner rule is found whatever the case; ids of other scope types name no rule and change nothing', async () => {
      const owner = await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${DEV.toUpperCase()}`)}`);
      assert.equal(owner.status, 200, owner.text);
      assert.deepEqual([owner.body.id, owner.body.role], [`user:${DEV}`, 'owner']);
      const before = (await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`)).body;
      for (const method of ['PUT', 'PATCH']) {
        expectError(await dev(`/calendars/${enc(cal)}/acl/${enc(`group:${ALICE}`)}`, { method, body: { role: 'owner' } }), 404, 'notFound');
      }
      expectError(await dev(`/calendars/${enc(cal)}/acl/${enc(`group:${ALICE}`)}`), 404, 'notFound');
      expectError(await dev(`/calendars/${enc(cal)}/acl/${enc(`domain:${ALICE}`)}`, { method: 'DELETE' }), 404, 'notFound');
      assert.deepEqual((await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`)).body, before);
    });
  });
}

for (const database of DATABASES) {
  describe(`calendar writes that would leave a required field empty (${database})`, () => {
    const { dev } = calendarSuite(database);

    it('calendars.patch with an empty summary is 400 required, and the calendar keeps its title', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Team' } })).body;
      const res = await dev(`/calendars/${enc(cal.id)}`, { method: 'PATCH', body: { summary: '' } });
      expectError(res, 400, 'required');
      assert.equal(res.body.error.errors[0].location, 'summary');
      assert.deepEqual((await dev(`/calendars/${enc(cal.id)}`)).body, cal);
    });

    it('acl.insert of a user rule without a scope value is 400 required, and no rule is added', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Team' } })).body.id;
      const rules = (await dev(`/calendars/${enc(cal)}/acl`)).body;
      for (const scope of [{ type: 'user' }, { type: 'user', value: '' }]) {
        const res = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope } });
        expectError(res, 400, 'required');
        assert.equal(res.body.error.errors[0].location, 'scope.value');
      }
      assert.deepEqual((await dev(`/calendars/${enc(cal)}/acl`)).body, rules);
    });
  });
}
