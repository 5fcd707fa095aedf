// 3-D Secure authentications that belong to no transaction: the direct-post tokenisation flow authenticates the card
// holder first and authorises later. The simulated ACS records its result here; the cres is accepted once.
import type { Kysely } from 'kysely';

export interface Authentication {
  /** The 3DS server transaction id (also the CReq's threeDSServerTransID). */
  id: string;
  acsTransId: string;
  merchantid: number;
  amount: number;
  currency: string;
  maskedpan: string;
  termurl: string | null;
  acsResult: string | null;
  completedAt: number | null;
}

export class AuthenticationStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async insert(a: Authentication, nowMs: number): Promise<void> {
    await this.#db
      .insertInto('payments_authentications')
      .values({
        id: a.id,
        acs_trans_id: a.acsTransId,
        merchantid: a.merchantid,
        amount: a.amount,
        currency: a.currency,
        maskedpan: a.maskedpan,
        termurl: a.termurl,
        acs_result: a.acsResult,
        created_at: nowMs,
        completed_at: null,
      })
      .execute();
  }

  async byId(id: string): Promise<Authentication | undefined> {
    const row = await this.#db.selectFrom('payments_authentications').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      acsTransId: row.acs_trans_id,
      merchantid: Number(row.merchantid),
      amount: Number(row.amount),
      currency: row.currency,
      maskedpan: row.maskedpan,
      termurl: row.termurl,
      acsResult: row.acs_result,
      completedAt: row.completed_at === null ? null : Number(row.completed_at),
    };
  }

  /** The ACS result, recorded once (a second delivery keeps the first). */
  async recordAcsResult(id: string, transStatus: string): Promise<void> {
    await this.#db.updateTable('payments_authentications').set({ acs_result: transStatus }).where('id', '=', id).where('acs_result', 'is', null).execute();
  }

  /** Marks the authentication completed; false when it already was (a cres is accepted once). */
  async complete(id: string, nowMs: number): Promise<boolean> {
    const res = await this.#db.updateTable('payments_authentications').set({ completed_at: nowMs }).where('id', '=', id).where('completed_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
