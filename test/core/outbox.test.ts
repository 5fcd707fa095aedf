import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/index.ts';
import { Outbox } from '../../src/core/outbox.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const T0 = Date.parse('2026-05-01T08:00:00Z');

for (const kind of DATABASES) {
  describe(`outbox (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;
    let clock: ManualClock;
    let outbox: Outbox;
    let server: Server;
    let hookUrl: string;
    const received: Array<{ body: string; signature: string | undefined }> = [];
    let failuresLeft = 0;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      clock = new ManualClock(T0);
      let wall = 0;
      outbox = new Outbox(db.kysely, clock, pino({ level: 'silent' }), () => (wall += 60_000));
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          if (failuresLeft > 0) {
            failuresLeft--;
            res.writeHead(503).end();
            return;
          }
          received.push({ body, signature: req.headers['x-signature'] as string | undefined });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      hookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    });
    after(async () => {
      server.close();
      await db.close();
      await tdb.dispose();
    });

    it('records e-mail and SMS as delivered, holding a message until its time', async () => {
      await outbox.enqueue({ service: 'svc', channel: 'email', recipient: 'a@example.com', subject: 'Hi', body: 'Hello', correlation: 'tok-1' });
      await outbox.enqueue({ service: 'svc', channel: 'sms', recipient: '+447700900123', body: 'Pay now', correlation: 'tok-1', deliverAfter: T0 + 3_600_000 });
      assert.equal(await outbox.deliverDue(), 1);
      let messages = await outbox.list({ correlation: 'tok-1' });
      assert.deepEqual(messages.map((m) => [m.channel, m.status]), [['email', 'delivered'], ['sms', 'pending']]);
      clock.advance(3_600_000);
      assert.equal(await outbox.deliverDue(), 1);
      messages = await outbox.list({ correlation: 'tok-1' });
      assert.ok(messages.every((m) => m.status === 'delivered'));
    });

    it('POSTs a webhook and retries after a failure until it is accepted', async () => {
      failuresLeft = 2;
      await outbox.enqueue({ service: 'svc', channel: 'webhook', recipient: hookUrl, body: '{"result":"paid"}', headers: { 'x-signature': 'abc' }, correlation: 'hook-1' });
      assert.equal(await outbox.deliverDue(), 1);
      let [msg] = await outbox.list({ correlation: 'hook-1' });
      assert.equal(msg.status, 'pending');
      assert.equal(msg.lastStatus, 503);
      assert.equal(msg.attempts, 1);
      assert.equal(await outbox.deliverDue(), 0, 'waits for the backoff');
      clock.advance(2_000);
      await outbox.deliverDue();
      clock.advance(4_000);
      await outbox.deliverDue();
      [msg] = await outbox.list({ correlation: 'hook-1' });
      assert.equal(msg.status, 'delivered');
      assert.equal(msg.attempts, 3);
      assert.deepEqual(received, [{ body: '{"result":"paid"}', signature: 'abc' }]);
    });

    it('gives up on a webhook that never answers after the last attempt', async () => {
      await outbox.enqueue({ service: 'svc', channel: 'webhook', recipient: 'http://127.0.0.1:1/unreachable', body: '{}', correlation: 'hook-2' });
      for (let i = 0; i < 8; i++) {
        await outbox.deliverDue();
        clock.advance(600_000);
      }
      const [msg] = await outbox.list({ correlation: 'hook-2' });
      assert.equal(msg.status, 'failed');
      assert.equal(msg.attempts, 8);
      assert.ok(msg.lastError);
    });
  });
}
