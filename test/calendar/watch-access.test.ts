// Watch channels follow their owner's access: a channel whose owner no longer can open that watch (reader on a
// calendar's events, owner on its ACL) hears nothing, stays open, and hears again once access comes back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES, webhookNotices } from '../helpers/runtime.ts';
import { ALICE, BOB, calendarSuite, expectError, timed, type Api } from './helpers.ts';

const enc = encodeURIComponent;
const ADDRESS = 'http://127.0.0.1:9/hook';
const EVENT = { summary: 'Watched', ...timed('2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z') };

for (const database of DATABASES) {
  describe(`calendar watch channels and access (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, alice, bob } = suite;

    const sent = (channelId: string) => webhookNotices(suite.t, 'calendar', channelId);
    const share = async (cal: string, email: string, role: string) => {
      const res = await dev(`/calendars/${enc(cal)}/acl`, { body: { role, scope: { type: 'user', value: email } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const unshare = async (cal: string, email: string) => assert.equal((await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${email}`)}`, { method: 'DELETE' })).status, 204);
    const watch = (who: Api, cal: string, what: 'events' | 'acl', id: string) => who(`/calendars/${enc(cal)}/${what}/watch`, { body: { id, type: 'web_hook', address: ADDRESS } });

    it('an events channel is skipped while its owner cannot read the calendar, and resumes when shared again', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Team' } })).body.id;
      await share(cal, ALICE, 'reader');
      await share(cal, BOB, 'reader');
      assert.equal((await watch(alice, cal, 'events', 'alice-events')).status, 200);
      assert.equal((await watch(bob, cal, 'events', 'bob-events')).status, 200);

      await unshare(cal, ALICE);
      // Without access the watch itself is refused, and nothing is stored or queued.
      expectError(await watch(alice, cal, 'events', 'alice-again'), 404, 'notFound');
      assert.deepEqual(await sent('alice-again'), []);
      assert.equal((await dev(`/calendars/${enc(cal)}/events`, { body: EVENT })).status, 200);
      assert.deepEqual(await sent('alice-events'), ['sync 1']);
      assert.deepEqual(await sent('bob-events'), ['sync 1', 'exists 2']);

      await share(cal, ALICE, 'reader');
      assert.equal((await dev(`/calendars/${enc(cal)}/events`, { body: EVENT })).status, 200);
      assert.deepEqual(await sent('alice-events'), ['sync 1', 'exists 2'], 'the skipped change used no message number');
      assert.deepEqual(await sent('bob-events'), ['sync 1', 'exists 2', 'exists 3']);
    });

    it('a free/busy rule is not enough to hear about events', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Busy' } })).body.id;
      await share(cal, ALICE, 'reader');
      assert.equal((await watch(alice, cal, 'events', 'alice-busy')).status, 200);
      const downgrade = await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`, { method: 'PATCH', body: { role: 'freeBusyReader' } });
      assert.equal(downgrade.status, 200, JSON.stringify(downgrade.body));
      assert.equal((await dev(`/calendars/${enc(cal)}/events`, { body: EVENT })).status, 200);
      assert.deepEqual(await sent('alice-busy'), ['sync 1']);
    });

    it('an ACL channel hears changes only while its owner may read the ACL (writer or owner)', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Shared' } })).body.id;
      await share(cal, ALICE, 'owner');
      assert.equal((await watch(alice, cal, 'acl', 'alice-acl')).status, 200);
      assert.equal((await watch(dev, cal, 'acl', 'dev-acl')).status, 200);

      // A writer still reads the ACL, so still hears; the change that takes that away is the first one she does not.
      await share(cal, ALICE, 'writer');
      assert.deepEqual(await sent('alice-acl'), ['sync 1', 'exists 2']);
      await share(cal, ALICE, 'reader');
      await share(cal, BOB, 'reader');
      assert.deepEqual(await sent('alice-acl'), ['sync 1', 'exists 2']);
      assert.deepEqual(await sent('dev-acl'), ['sync 1', 'exists 2', 'exists 3', 'exists 4']);
      expectError(await watch(alice, cal, 'acl', 'alice-acl-reader'), 403, 'requiredAccessLevel');

      await share(cal, ALICE, 'owner');
      assert.deepEqual(await sent('alice-acl'), ['sync 1', 'exists 2', 'exists 3']);
      assert.deepEqual(await sent('dev-acl'), ['sync 1', 'exists 2', 'exists 3', 'exists 4', 'exists 5']);
    });
  });
}
