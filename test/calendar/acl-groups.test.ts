// ACL rules of scope type `group` (a group is the users whose `groups` attribute names its address): the rule id and
// scope, any role up to owner for every member and nothing for anyone else, the calendar list (a group rule, like a
// domain rule, lists a calendar only once a member adds it), freebusy.query expanding a group into its members'
// calendars with groupExpansionMax and calendarExpansionMax, bad input refused without a change, and the googleapis
// client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { BOB, CAL, DEV, calendarSuite, client, expectError, timed, type Api, type Principals } from './helpers.ts';

const enc = encodeURIComponent;
const T = timed('2026-03-12T15:00:00Z', '2026-03-12T16:00:00Z');
const WINDOW = { timeMin: '2026-03-12T00:00:00Z', timeMax: '2026-03-13T00:00:00Z' };
const TEAM = 'team@example.test';
const CAROL = 'carol@example.test';
const DAVE = 'dave@other.test';

/** Two members of the team (one outside its domain, one naming it in capitals), and one of another group. */
const MEMBERS: Principals = [
  { id: 'carol', kind: 'user', name: 'Carol', attrs: { email: CAROL, groups: ['Team@Example.TEST'] }, credentials: [{ type: 'bearer', value: 'carol-token', scopes: [CAL] }] },
  { id: 'dave', kind: 'user', name: 'Dave', attrs: { email: DAVE, groups: [TEAM, 'ops@other.test'] }, credentials: [{ type: 'bearer', value: 'dave-token', scopes: [CAL] }] },
];

const roles = (items: any[]) => items.map((r) => `${r.id}=${r.role}`);

function refused(res: { status: number; body: any }, reason: string, location: string): void {
  expectError(res, 400, reason);
  assert.equal(res.body.error.errors[0].location, location, JSON.stringify(res.body));
}

for (const database of DATABASES) {
  describe(`calendar acl scope group (${database})`, () => {
    const suite = calendarSuite(database, {}, MEMBERS);
    const { dev, bob } = suite;
    const carol = suite.as('carol-token');
    const dave = suite.as('dave-token');

    const calendarWithEvent = async (summary: string) => {
      const cal = (await dev('/calendars', { body: { summary } })).body.id as string;
      const ev = await dev(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'busy' } });
      assert.equal(ev.status, 200, ev.text);
      return { cal, event: ev.body.id as string };
    };
    const freeBusy = async (a: Api, body: Record<string, unknown>) => {
      const res = await a('/freeBusy', { body: { ...WINDOW, ...body } });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    it('a group rule gives every member its role, up to owner, and nobody else anything', async () => {
      const { cal, event } = await calendarWithEvent('Team');
      expectError(await carol(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');

      const rule = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'writer', scope: { type: 'group', value: 'Team@Example.TEST' } } });
      assert.equal(rule.status, 200, rule.text);
      assert.deepEqual({ ...rule.body, etag: undefined }, { kind: 'calendar#aclRule', etag: undefined, id: `group:${TEAM}`, scope: { type: 'group', value: TEAM }, role: 'writer' });
      assert.deepEqual((await dev(`/calendars/${enc(cal)}/acl/${enc('group:TEAM@example.test')}`)).body, rule.body);
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'freeBusyReader', scope: { type: 'default' } } });
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: BOB } } });
      assert.deepEqual(roles((await dev(`/calendars/${enc(cal)}/acl`)).body.items), [`user:${DEV}=owner`, 'default=freeBusyReader', `group:${TEAM}=writer`, `user:${BOB}=reader`]);

      // Both members write (dave's address is in another domain: membership, not the domain, admits him).
      for (const [member, summary] of [[carol, 'by carol'], [dave, 'by dave']] as const) {
        const made = await member(`/calendars/${enc(cal)}/events`, { body: { ...T, summary } });
        assert.equal(made.status, 200, made.text);
      }
      expectError(await bob(`/calendars/${enc(cal)}/events`, { body: T }), 403, 'requiredAccessLevel');
      // Writers read the ACL; only owners change it.
      assert.equal((await carol(`/calendars/${enc(cal)}/acl`)).status, 200);
      expectError(await carol(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: BOB } } }), 403, 'requiredAccessLevel');

      // Not on a member's list by itself; added, it shows the member's role.
      expectError(await carol(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');
      const added = await carol('/users/me/calendarList', { body: { id: cal } });
      assert.equal(added.status, 200, added.text);
      assert.equal(added.body.accessRole, 'writer');

      // owner: the members manage the ACL too.
      const raised = await dev(`/calendars/${enc(cal)}/acl/${enc(`group:${TEAM}`)}`, { method: 'PATCH', body: { role: 'owner' } });
      assert.equal(raised.body.role, 'owner', raised.text);
      assert.equal((await dave(`/calendars/${enc(cal)}/acl`)).status, 200);
      assert.equal((await carol(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'owner');

      // Deleted: back to the public free/busy rule, which keeps the calendar on carol's list at that role.
      assert.equal((await dev(`/calendars/${enc(cal)}/acl/${enc(`group:${TEAM}`)}`, { method: 'DELETE' })).status, 204);
      expectError(await carol(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
      expectError(await dave(`/calendars/${enc(cal)}/acl`), 404, 'notFound');
      assert.equal((await carol(`/users/me/calendarList/${enc(cal)}`)).body.accessRole, 'freeBusyReader');
      // Without it, the calendar leaves her list.
      assert.equal((await dev(`/calendars/${enc(cal)}/acl/default`, { method: 'DELETE' })).status, 204);
      expectError(await carol(`/users/me/calendarList/${enc(cal)}`), 404, 'notFound');
      assert.deepEqual(roles((await dev(`/calendars/${enc(cal)}/acl?showDeleted=true`)).body.items), [`user:${DEV}=owner`, 'default=none', `group:${TEAM}=none`, `user:${BOB}=reader`]);
      // A group nobody is in gives nothing.
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'group', value: 'ops@example.test' } } });
      expectError(await carol(`/calendars/${enc(cal)}/events/${event}`), 404, 'notFound');
    });

    it('freebusy.query: a group stands for its members, within groupExpansionMax and calendarExpansionMax', async () => {
      for (const member of [carol, dave]) assert.equal((await member('/calendars/primary/events', { body: T })).status, 200);
      // The developer sees carol's busy periods (her public rule), not dave's.
      await carol('/calendars/primary/acl', { body: { role: 'freeBusyReader', scope: { type: 'default' } } });

      const res = await freeBusy(dev, { items: [{ id: 'Team@example.test' }] });
      assert.deepEqual(res.groups, { 'Team@example.test': { calendars: [CAROL, DAVE] } });
      assert.deepEqual(res.calendars, {
        [CAROL]: { busy: [{ start: '2026-03-12T15:00:00Z', end: '2026-03-12T16:00:00Z' }] },
        [DAVE]: { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] },
      });
      // A member is answered once, whether named or reached through the group.
      assert.deepEqual(Object.keys((await freeBusy(dave, { items: [{ id: DAVE }, { id: TEAM }] })).calendars), [DAVE, CAROL]);

      assert.deepEqual((await freeBusy(dev, { items: [{ id: TEAM }], groupExpansionMax: 1 })).groups, {
        [TEAM]: { calendars: [], errors: [{ domain: 'calendar', reason: 'groupTooBig' }] },
      });
      const capped = await freeBusy(dev, { items: [{ id: TEAM }], calendarExpansionMax: 1 });
      assert.deepEqual(capped.calendars[DAVE], { busy: [], errors: [{ domain: 'calendar', reason: 'tooManyCalendarsRequested' }] });
      assert.equal(capped.calendars[CAROL].busy.length, 1);

      // No member: a Google Groups address is a group not found; any other address is a calendar not found.
      const none = await freeBusy(dev, { items: [{ id: 'nobody@googlegroups.com' }, { id: 'nobody@example.test' }] });
      assert.deepEqual(none.groups, { 'nobody@googlegroups.com': { calendars: [], errors: [{ domain: 'global', reason: 'notFound' }] } });
      assert.deepEqual(none.calendars, { 'nobody@example.test': { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] } });
      // A group whose address holds LIKE's wildcards is matched exactly.
      assert.deepEqual((await freeBusy(dev, { items: [{ id: 'te_m@example.test' }, { id: '%@example.test' }] })).groups, undefined);
    });

    it('bad input on a group rule is 400, and nothing changes', async () => {
      const { cal } = await calendarWithEvent('Refusals');
      const acl = `/calendars/${enc(cal)}/acl`;
      await dev(acl, { body: { role: 'reader', scope: { type: 'group', value: TEAM } } });
      const snapshot = (await dev(`${acl}?showDeleted=true`)).body;
      for (const scope of [{ type: 'group' }, { type: 'group', value: '' }]) refused(await dev(acl, { body: { role: 'reader', scope } }), 'required', 'scope.value');
      for (const value of ['team', 'example.test', `${'x'.repeat(250)}@example.test`, 7]) {
        const res = await dev(acl, { body: { role: 'reader', scope: { type: 'group', value } } });
        expectError(res, 400, 'invalid');
      }
      refused(await dev(acl, { body: { role: 'boss', scope: { type: 'group', value: TEAM } } }), 'invalid', 'role');
      refused(await dev(`${acl}/${enc(`group:${TEAM}`)}`, { method: 'PATCH', body: { scope: { type: 'group', value: 'ops@example.test' } } }), 'invalid', 'scope');
      expectError(await carol(acl, { body: { role: 'owner', scope: { type: 'group', value: TEAM } } }), 403, 'requiredAccessLevel');
      expectError(await dev(`${acl}/${enc('group:ops@example.test')}`, { method: 'DELETE' }), 404, 'notFound');
      refused(await dev('/freeBusy', { body: { ...WINDOW, items: [{ id: TEAM }], groupExpansionMax: 101 } }), 'invalid', 'groupExpansionMax');
      assert.deepEqual((await dev(`${acl}?showDeleted=true`)).body, snapshot);
    });

    it('the googleapis client: a group rule and a freebusy query of the group', async () => {
      const { cal, event } = await calendarWithEvent('Via client');
      const owner = client(suite.t);
      const inserted = await owner.acl.insert({ calendarId: cal, requestBody: { role: 'reader', scope: { type: 'group', value: TEAM } } });
      assert.deepEqual([inserted.data.id, inserted.data.scope], [`group:${TEAM}`, { type: 'group', value: TEAM }]);
      assert.equal((await client(suite.t, 'dave-token').events.get({ calendarId: cal, eventId: event })).data.summary, 'busy');
      await assert.rejects(client(suite.t, 'dave-token').events.insert({ calendarId: cal, requestBody: T }), (e: any) => e.status === 403);
      const busy = await owner.freebusy.query({ requestBody: { ...WINDOW, items: [{ id: TEAM }] } });
      assert.deepEqual(busy.data.groups, { [TEAM]: { calendars: [CAROL, DAVE] } });
    });
  });
}
