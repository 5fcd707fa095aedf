import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.ts';
import { Vault } from '../../src/core/crypto.ts';
import type { Database } from '../../src/core/db/index.ts';
import { Identity, hasScope } from '../../src/core/identity.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`identity (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;
    let identity: Identity;
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      identity = new Identity(db.kysely, clock, new Vault(Buffer.alloc(32, 1)));
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    it('resolves a credential to its principal and honours expiry', async () => {
      await identity.createPrincipal({ id: 'alice', kind: 'user', name: 'Alice' });
      const { value } = await identity.issueCredential({ principalId: 'alice', type: 'bearer', scopes: ['cloud-platform'], expiresAt: clock.now() + 60_000 });
      const found = await identity.resolve('bearer', value);
      assert.equal(found?.principal.name, 'Alice');
      assert.ok(found && hasScope(found.credential, 'https://www.googleapis.com/auth/cloud-platform'));
      assert.equal(await identity.resolve('api_key', value), undefined, 'a token is not an API key');
      clock.advance(60_000);
      assert.equal(await identity.resolve('bearer', value), undefined);
    });

    it('keeps only a hash of credential values, and an encrypted copy when asked', async () => {
      await identity.createPrincipal({ id: 'merchant-client', kind: 'payment_client', name: 'Client' });
      const licence = 'LK-super-secret-licence-1234';
      const { credential } = await identity.issueCredential({ principalId: 'merchant-client', type: 'licence_key', value: licence, keepSecret: true });
      const plain = await identity.issueCredential({ principalId: 'merchant-client', type: 'api_key', value: 'plain-api-key-5678' });
      assert.equal(await identity.secretOf(credential.id), licence);
      assert.equal(await identity.secretOf(plain.credential.id), undefined);
      const rows = await db.kysely.selectFrom('core_credentials').selectAll().execute();
      const dump = JSON.stringify(rows);
      assert.ok(!dump.includes(licence) && !dump.includes('plain-api-key-5678'));
      if (kind === 'sqlite') {
        const file = readFileSync(tdb.url);
        assert.equal(file.includes(licence), false);
      }
    });

    it('forgets deleted credentials and principals at once', async () => {
      const { credential, value } = await identity.issueCredential({ principalId: 'alice', type: 'api_key' });
      assert.ok(await identity.resolve('api_key', value));
      assert.equal(await identity.deleteCredential(credential.id), true);
      assert.equal(await identity.resolve('api_key', value), undefined);
      const again = await identity.issueCredential({ principalId: 'alice', type: 'api_key' });
      assert.equal(await identity.deletePrincipal('alice'), true);
      assert.equal(await identity.resolve('api_key', again.value), undefined);
    });
  });
}
