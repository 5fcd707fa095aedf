// Nonces of accepted API keys, kept until the key could no longer verify: a second use of a nonce is a replay.
import type { Kysely } from 'kysely';
import { claimExpiringSlot } from './slots.ts';

const PURGE_EVERY = 500;

export class NonceStore {
  readonly #db: Kysely<any>;
  #inserts = 0;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Records a nonce (on `db`, a transaction, when given); false when it was already used and has not yet expired. */
  async claim(clientid: string, nonce: string, expiresAt: number, nowMs: number, db: Kysely<any> = this.#db): Promise<boolean> {
    if (++this.#inserts % PURGE_EVERY === 0) await db.deleteFrom('payments_nonces').where('expires_at', '<', nowMs).execute();
    return claimExpiringSlot(db, 'payments_nonces', { clientid, nonce }, expiresAt, nowMs);
  }
}
