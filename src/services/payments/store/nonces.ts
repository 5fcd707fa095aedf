// Nonces of accepted API keys, kept until the key could no longer verify: a second use of a nonce is a replay.
// The table is the authority (shared by every instance on one PostgreSQL); a bounded memory of the nonces this
// process accepted refuses the common replay without touching the database, and a claim of its own is a unit of work
// on the group-commit path, so it shares its fsync with the other requests of the moment.
import type { Kysely } from 'kysely';
import { boundedCache, type CacheBudget } from '../../../core/cache.ts';
import type { Database } from '../../../core/db/index.ts';
import { expiringSlotClaim, type SlotClaim } from './slots.ts';

const PURGE_EVERY = 500;
/** Default budget of nonces remembered in memory (`services.payments.nonce_cache_budget`); older ones are still refused by the table. */
export const DEFAULT_NONCE_CACHE_BUDGET: CacheBudget = { entries: 50_000, bytes: 8 * 1024 * 1024 };

export class NonceStore {
  readonly #database: Database;
  /** Expiry of each remembered nonce, by client and nonce. */
  readonly #seen: ReturnType<typeof boundedCache<string, { expiresAt: number }>>;
  readonly #claim: SlotClaim;
  #inserts = 0;

  constructor(database: Database, cacheBudget: CacheBudget = DEFAULT_NONCE_CACHE_BUDGET) {
    this.#database = database;
    this.#seen = boundedCache<string, { expiresAt: number }>(cacheBudget, () => 16);
    this.#claim = expiringSlotClaim(database.kysely, 'payments_nonces', ['clientid', 'nonce']);
  }

  /** Records a nonce (inside `tx`, a unit of work, when given); false when it was already used and has not expired. */
  async claim(clientid: string, nonce: string, expiresAt: number, nowMs: number, tx?: Kysely<any>): Promise<boolean> {
    const key = `${clientid}\u0000${nonce}`;
    const known = this.#seen.get(key)?.expiresAt;
    if (known !== undefined && known > nowMs) return false;
    const purge = ++this.#inserts % PURGE_EVERY === 0;
    const work = async (db: Kysely<any>) => {
      if (purge) await db.deleteFrom('payments_nonces').where('expires_at', '<', nowMs).execute();
      return this.#claim(db, [clientid, nonce], expiresAt, nowMs);
    };
    const claimed = tx ? await work(tx) : await this.#database.write(work);
    // Remembered only once claimed: a claim inside a unit that later rolls back must not block a retry.
    if (claimed && !tx) this.#remember(key, expiresAt);
    return claimed;
  }

  #remember(key: string, expiresAt: number): void {
    this.#seen.set(key, { expiresAt });
  }
}
