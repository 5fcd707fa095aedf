// Tokenised card posts. The payment (card number, expiry, contact details, the decided outcome) is kept only
// encrypted, bound to its row; it is erased when the token is used or refused. State changes are conditional
// updates, so a token is issued once and used once however requests race.
import type { Kysely } from 'kysely';
import type { Vault } from '../../../core/crypto.ts';
import type { PreparedPayment } from '../contract.ts';

/** `challenge`: awaiting 3-D Secure; `issued`: usable once; `used` and `refused`: final. */
export type DirectTokenState = 'challenge' | 'issued' | 'used' | 'refused';

export interface DirectToken {
  id: string;
  merchantid: number;
  identifier: string;
  state: DirectTokenState;
  /** The tokenise post's nonce (sig_id is computed with it). */
  nonce: string;
  redirectSuccess: string | null;
  redirectFailure: string | null;
  createdAt: number;
  expiresAt: number;
}

export class DirectTokenStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly vault: Vault,
  ) {}

  #seal(id: string, payment: PreparedPayment): string {
    return this.vault.encrypt(JSON.stringify(payment), `payments-direct-token:${id}`);
  }

  async insert(t: DirectToken, payment: PreparedPayment): Promise<void> {
    await this.db
      .insertInto('payments_direct_tokens')
      .values({
        id: t.id,
        merchantid: t.merchantid,
        identifier: t.identifier,
        state: t.state,
        payment_enc: this.#seal(t.id, payment),
        nonce: t.nonce,
        redirect_success: t.redirectSuccess,
        redirect_failure: t.redirectFailure,
        created_at: t.createdAt,
        expires_at: t.expiresAt,
      })
      .execute();
  }

  /** The token and, while it still holds one, its payment. */
  async byId(id: string): Promise<{ token: DirectToken; payment?: PreparedPayment } | undefined> {
    const row = await this.db.selectFrom('payments_direct_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const token: DirectToken = {
      id: row.id,
      merchantid: Number(row.merchantid),
      identifier: row.identifier,
      state: row.state,
      nonce: row.nonce,
      redirectSuccess: row.redirect_success,
      redirectFailure: row.redirect_failure,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
    };
    const payment = row.payment_enc ? (JSON.parse(this.vault.decrypt(row.payment_enc, `payments-direct-token:${row.id}`)) as PreparedPayment) : undefined;
    return { token, payment };
  }

  /** A challenged token passed 3-D Secure: it becomes usable until `expiresAt`; false unless it was awaiting that. */
  async issue(id: string, payment: PreparedPayment, expiresAt: number, nowMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_direct_tokens')
      .set({ state: 'issued', payment_enc: this.#seal(id, payment), expires_at: expiresAt })
      .where('id', '=', id)
      .where('state', '=', 'challenge')
      .where('expires_at', '>', nowMs)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** A challenged token failed 3-D Secure: its card data is erased. */
  async refuse(id: string): Promise<boolean> {
    const res = await this.db.updateTable('payments_direct_tokens').set({ state: 'refused', payment_enc: null }).where('id', '=', id).where('state', '=', 'challenge').executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Marks an issued, unexpired token used and erases its card data; false when it was not usable (single use). */
  async use(id: string, nowMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_direct_tokens')
      .set({ state: 'used', used_at: nowMs, payment_enc: null })
      .where('id', '=', id)
      .where('state', '=', 'issued')
      .where('expires_at', '>', nowMs)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Drops tokens past their expiry, with any card data they still held. */
  async purgeExpired(nowMs: number): Promise<void> {
    await this.db.deleteFrom('payments_direct_tokens').where('expires_at', '<=', nowMs).execute();
  }
}
