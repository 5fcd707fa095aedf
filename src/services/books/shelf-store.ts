// Queries of the users' bookshelves. Every change runs in one unit of work whose reads (is the volume there, what is
// the order) decide it, and moves the shelf's `updated`; adding and removing volumes also move volumesLastUpdated.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/index.ts';
import type { ShelfAccess } from './domain/shelves.ts';

export interface ShelfState {
  shelfId: number;
  access?: ShelfAccess;
  updatedAt?: number;
  volumesUpdatedAt?: number;
  volumeCount: number;
}

export interface ShelfPage {
  total: number;
  volumeIds: string[];
}

export class ShelfStore {
  readonly #database: Database;
  readonly #db: Kysely<any>;

  constructor(database: Database) {
    this.#database = database;
    this.#db = database.kysely;
  }

  /** The user's shelves that differ from their defaults or hold volumes, by shelf id. */
  async states(userId: string): Promise<Map<number, ShelfState>> {
    const [rows, counts] = await Promise.all([
      this.#db.selectFrom('books_shelves').selectAll().where('user_id', '=', userId).execute(),
      this.#db.selectFrom('books_shelf_volumes').select((eb) => ['shelf_id', eb.fn.countAll().as('n')]).where('user_id', '=', userId).groupBy('shelf_id').execute(),
    ]);
    const states = new Map<number, ShelfState>();
    for (const r of rows) {
      states.set(Number(r.shelf_id), {
        shelfId: Number(r.shelf_id),
        access: r.access ?? undefined,
        updatedAt: r.updated_at == null ? undefined : Number(r.updated_at),
        volumesUpdatedAt: r.volumes_updated_at == null ? undefined : Number(r.volumes_updated_at),
        volumeCount: 0,
      });
    }
    for (const c of counts) {
      const state = states.get(Number(c.shelf_id));
      if (state) state.volumeCount = Number(c.n);
    }
    return states;
  }

  async volumes(userId: string, shelfId: number, startIndex: number, maxResults: number): Promise<ShelfPage> {
    const where = this.#db.selectFrom('books_shelf_volumes').where('user_id', '=', userId).where('shelf_id', '=', shelfId);
    const [count, rows] = await Promise.all([
      where.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      maxResults === 0 ? Promise.resolve([]) : where.select('volume_id').orderBy('position').offset(startIndex).limit(maxResults).execute(),
    ]);
    return { total: Number(count.n), volumeIds: rows.map((r) => r.volume_id as string) };
  }

  /** When each of these volumes last went onto one of the user's shelves (absent when on none). */
  async addedTimes(userId: string, volumeIds: string[]): Promise<Map<string, number>> {
    if (volumeIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('books_shelf_volumes')
      .select((eb) => ['volume_id', eb.fn.max('added_at').as('added')])
      .where('user_id', '=', userId)
      .where('volume_id', 'in', volumeIds)
      .groupBy('volume_id')
      .execute();
    return new Map(rows.map((r) => [r.volume_id as string, Number(r.added)]));
  }

  /** Runs a change of one shelf as a unit of work; `change` gets the shelf's current order and the transaction. */
  change<T>(userId: string, shelfId: number, change: (order: string[], tx: Kysely<any>) => Promise<T>): Promise<T> {
    return this.#database.write(async (tx) => {
      // Take the shelf's row (made if absent, with nothing set, which reads as the defaults) so that changes of one
      // shelf from several connections run one after the other: on PostgreSQL the upsert holds the row lock until
      // commit, and the order read next is the one the previous change committed.
      await tx
        .insertInto('books_shelves')
        .values({ user_id: userId, shelf_id: shelfId, access: null, updated_at: null, volumes_updated_at: null })
        .onConflict((oc) => oc.columns(['user_id', 'shelf_id']).doUpdateSet({ shelf_id: shelfId }))
        .execute();
      const rows = await tx.selectFrom('books_shelf_volumes').select('volume_id').where('user_id', '=', userId).where('shelf_id', '=', shelfId).orderBy('position').execute();
      return change(
        rows.map((r) => r.volume_id as string),
        tx,
      );
    });
  }

  async append(tx: Kysely<any>, userId: string, shelfId: number, volumeId: string, position: number, now: number): Promise<void> {
    await tx.insertInto('books_shelf_volumes').values({ user_id: userId, shelf_id: shelfId, volume_id: volumeId, position, added_at: now }).execute();
    await this.touch(tx, userId, shelfId, now);
  }

  async remove(tx: Kysely<any>, userId: string, shelfId: number, volumeIds: string[] | 'all', now: number): Promise<void> {
    let q = tx.deleteFrom('books_shelf_volumes').where('user_id', '=', userId).where('shelf_id', '=', shelfId);
    if (volumeIds !== 'all') q = q.where('volume_id', 'in', volumeIds);
    await q.execute();
    await this.touch(tx, userId, shelfId, now);
  }

  /** Writes the positions of a new order (only the rows whose position changed); no volume comes or goes. */
  async reorder(tx: Kysely<any>, userId: string, shelfId: number, before: string[], after: string[], now: number): Promise<void> {
    for (let i = 0; i < after.length; i++) {
      if (before[i] === after[i]) continue;
      await tx.updateTable('books_shelf_volumes').set({ position: i }).where('user_id', '=', userId).where('shelf_id', '=', shelfId).where('volume_id', '=', after[i]).execute();
    }
    await this.touch(tx, userId, shelfId, now, { volumesCameOrWent: false });
  }

  async setAccess(userId: string, shelfId: number, access: ShelfAccess, now: number): Promise<void> {
    await this.#database.write((tx) =>
      tx
        .insertInto('books_shelves')
        .values({ user_id: userId, shelf_id: shelfId, access, updated_at: now, volumes_updated_at: null })
        .onConflict((oc) => oc.columns(['user_id', 'shelf_id']).doUpdateSet({ access, updated_at: now }))
        .execute(),
    );
  }

  /**
   * The shelf changed now. Books defines volumesLastUpdated as when a volume was last added or removed, so a new
   * order alone leaves it.
   */
  async touch(tx: Kysely<any>, userId: string, shelfId: number, now: number, { volumesCameOrWent = true } = {}): Promise<void> {
    const times = volumesCameOrWent ? { updated_at: now, volumes_updated_at: now } : { updated_at: now };
    await tx
      .insertInto('books_shelves')
      .values({ user_id: userId, shelf_id: shelfId, access: null, volumes_updated_at: null, ...times })
      .onConflict((oc) => oc.columns(['user_id', 'shelf_id']).doUpdateSet(times))
      .execute();
  }
}
