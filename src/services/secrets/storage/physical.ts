// The physical layer: opaque byte values by plaintext path in one table. Only the barrier writes here.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes } from '../../../core/db/dialect.ts';

export const ENTRIES_TABLE = 'secrets_entries';

export const storageMigrations: Record<string, Migration> = {
  '001_entries': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable(ENTRIES_TABLE)
        .addColumn('path', t.text, (c) => c.primaryKey())
        .addColumn('value', t.bytes, (c) => c.notNull())
        .execute();
    },
  },
};

/** LIKE pattern matching everything that starts with `prefix` (wildcards in the prefix escaped). */
const likePrefix = (prefix: string) => prefix.replace(/[\\%_]/g, (m) => `\\${m}`) + '%';

export class PhysicalStorage {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async get(path: string): Promise<Buffer | undefined> {
    const row = await this.#db.selectFrom(ENTRIES_TABLE).select('value').where('path', '=', path).executeTakeFirst();
    return row ? Buffer.from(row.value) : undefined;
  }

  async put(path: string, value: Buffer): Promise<void> {
    await this.#db
      .insertInto(ENTRIES_TABLE)
      .values({ path, value })
      .onConflict((oc) => oc.column('path').doUpdateSet({ value }))
      .execute();
  }

  async delete(path: string): Promise<void> {
    await this.#db.deleteFrom(ENTRIES_TABLE).where('path', '=', path).execute();
  }

  /** Every stored path starting with `prefix`. */
  async keys(prefix: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom(ENTRIES_TABLE)
      .select('path')
      .where(sql<boolean>`path like ${likePrefix(prefix)} escape '\\'`)
      .execute();
    return rows.map((r) => r.path as string).filter((p) => p.startsWith(prefix));
  }

  /** Deletes every path under `prefix` (a mount's or namespace's storage). */
  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.keys(prefix);
    for (let i = 0; i < keys.length; i += 500) {
      await this.#db.deleteFrom(ENTRIES_TABLE).where('path', 'in', keys.slice(i, i + 500)).execute();
    }
  }
}
