// Tables of direct post: domain keys (stored only as a keyed hash), used MAC nonces, and pending 3-D Secure
// challenges started by a direct post (so the cres can be routed back to the merchant's redirect addresses).
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from '../../../core/db/dialect.ts';

export const tables = ['payments_direct_tokens', 'payments_direct_challenges', 'payments_direct_nonces', 'payments_direct_domain_keys'];

export const migrations: Record<string, Migration> = {
  direct_001_initial: {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('payments_direct_domain_keys')
        .addColumn('key_hash', t.text, (c) => c.primaryKey())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('clientid', t.text, (c) => c.notNull())
        .addColumn('domains', t.json, (c) => c.notNull())
        .addColumn('live', t.bool, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('payments_direct_nonces')
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('nonce', t.text, (c) => c.notNull())
        .addColumn('used_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('payments_direct_nonces_pk', ['merchantid', 'nonce'])
        .execute();
      await db.schema
        .createTable('payments_direct_challenges')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('redirect_success', t.text)
        .addColumn('redirect_failure', t.text)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('completed_at', t.bigint)
        .execute();
    },
  },
  // Card data posted for tokenisation, held (encrypted) until the merchant's server authorises it once, or it expires.
  direct_002_tokens: {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('payments_direct_tokens')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('merchantid', t.bigint, (c) => c.notNull())
        .addColumn('identifier', t.text, (c) => c.notNull())
        .addColumn('state', t.text, (c) => c.notNull())
        .addColumn('payment_enc', t.text)
        .addColumn('nonce', t.text, (c) => c.notNull())
        .addColumn('redirect_success', t.text)
        .addColumn('redirect_failure', t.text)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addColumn('used_at', t.bigint)
        .execute();
      await db.schema.createIndex('payments_direct_tokens_expiry').on('payments_direct_tokens').column('expires_at').execute();
    },
  },
};
