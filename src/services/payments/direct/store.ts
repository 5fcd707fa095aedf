// Queries of the direct-post tables. Domain keys are found by a keyed hash of their value: the value itself is
// shown once, at generation, and never stored.
import type { Kysely } from 'kysely';
import type { Vault } from '../../../core/crypto.ts';
import { isUniqueViolation } from '../../../core/db/dialect.ts';

export interface DomainKeyRecord {
  merchantid: number;
  clientid: string;
  domains: string[];
  live: boolean;
  createdAt: number;
}

export interface DirectChallenge {
  id: string;
  merchantid: number;
  redirectSuccess: string | null;
  redirectFailure: string | null;
}

export class DirectStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly vault: Vault,
  ) {}

  #hash(domainKey: string): string {
    return this.vault.lookupHash(`payments-domain-key:${domainKey}`);
  }

  async saveDomainKey(domainKey: string, record: DomainKeyRecord): Promise<void> {
    await this.db
      .insertInto('payments_direct_domain_keys')
      .values({
        key_hash: this.#hash(domainKey),
        merchantid: record.merchantid,
        clientid: record.clientid,
        domains: JSON.stringify(record.domains),
        live: record.live ? 1 : 0,
        created_at: record.createdAt,
      })
      .execute();
  }

  async findDomainKey(domainKey: string): Promise<DomainKeyRecord | undefined> {
    const row = await this.db.selectFrom('payments_direct_domain_keys').selectAll().where('key_hash', '=', this.#hash(domainKey)).executeTakeFirst();
    if (!row) return undefined;
    return {
      merchantid: Number(row.merchantid),
      clientid: row.clientid,
      domains: JSON.parse(row.domains),
      live: Number(row.live) === 1,
      createdAt: Number(row.created_at),
    };
  }

  /** Records a MAC nonce for a merchant; false when it was used before (a replayed post). */
  async claimNonce(merchantid: number, nonce: string, now: number): Promise<boolean> {
    try {
      await this.db.insertInto('payments_direct_nonces').values({ merchantid, nonce: nonce.toUpperCase(), used_at: now }).execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async saveChallenge(c: DirectChallenge, now: number): Promise<void> {
    await this.db
      .insertInto('payments_direct_challenges')
      .values({ id: c.id, merchantid: c.merchantid, redirect_success: c.redirectSuccess, redirect_failure: c.redirectFailure, created_at: now })
      .execute();
  }

  /** Marks a pending challenge completed and returns it; undefined when unknown or already completed (one use). */
  async completeChallenge(id: string, now: number): Promise<DirectChallenge | undefined> {
    const res = await this.db
      .updateTable('payments_direct_challenges')
      .set({ completed_at: now })
      .where('id', '=', id)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return undefined;
    const row = await this.db.selectFrom('payments_direct_challenges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { id: row.id, merchantid: Number(row.merchantid), redirectSuccess: row.redirect_success, redirectFailure: row.redirect_failure };
  }
}
