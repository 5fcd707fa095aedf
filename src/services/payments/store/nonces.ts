// Nonces of accepted API keys, kept until the key could no longer verify: a second use of a nonce is a replay.
// The table is the authority (shared by every instance on one PostgreSQL); a bounded memory of the nonces this
// process accepted refuses the common replay without touching the database, and a claim of its own is one statement
// and a unit of work (on SQLite it shares its fsync with the other requests of the moment; on PostgreSQL it is one
// round trip, not a transaction's three).
import type { CompiledQuery, Kysely } from 'kysely';
import { boundedCache, type CacheBudget } from '../../../core/cache.ts';
import type { Database } from '../../../core/db/index.ts';
import { preparedStatement, runCompiled } from '../../../core/db/prepared.ts';
import { expiringSlotStatement, slotTaken, type SlotClaimStatement } from './slots.ts';

const PURGE_EVERY = 500;
/** Default budget of nonces remembered in memory (`services.payments.nonce_cache_budget`); older ones are still refused by the table. */
export const DEFAULT_NONCE_CACHE_BUDGET: CacheBudget = { entries: 50_000, bytes: 8 * 1024 * 1024 };

export class NonceStore {
  readonly #database: Database;
  /** Expiry of each remembered nonce, by client and nonce. */
  readonly #seen: ReturnType<typeof boundedCache<string, { expiresAt: number }>>;
  readonly #claim: SlotClaimStatement;
  readonly #purge: (nowMs: number) => CompiledQuery;
  #inserts = 0;

  constructor(database: Database, cacheBudget: CacheBudget = DEFAULT_NONCE_CACHE_BUDGET) {
    this.#database = database;
    this.#seen = boundedCache<string, { expiresAt: number }>(cacheBudget, () => 16);
    this.#claim = expiringSlotStatement(database.kysely, 'payments_nonces', ['clientid', 'nonce']);
    this.#purge = preparedStatement(() => database.kysely.deleteFrom('payments_nonces').where('expires_at', '<', 0));
  }

  /** Records a nonce (inside `tx`, a unit of work, when given); false when it was already used and has not expired. */
  async claim(clientid: string, nonce: string, expiresAt: number, nowMs: number, tx?: Kysely<any>): Promise<boolean> {
    const key = `${clientid}\u0000${nonce}`;
    const known = this.#seen.get(key)?.expiresAt;
    if (known !== undefined && known > nowMs) return false;
    // Inside the caller's unit, or each statement a unit of its own (the purge only drops expired nonces: it need not
    // commit with the claim).
    const run = (query: CompiledQuery) => (tx ? runCompiled(tx, query) : this.#database.writeStatement(query));
    if (++this.#inserts % PURGE_EVERY === 0) await run(this.#purge(nowMs));
    const claimed = slotTaken(await run(this.#claim([clientid, nonce], expiresAt, nowMs)));
    // Remembered only once claimed: a claim inside a unit that later rolls back must not block a retry.
    if (claimed && !tx) this.#remember(key, expiresAt);
    return claimed;
  }

  #remember(key: string, expiresAt: number): void {
    this.#seen.set(key, { expiresAt });
  }
}
