// ACL rules of scope type `default` (public) and `domain`: rule ids and scopes, the roles each may grant, a user's
// effective role (the highest of their own, their domain's and the public rule) everywhere access is checked, public
// and domain calendars added to a user's list with calendarList.insert and leaving it with their rule, tombstones and
// sync, watch notifications, bad input refused without a change, and the googleapis client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, BOB, DEV, TOKENS, calendarSuite, client, expectError, outbox, timed, type Api } from './helpers.ts';

const enc = encodeURIComponent;
const T = timed('2026-03-12T15:00:00Z', '2026-03-12T16:00:00Z');
const WINDOW = { timeMin: '2026-03-12T00:00:00Z', timeMax: '2026-03-13T00:00:00Z' };

/** Every page of a list from `path` (which already has a query string); the items and the last page's sync token. */
async function all(a: Api, path: string): Promise<{ items: any[]; nextSyncToken: string }> {
  const items: any[] = [];
  let res = await a(path);
  for (;;) {
    assert.equal(res.status, 200, res.text);
    items.push(...res.body.items);
    if (!res.body.nextPageToken) break;
    res = await a(`${path}&pageToken=${enc(res.body.nextPageToken)}`);
  }
  return { items, nextSyncToken: res.body.nextSyncToken };
}

/** A change of the ACL by someone who is not an owner. */
const refusedChange = (res: { status: number; body: any }) => {
  expectError(res, 403, 'requiredAccessLevel');
  assert.equal(res.body.error.message, 'You need to have owner access to this calendar.');
};

const roles = (items: any[]) => items.map((r) => `${r.id}=${r.role ?? (r.deleted ? 'deleted' : r.accessRole)}`);

/** The 400 of a refused write: its reason and location. */
function refused(res: { status: number; body: any }, reason: string, location: string): void {
  expectError(res, 400, reason);
  assert.equal(res.body.error.errors[0].location, location, JSON.stringify(res.body));
}

for (const database of DATABASES) {
  describe(`calendar acl scopes default and domain (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, alice, bob } = suite;

    /** A calendar of the developer's with one event; its id and the event's. */
    const calendarWithEvent = async (summary: string) => {
      const cal = (await dev('/calendars', { body: { summary } })).body.id as string;
      const ev = await dev(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'busy' } });
      assert.equal(ev.status, 200, ev.text);
      return { cal, event: ev.body.id as string };
    };
    const busyOf = async (a: Api, cal: string) => (await a('/freeBusy', { body: { ...WINDOW, items: [{ id: cal }] } })).body.calendars[cal];

    it('default: the public rule (id "default", no scope value) gives every user its role, reader at most', async () => {
      const { cal, event } = await calendarWithEvent('Public');
      expectError(await bob(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
      assert.deepEqual((await busyOf(bob, cal)).errors, [{ domain: 'global', reason: 'notFound' }]);

      const rule = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'default' } } });
      assert.equal(rule.status, 200, rule.text);
      assert.deepEqual({ ...rule.body, etag: undefined }, { kind: 'calendar#aclRule', etag: undefined, id: 'default', scope: { type: 'default' }, role: 'reader' });
      assert.deepEqual((await dev(`/calendars/${enc(cal)}/acl/default`)).body, rule.body);
      assert.deepEqual(roles((await dev(`/calendars/${enc(cal)}/acl`)).body.items), [`user:${DEV}=owner`, 'default=reader']);

      // Every user reads; nobody but the owner writes or sees the ACL.
      for (const user of [alice, bob]) {
        assert.equal((await user(`/calendars/${enc(cal)}/events/${event}`)).body.summary, 'busy');
        assert.equal((await user(`/calendars/${enc(cal)}`)).body.id, cal);
        expectError(await user(`/calendars/${enc(cal)}/events`, { body: T }), 403, 'requiredAccessLevel');
        expectError(await user(`/calendars/${enc(cal)}/acl`), 403, 'requiredAccessLevel');
        assert.deepEqual((await busyOf(user, cal)).busy, [{ start: '2026-03-12T15:00:00Z', end: '2026-03-12T16:00:00Z' }]);
      }
      // Not on anyone's list by itself.
      assert.ok(!(await bob('/users/me/calendarList?showDeleted=true&showHidden=true')).body.items.some((e: any) => e.id === cal));
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`, { method: 'PATCH', body: { hidden: true } }), 404, 'notFound');
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`, { method: 'DELETE' }), 404, 'notFound');

      // freeBusyReader: busy periods only.
      const lowered = await dev(`/calendars/${enc(cal)}/acl/default`, { method: 'PUT', body: { role: 'freeBusyReader', scope: { type: 'default' } } });
      assert.equal(lowered.status, 200, lowered.text);
      expectError(await bob(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
      assert.equal((await busyOf(bob, cal)).busy.length, 1);
      // A user's own rule still counts: the highest role wins.
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'writer', scope: { type: 'user', value: BOB } } });
      assert.equal((await bob(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'by bob' } })).status, 200);
      expectError(await alice(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
    });

    it('domain: every user whose e-mail is in the domain gets its role (writer at most); the highest role wins', async () => {
      const { cal, event } = await calendarWithEvent('Company');
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'freeBusyReader', scope: { type: 'user', value: ALICE } } });
      const rule = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'writer', scope: { type: 'domain', value: 'Example.TEST' } } });
      assert.equal(rule.status, 200, rule.text);
      assert.deepEqual([rule.body.id, rule.body.scope], ['domain:example.test', { type: 'domain', value: 'example.test' }]);
      assert.deepEqual((await dev(`/calendars/${enc(cal)}/acl/${enc('domain:EXAMPLE.test')}`)).body, rule.body);

      // alice and bob are in example.test: both write; alice's own freeBusyReader rule does not lower her.
      for (const [user, summary] of [[alice, 'by alice'], [bob, 'by bob']] as const) {
        const made = await user(`/calendars/${enc(cal)}/events`, { body: { ...T, summary } });
        assert.equal(made.status, 200, made.text);
        assert.equal((await user(`/calendars/${enc(cal)}/events/${made.body.id}`, { method: 'PATCH', body: { location: 'here' } })).status, 200);
      }
      // alice's list shows it (her own rule puts it there) with her effective role; bob's does not until he adds it.
      assert.equal((await alice(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'writer');
      assert.ok((await alice('/users/me/calendarList?minAccessRole=writer')).body.items.some((e: any) => e.id === cal));
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');

      // Without the domain rule, alice is back to free/busy and bob sees nothing.
      assert.equal((await dev(`/calendars/${enc(cal)}/acl/${enc('domain:example.test')}`, { method: 'DELETE' })).status, 204);
      expectError(await alice(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
      assert.equal((await busyOf(alice, cal)).busy.length, 1);
      assert.equal((await alice(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'freeBusyReader');
      expectError(await bob(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
      assert.deepEqual((await busyOf(bob, cal)).errors, [{ domain: 'global', reason: 'notFound' }]);
      // A domain the user is not in gives nothing.
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'domain', value: 'other.test' } } });
      expectError(await bob(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
    });

    it('bad input on every write path of the new scopes is 400, and nothing changes', async () => {
      const { cal } = await calendarWithEvent('Refusals');
      const acl = `/calendars/${enc(cal)}/acl`;
      await dev(acl, { body: { role: 'reader', scope: { type: 'default' } } });
      await dev(acl, { body: { role: 'reader', scope: { type: 'domain', value: 'example.test' } } });
      const snapshot = (await dev(`${acl}?showDeleted=true`)).body;

      // insert
      for (const role of ['writer', 'owner']) refused(await dev(acl, { body: { role, scope: { type: 'default' } } }), 'invalid', 'role');
      refused(await dev(acl, { body: { role: 'owner', scope: { type: 'domain', value: 'example.test' } } }), 'invalid', 'role');
      refused(await dev(acl, { body: { role: 'reader', scope: { type: 'default', value: 'example.test' } } }), 'invalid', 'scope.value');
      for (const scope of [{ type: 'domain' }, { type: 'domain', value: '' }]) refused(await dev(acl, { body: { role: 'reader', scope } }), 'required', 'scope.value');
      for (const value of ['not a domain', ALICE, '-bad.test', 'a..b']) refused(await dev(acl, { body: { role: 'reader', scope: { type: 'domain', value } } }), 'invalid', 'scope.value');
      refused(await dev(acl, { body: { role: 'reader', scope: { type: 'everyone' } } }), 'invalid', 'scope.type');
      refused(await dev(acl, { body: { role: 'reader', scope: {} } }), 'required', 'scope.type');
      refused(await dev(acl, { body: { role: 'reader', scope: { type: 'default', extra: 1 } } }), 'invalid', 'scope.extra');
      // update and patch
      const rule = (id: string) => `${acl}/${enc(id)}`;
      refused(await dev(rule('default'), { method: 'PATCH', body: { role: 'writer' } }), 'invalid', 'role');
      refused(await dev(rule('default'), { method: 'PUT', body: { role: 'owner', scope: { type: 'default' } } }), 'invalid', 'role');
      refused(await dev(rule('default'), { method: 'PUT', body: { scope: { type: 'default' } } }), 'required', 'role');
      refused(await dev(rule('default'), { method: 'PATCH', body: { scope: { type: 'domain', value: 'example.test' } } }), 'invalid', 'scope');
      refused(await dev(rule('domain:example.test'), { method: 'PATCH', body: { role: 'owner' } }), 'invalid', 'role');
      refused(await dev(rule('domain:example.test'), { method: 'PATCH', body: { scope: { type: 'domain', value: 'other.test' } } }), 'invalid', 'scope');
      refused(await dev(rule('domain:example.test'), { method: 'PUT', body: { role: 'reader', scope: { type: 'default' } } }), 'invalid', 'scope');
      // ids of no rule: a domain without a rule, group ids, malformed ids
      for (const id of ['domain:other.test', 'group:team@example.test', 'default:x', 'domain']) {
        expectError(await dev(rule(id), { method: 'PATCH', body: { role: 'reader' } }), 404, 'notFound');
        expectError(await dev(rule(id), { method: 'DELETE' }), 404, 'notFound');
        expectError(await dev(rule(id)), 404, 'notFound');
      }
      // Another user, however much they may see, cannot change the ACL.
      expectError(await bob(acl, { body: { role: 'reader', scope: { type: 'default' } } }), 403, 'requiredAccessLevel');
      expectError(await bob(rule('default'), { method: 'DELETE' }), 403, 'requiredAccessLevel');
      assert.deepEqual((await dev(`${acl}?showDeleted=true`)).body, snapshot);
      assert.deepEqual((await dev(`${acl}?syncToken=${enc(snapshot.nextSyncToken)}`)).body.items, []);

      // calendarList.insert of a public calendar with a bad body adds nothing.
      const list = (await bob('/users/me/calendarList?showDeleted=true&showHidden=true')).body;
      refused(await bob('/users/me/calendarList', { body: { id: cal, colorId: '99' } }), 'invalid', 'colorId');
      refused(await bob('/users/me/calendarList', { body: { id: cal, summaryOverride: 'x'.repeat(1025) } }), 'invalid', 'summaryOverride');
      assert.deepEqual((await bob('/users/me/calendarList?showDeleted=true&showHidden=true')).body, list);
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');
    });

    it('calendarList: a public calendar added with insert stays on the list and leaves it with its rule (list sync, watch)', async () => {
      const { cal } = await calendarWithEvent('Town events');
      const acl = `/calendars/${enc(cal)}/acl`;
      await dev(acl, { body: { role: 'reader', scope: { type: 'default' } } });
      const start = await all(bob, '/users/me/calendarList?maxResults=1');
      const aliceStart = await all(alice, '/users/me/calendarList?maxResults=1');
      const ch = await bob('/users/me/calendarList/watch', { body: { id: 'bob-list', type: 'web_hook', address: 'http://127.0.0.1:9/hook' } });
      assert.equal(ch.status, 200, ch.text);
      const states = async () => (await outbox(suite.t, 'webhook')).filter((m) => m.correlation === 'channel:bob-list').map((m) => m.headers['X-Goog-Resource-State']);

      const added = await bob('/users/me/calendarList', { body: { id: cal, summaryOverride: 'Town' } });
      assert.equal(added.status, 200, added.text);
      assert.deepEqual([added.body.accessRole, added.body.summaryOverride], ['reader', 'Town']);
      assert.ok(roles((await bob('/users/me/calendarList')).body.items).includes(`${cal}=reader`));
      assert.equal((await bob(`/users/me/calendarList/${enc(cal)}`, { method: 'PATCH', body: { hidden: true } })).body.hidden, true);
      const joined = await all(bob, `/users/me/calendarList?syncToken=${enc(start.nextSyncToken)}`);
      assert.deepEqual(roles(joined.items), [`${cal}=reader`]);
      assert.deepEqual(await states(), ['sync', 'exists', 'exists']);

      // A role change keeps it on the list: the entry shows it, a sync does not report it, the channel is told.
      await dev(`${acl}/default`, { method: 'PATCH', body: { role: 'freeBusyReader' } });
      assert.equal((await bob(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'freeBusyReader');
      assert.deepEqual((await all(bob, `/users/me/calendarList?syncToken=${enc(joined.nextSyncToken)}`)).items, []);
      assert.deepEqual(await states(), ['sync', 'exists', 'exists', 'exists']);

      // The rule goes: the calendar leaves the list, reported as a lost share.
      assert.equal((await dev(`${acl}/default`, { method: 'DELETE' })).status, 204);
      const left = await all(bob, `/users/me/calendarList?syncToken=${enc(joined.nextSyncToken)}`);
      assert.equal(left.items.length, 1);
      assert.deepEqual({ ...left.items[0], etag: undefined }, { kind: 'calendar#calendarListEntry', etag: undefined, id: cal, deleted: true });
      assert.ok(!(await bob('/users/me/calendarList?showDeleted=true&showHidden=true')).body.items.some((e: any) => e.id === cal));
      expectError(await bob(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');
      expectError(await bob('/users/me/calendarList', { body: { id: cal } }), 404, 'notFound');
      assert.deepEqual(await states(), ['sync', 'exists', 'exists', 'exists', 'exists']);

      // It comes back with the rule (the overlay outlives it), across a restart too; alice, who never added it, saw nothing.
      await dev(acl, { body: { role: 'reader', scope: { type: 'default' } } });
      await suite.t.restart();
      const back = await all(bob, `/users/me/calendarList?syncToken=${enc(left.nextSyncToken)}`);
      assert.deepEqual(back.items.map((e: any) => [e.id, e.accessRole, e.summaryOverride, e.hidden]), [[cal, 'reader', 'Town', true]]);
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(aliceStart.nextSyncToken)}`)).items, []);

      // Taken off and put back by bob; deleting the calendar reports it gone.
      assert.equal((await bob(`/users/me/calendarList/${enc(cal)}`, { method: 'DELETE' })).status, 204);
      assert.equal((await bob('/users/me/calendarList?showDeleted=true&showHidden=true')).body.items.find((e: any) => e.id === cal).deleted, true);
      assert.equal((await bob('/users/me/calendarList', { body: { id: cal } })).status, 200);
      assert.equal((await dev(`/calendars/${enc(cal)}`, { method: 'DELETE' })).status, 204);
      const gone = await all(bob, `/users/me/calendarList?syncToken=${enc(back.nextSyncToken)}`);
      assert.deepEqual(gone.items.map((e: any) => [e.id, e.deleted]), [[cal, true]]);
    });

    it('a domain calendar added by a user of the domain leaves the list when the rule goes; a user rule keeps it', async () => {
      const { cal } = await calendarWithEvent('Domain list');
      const acl = `/calendars/${enc(cal)}/acl`;
      await dev(acl, { body: { role: 'reader', scope: { type: 'domain', value: 'example.test' } } });
      assert.equal((await bob('/users/me/calendarList', { body: { id: cal } })).body.accessRole, 'reader');
      assert.equal((await alice('/users/me/calendarList', { body: { id: cal } })).body.accessRole, 'reader');
      await dev(acl, { body: { role: 'freeBusyReader', scope: { type: 'user', value: ALICE } } });
      const bobStart = await all(bob, '/users/me/calendarList?maxResults=5');
      const aliceStart = await all(alice, '/users/me/calendarList?maxResults=5');
      await dev(`${acl}/${enc('domain:example.test')}`, { method: 'PATCH', body: { role: 'none' } });
      assert.deepEqual(roles((await all(bob, `/users/me/calendarList?syncToken=${enc(bobStart.nextSyncToken)}`)).items), [`${cal}=deleted`]);
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(aliceStart.nextSyncToken)}`)).items, []);
      assert.equal((await alice(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'freeBusyReader');
      // A rule set to none is deleted: a tombstone, listed only with showDeleted, 404 to get and patch.
      assert.equal((await dev(`${acl}/${enc('domain:example.test')}`)).status, 404);
      assert.equal((await dev(`${acl}/${enc('domain:example.test')}`, { method: 'PATCH', body: { role: 'reader' } })).status, 404);
      assert.equal((await all(dev, acl)).items.some((r: any) => r.id === 'domain:example.test'), false);
      const shown = (await all(dev, `${acl}?showDeleted=true`)).items.find((r: any) => r.id === 'domain:example.test');
      assert.equal(shown.role, 'none');
    });

    it('acl tombstones and sync carry the new rule ids and scopes; acl.watch is told of every change', async () => {
      const { cal } = await calendarWithEvent('Acl sync');
      const acl = `/calendars/${enc(cal)}/acl`;
      const start = await all(dev, `${acl}?maxResults=1`);
      assert.equal((await dev(`${acl}/watch`, { body: { id: 'acl-scopes', type: 'web_hook', address: 'http://127.0.0.1:9/hook' } })).status, 200);
      const states = async () => (await outbox(suite.t, 'webhook')).filter((m) => m.correlation === 'channel:acl-scopes').map((m) => m.headers['X-Goog-Resource-State']);

      const first = (await dev(acl, { body: { role: 'reader', scope: { type: 'default' } } })).body;
      await dev(acl, { body: { role: 'writer', scope: { type: 'domain', value: 'example.test' } } });
      assert.equal((await dev(`${acl}/default`, { method: 'DELETE' })).status, 204);
      const changed = await all(dev, `${acl}?maxResults=1&syncToken=${enc(start.nextSyncToken)}`);
      assert.deepEqual(changed.items.map((r) => [r.id, r.scope, r.role]), [
        ['default', { type: 'default' }, 'none'],
        ['domain:example.test', { type: 'domain', value: 'example.test' }, 'writer'],
      ]);
      assert.deepEqual(await states(), ['sync', 'exists', 'exists', 'exists']);

      assert.deepEqual(roles((await dev(acl)).body.items), [`user:${DEV}=owner`, 'domain:example.test=writer']);
      assert.deepEqual(roles((await dev(`${acl}?showDeleted=true`)).body.items), [`user:${DEV}=owner`, 'default=none', 'domain:example.test=writer']);
      expectError(await dev(`${acl}/default`), 404, 'notFound');
      expectError(await dev(`${acl}/default`, { method: 'PATCH', body: { role: 'reader' } }), 404, 'notFound');
      expectError(await dev(`${acl}/default`, { method: 'DELETE' }), 404, 'notFound');
      // A writer through the domain rule reads the ACL (Calendar's writer role "provides read access to the calendar's
      // ACLs") and may watch it, but changes nothing.
      assert.deepEqual(roles((await bob(acl)).body.items), [`user:${DEV}=owner`, 'domain:example.test=writer']);
      assert.equal((await bob(`${acl}/${enc('domain:example.test')}`)).body.role, 'writer');
      assert.equal((await bob(`${acl}/watch`, { body: { id: 'acl-writer', type: 'web_hook', address: 'http://127.0.0.1:9/hook' } })).status, 200);
      refusedChange(await bob(acl, { body: { role: 'reader', scope: { type: 'default' } } }));
      refusedChange(await bob(`${acl}/${enc('domain:example.test')}`, { method: 'PATCH', body: { role: 'reader' } }));
      refusedChange(await bob(`${acl}/${enc('domain:example.test')}`, { method: 'DELETE' }));
      assert.deepEqual(roles((await dev(`${acl}?showDeleted=true`)).body.items), [`user:${DEV}=owner`, 'default=none', 'domain:example.test=writer']);

      const again = (await dev(acl, { body: { role: 'freeBusyReader', scope: { type: 'default' } } })).body;
      assert.equal(again.id, 'default');
      assert.notEqual(again.etag, first.etag);
      const afterAgain = await all(dev, `${acl}?syncToken=${enc(changed.nextSyncToken)}`);
      assert.deepEqual(roles(afterAgain.items), ['default=freeBusyReader']);

      // Written with role none (insert or update), a rule is deleted: sync reports it, the list shows it only with
      // showDeleted, and it gives nobody anything.
      const none = await dev(acl, { body: { role: 'none', scope: { type: 'user', value: ALICE } } });
      assert.equal(none.status, 200, none.text);
      assert.equal(none.body.role, 'none');
      assert.equal((await dev(`${acl}/default`, { method: 'PUT', body: { role: 'none', scope: { type: 'default' } } })).body.role, 'none');
      expectError(await dev(`${acl}/${enc(`user:${ALICE}`)}`), 404, 'notFound');
      // Rules add up: a deleted user rule takes nothing away from what alice's domain rule gives her.
      assert.equal((await alice(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'by the domain' } })).status, 200);
      assert.deepEqual(roles((await dev(acl)).body.items), [`user:${DEV}=owner`, 'domain:example.test=writer']);
      assert.deepEqual(roles((await dev(`${acl}?showDeleted=true`)).body.items), [`user:${DEV}=owner`, 'default=none', 'domain:example.test=writer', `user:${ALICE}=none`]);
      assert.deepEqual(roles((await all(dev, `${acl}?syncToken=${enc(afterAgain.nextSyncToken)}`)).items), ['default=none', `user:${ALICE}=none`]);
    });

    it('the googleapis client: public and domain rules, and a public calendar added to the list', async () => {
      const { cal, event } = await calendarWithEvent('Via client');
      const owner = client(suite.t);
      const inserted = await owner.acl.insert({ calendarId: cal, requestBody: { role: 'reader', scope: { type: 'default' } } });
      assert.deepEqual([inserted.data.id, inserted.data.scope], ['default', { type: 'default' }]);
      assert.equal((await owner.acl.get({ calendarId: cal, ruleId: 'default' })).data.role, 'reader');
      const domain = await owner.acl.insert({ calendarId: cal, requestBody: { role: 'writer', scope: { type: 'domain', value: 'example.test' } } });
      assert.equal(domain.data.id, 'domain:example.test');
      await assert.rejects(owner.acl.patch({ calendarId: cal, ruleId: 'default', requestBody: { role: 'writer' } }), (e: any) => e.status === 400);
      await assert.rejects(owner.acl.delete({ calendarId: cal, ruleId: 'group:team@example.test' }), (e: any) => e.status === 404);

      const asBob = client(suite.t, TOKENS.bob);
      assert.equal((await asBob.events.get({ calendarId: cal, eventId: event })).data.summary, 'busy');
      const entry = await asBob.calendarList.insert({ requestBody: { id: cal } });
      assert.equal(entry.data.accessRole, 'writer');
      assert.ok((await asBob.calendarList.list({ minAccessRole: 'writer' })).data.items?.some((e) => e.id === cal));
      await owner.acl.delete({ calendarId: cal, ruleId: 'domain:example.test' });
      assert.equal((await asBob.calendarList.get({ calendarId: cal })).data.accessRole, 'reader');
    });
  });
}
