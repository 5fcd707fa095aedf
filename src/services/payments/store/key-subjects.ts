// API keys issued by /v6/authenticate for a subject: the key's nonce names the one merchant it may act for. Keys a
// client makes itself (and keys issued without a subject) have no row and act for every merchant of the client.
import type { Kysely } from 'kysely';
import { BatchedLookup, pairKey, rowsByPair } from '../../../core/db/batched-lookup.ts';
import { prepared } from '../../../core/db/prepared.ts';

export class KeySubjectStore {
  readonly #db: Kysely<any>;
  /** PostgreSQL: every request's lookup is a round trip, so those of one turn of the event loop are one query. */
  readonly #batched: BatchedLookup<number> | null;

  /** `batchReads`: ask the lookups of one turn together (PostgreSQL, outside a unit of work). */
  constructor(db: Kysely<any>, batchReads = false) {
    this.#db = db;
    this.#batched = batchReads ? new BatchedLookup((keys) => this.#subjectsOf(keys)) : null;
  }

  /** Records the subject of an issued key; expired rows are dropped on the way. */
  async record(clientid: string, nonce: string, merchantid: number, expiresAt: number, nowMs: number): Promise<void> {
    await this.#db.deleteFrom('payments_key_subjects').where('expires_at', '<', nowMs).execute();
    await this.#db.insertInto('payments_key_subjects').values({ clientid, nonce, merchantid, expires_at: expiresAt }).execute();
  }

  /** The merchant a key (by its client and nonce) was issued for, if any. */
  async subjectOf(clientid: string, nonce: string): Promise<number | undefined> {
    if (this.#batched) return this.#batched.get(pairKey(clientid, nonce));
    const row = (await this.#subjectOf(this.#db, clientid, nonce)).rows[0];
    return row ? Number(row.merchantid) : undefined;
  }

  /** Subjects by `pairKey(clientid, nonce)`: every client asked with every nonce asked, the pairs asked read back. */
  async #subjectsOf(keys: string[]): Promise<Map<string, number>> {
    return rowsByPair(this.#db, 'payments_key_subjects', ['clientid', 'nonce'], keys, (row) => Number(row.merchantid));
  }

  // Asked on every request with an API key: compiled once.
  readonly #subjectOf = prepared<{ merchantid: unknown }>(() =>
    this.#db.selectFrom('payments_key_subjects').select('merchantid').where('clientid', '=', '').where('nonce', '=', ''),
  );
}
