import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

for (const database of DATABASES) {
  describe(`admin listener (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['entities'], database, clock: 'manual', clockStart: Date.parse('2026-01-01T00:00:00Z') });
    });
    after(async () => t.close());

    it('reports health of the database and each service', async () => {
      const res = await call(`${t.adminUrl}/health`);
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'ok');
      assert.equal(res.body.database.ok, true);
      assert.equal(res.body.database.dialect, database);
      assert.equal(res.body.services.entities.ok, true);
    });

    it('moves manual time and keeps it across a restart', async () => {
      let res = await call(`${t.adminUrl}/clock`, { body: { advance: '1h30m' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.now, '2026-01-01T01:30:00.000Z');
      res = await call(`${t.adminUrl}/clock`, { body: { set: '2026-02-01T00:00:00Z' } });
      assert.equal(res.body.now, '2026-02-01T00:00:00.000Z');
      await t.restart();
      res = await call(`${t.adminUrl}/clock`);
      assert.equal(res.body.now, '2026-02-01T00:00:00.000Z');
    });

    it('resumes the last time set after a restart, however many moves came together', async () => {
      const moves = await Promise.all(Array.from({ length: 20 }, () => call(`${t.adminUrl}/clock`, { body: { advance: '1m' } })));
      assert.ok(moves.every((m) => m.status === 200));
      assert.equal((await call(`${t.adminUrl}/clock`)).body.now, '2026-02-01T00:20:00.000Z');
      await t.restart();
      assert.equal((await call(`${t.adminUrl}/clock`)).body.now, '2026-02-01T00:20:00.000Z');
      assert.equal((await call(`${t.adminUrl}/clock`, { body: { set: '2026-02-01T00:00:00Z' } })).status, 200);
    });

    it('rejects bad clock moves without moving time', async () => {
      for (const body of [{}, { advance: 'soon' }, { advance: -5 }, { set: 'yesterday' }, { extra: 1 }]) {
        const res = await call(`${t.adminUrl}/clock`, { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.error.message, 'string');
      }
      assert.equal((await call(`${t.adminUrl}/clock`)).body.now, '2026-02-01T00:00:00.000Z');
    });

    it('creates principals and credentials, shows a value once, deletes them', async () => {
      let res = await call(`${t.adminUrl}/principals`, { body: { id: 'svc-1', kind: 'service_account', name: 'CI bot' } });
      assert.equal(res.status, 201);
      res = await call(`${t.adminUrl}/principals`, { body: { id: 'svc-1', kind: 'service_account', name: 'again' } });
      assert.equal(res.status, 409);
      res = await call(`${t.adminUrl}/principals/svc-1/credentials`, { body: { type: 'bearer', scopes: ['cloud-platform'] } });
      assert.equal(res.status, 201);
      assert.equal(typeof res.body.value, 'string');
      const credentialId = res.body.id;
      res = await call(`${t.adminUrl}/principals/svc-1`);
      assert.equal(res.body.credentials.length, 1);
      assert.equal(res.body.credentials[0].value, undefined, 'the value is never shown again');
      res = await call(`${t.adminUrl}/principals/svc-1/credentials`, { body: { type: 'password' } });
      assert.equal(res.status, 400);
      res = await call(`${t.adminUrl}/principals/nobody/credentials`, { body: { type: 'bearer' } });
      assert.equal(res.status, 404);
      assert.equal((await call(`${t.adminUrl}/credentials/${credentialId}`, { method: 'DELETE' })).status, 204);
      assert.equal((await call(`${t.adminUrl}/principals/svc-1`, { method: 'DELETE' })).status, 204);
      assert.equal((await call(`${t.adminUrl}/principals/svc-1`)).status, 404);
    });

    it('answers unknown routes and services with a JSON error', async () => {
      assert.equal((await call(`${t.adminUrl}/nope`)).body.error.code, 404);
      const res = await call(`${t.adminUrl}/reset`, { body: { service: 'payments' } });
      assert.equal(res.status, 404);
    });

    it('lists the outbox', async () => {
      const res = await call(`${t.adminUrl}/outbox`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.messages, []);
    });
  });
}
