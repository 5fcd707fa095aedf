// API keys issued by /v6/authenticate for a subject: the key's nonce names the one merchant it may act for. Keys a
// client makes itself (and keys issued without a subject) have no row and act for every merchant of the client.
import type { Kysely } from 'kysely';
import { prepared } from '../../../core/db/prepared.ts';

export class KeySubjectStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Records the subject of an issued key; expired rows are dropped on the way. */
  async record(clientid: string, nonce: string, merchantid: number, expiresAt: number, nowMs: number): Promise<void> {
    await this.#db.deleteFrom('payments_key_subjects').where('expires_at', '<', nowMs).execute();
    await this.#db.insertInto('payments_key_subjects').values({ clientid, nonce, merchantid, expires_at: expiresAt }).execute();
  }

  /** The merchant a key (by its client and nonce) was issued for, if any. */
  async subjectOf(clientid: string, nonce: string): Promise<number | undefined> {
    const row = (await this.#subjectOf(this.#db, clientid, nonce)).rows[0];
    return row ? Number(row.merchantid) : undefined;
  }

  // Asked on every request with an API key: compiled once.
  readonly #subjectOf = prepared<{ merchantid: unknown }>(() =>
    this.#db.selectFrom('payments_key_subjects').select('merchantid').where('clientid', '=', '').where('nonce', '=', ''),
  );
}
