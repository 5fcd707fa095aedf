// Queries of the catalog: loading volumes (rows, identifier look-ups and the full-text index in one unit of work),
// reading them by id, and the ranked search behind volumes.list, which runs off the event loop.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { bulkInsert } from '../../core/db/bulk.ts';
import { prepared } from '../../core/db/prepared.ts';
import { fullTextMatch, indexFullTextDocuments, removeFullTextDocuments } from '../../core/db/fulltext.ts';
import type { Database } from '../../core/db/index.ts';
import { lookupValues, searchFacts, searchText, type CatalogVolume, type LookupKind } from './domain/catalog-volume.ts';
import type { VolumeQuery } from './domain/query.ts';
import { VOLUME_INDEX } from './migrations.ts';

export const FILTERS = ['partial', 'full', 'free-ebooks', 'paid-ebooks', 'ebooks', 'public-domain'] as const;
export type SearchFilter = (typeof FILTERS)[number];

export interface SearchOptions {
  query: VolumeQuery;
  startIndex: number;
  maxResults: number;
  orderBy: 'relevance' | 'newest';
  printType: 'all' | 'books' | 'magazines';
  filter?: SearchFilter;
  langRestrict?: string;
  download?: 'epub';
  /** Only volumes on this user's shelves (libraryRestrict=my-library), or on one of them. */
  libraryOf?: { userId: string; shelfId?: number };
}

export interface SearchResult {
  totalItems: number;
  items: CatalogVolume[];
}

const VOLUME_COLUMNS = ['volume_id', 'source', 'source_key', 'document', 'language', 'published', 'print_type', 'public_domain', 'viewability', 'saleability', 'is_ebook', 'epub', 'loaded_at'];
const PG_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'integer', 'text', 'text', 'integer', 'integer', 'bigint'];
const IN_CHUNK = 5000;

export class CatalogStore {
  readonly #database: Database;
  readonly #db: Kysely<any>;

  constructor(database: Database) {
    this.#database = database;
    this.#db = database.kysely;
  }

  async count(): Promise<number> {
    const row = await this.#db.selectFrom('books_volumes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Adds volumes, replacing those with the same ids; rows, look-ups and index change together in one unit of work. */
  async upsert(volumes: CatalogVolume[], now: number): Promise<void> {
    if (volumes.length === 0) return;
    await this.#database.write(async (tx) => {
      const ids = volumes.map((v) => v.id);
      const stale = (await inChunks(ids, (chunk) => tx.selectFrom('books_volumes').select('id').where('volume_id', 'in', chunk).execute())).map((r) => Number(r.id));
      if (stale.length) {
        await removeFullTextDocuments(tx, VOLUME_INDEX, stale);
        await inChunks(stale, (chunk) => tx.deleteFrom('books_volume_lookups').where('volume_row', 'in', chunk).execute());
        await inChunks(stale, (chunk) => tx.deleteFrom('books_volumes').where('id', 'in', chunk).execute());
      }
      const rows = volumes.map((v) => {
        const f = searchFacts(v);
        const document = JSON.stringify({ volumeInfo: v.volumeInfo, saleInfo: v.saleInfo, accessInfo: v.accessInfo });
        return [v.id, v.source, v.sourceKey, document, f.language, f.published, f.printType, +f.publicDomain, f.viewability, f.saleability, +f.isEbook, +f.epub, now];
      });
      await bulkInsert(tx, 'books_volumes', VOLUME_COLUMNS, rows, { pgTypes: PG_TYPES });
      const rowIds = new Map<string, number>();
      for (const r of await inChunks(ids, (chunk) => tx.selectFrom('books_volumes').select(['id', 'volume_id']).where('volume_id', 'in', chunk).execute())) {
        rowIds.set(r.volume_id, Number(r.id));
      }
      const lookups = volumes.flatMap((v) => [...new Map(v.lookups.map((l) => [`${l.kind}:${l.value}`, l])).values()].map((l) => [l.kind, l.value, rowIds.get(v.id)]));
      await bulkInsert(tx, 'books_volume_lookups', ['kind', 'value', 'volume_row'], lookups, { pgTypes: ['text', 'text', 'bigint'] });
      await indexFullTextDocuments(
        tx,
        VOLUME_INDEX,
        volumes.map((v) => ({ id: rowIds.get(v.id)!, fields: searchText(v) })),
      );
    });
  }

  async get(volumeId: string, db: Kysely<any> = this.#db): Promise<CatalogVolume | undefined> {
    const row = (await this.#byId(db, volumeId)).rows[0];
    return row ? toVolume(row) : undefined;
  }

  // Every volumes.get reads one volume by id: compiled once.
  readonly #byId = prepared(() => this.#db.selectFrom('books_volumes').select(['volume_id', 'source', 'source_key', 'document']).where('volume_id', '=', ''));

  async exists(volumeId: string, db: Kysely<any>): Promise<boolean> {
    return (await db.selectFrom('books_volumes').select('id').where('volume_id', '=', volumeId).executeTakeFirst()) !== undefined;
  }

  /** Volumes by id, in the order asked (ids no longer in the catalog are skipped). */
  async getMany(volumeIds: string[]): Promise<CatalogVolume[]> {
    if (volumeIds.length === 0) return [];
    const rows = await this.#db.selectFrom('books_volumes').select(['volume_id', 'source', 'source_key', 'document']).where('volume_id', 'in', volumeIds).execute();
    const byId = new Map(rows.map((r) => [r.volume_id as string, toVolume(r)]));
    return volumeIds.map((id) => byId.get(id)).filter((v): v is CatalogVolume => v !== undefined);
  }

  async search(o: SearchOptions): Promise<SearchResult> {
    const { terms, lookups, excluded } = o.query;
    // Exclusions alone select nothing to exclude from.
    if (terms.length === 0 && lookups.length === 0) return { totalItems: 0, items: [] };
    const match = terms.length ? fullTextMatch(this.#db, VOLUME_INDEX, terms) : undefined;
    // Terms that fold to no word (punctuation only) match nothing.
    if (terms.length && !match) return { totalItems: 0, items: [] };

    let q = this.#db.selectFrom('books_volumes as v');
    if (match) q = q.innerJoin(match.as('m'), 'm.doc_id', 'v.id');
    for (const l of lookups) q = q.where('v.id', 'in', this.#lookup(l.kind, l.value));
    for (const term of excluded.terms) {
      // An excluded term that folds to no word excludes nothing.
      const unwanted = fullTextMatch(this.#db, VOLUME_INDEX, [term]);
      if (unwanted) q = q.where('v.id', 'not in', this.#db.selectFrom(unwanted.as('x')).select('x.doc_id'));
    }
    for (const l of excluded.lookups) q = q.where('v.id', 'not in', this.#lookup(l.kind, l.value));
    if (o.printType === 'magazines') q = q.where('v.print_type', '=', 'MAGAZINE');
    if (o.printType === 'books') q = q.where('v.print_type', '=', 'BOOK');
    if (o.langRestrict) q = q.where('v.language', '=', o.langRestrict);
    if (o.download === 'epub') q = q.where('v.epub', '=', 1);
    if (o.filter === 'partial') q = q.where('v.viewability', 'in', ['PARTIAL', 'ALL_PAGES']);
    if (o.filter === 'full') q = q.where('v.viewability', '=', 'ALL_PAGES');
    if (o.filter === 'free-ebooks') q = q.where('v.saleability', '=', 'FREE');
    if (o.filter === 'paid-ebooks') q = q.where('v.saleability', '=', 'FOR_SALE');
    if (o.filter === 'ebooks') q = q.where('v.is_ebook', '=', 1);
    if (o.filter === 'public-domain') q = q.where('v.public_domain', '=', 1);
    if (o.libraryOf !== undefined) {
      let shelved = this.#db.selectFrom('books_shelf_volumes').select('volume_id').where('user_id', '=', o.libraryOf.userId);
      if (o.libraryOf.shelfId !== undefined) shelved = shelved.where('shelf_id', '=', o.libraryOf.shelfId);
      q = q.where('v.volume_id', 'in', shelved);
    }

    if (o.maxResults === 0) return { totalItems: await this.#count(q), items: [] };
    // Rank row ids only (sorting every match with its document would copy them all), then read the page's documents.
    let page = q.select(['v.id', sql<number>`count(*) over ()`.as('total')]);
    if (o.orderBy === 'newest') page = page.orderBy('v.published', 'desc');
    else if (match) page = page.orderBy(sql`m.score`, 'desc');
    page = page.orderBy('v.id').offset(o.startIndex).limit(o.maxResults);
    const ranked = await this.#database.heavyRead(page);
    // Past the last match the page is empty and carries no total: count apart.
    const totalItems = ranked.length ? Number(ranked[0].total) : o.startIndex > 0 ? await this.#count(q) : 0;
    if (ranked.length === 0) return { totalItems, items: [] };
    const rows = await this.#db.selectFrom('books_volumes').select(['id', 'volume_id', 'source', 'source_key', 'document']).where('id', 'in', ranked.map((r) => r.id)).execute();
    const byRow = new Map(rows.map((r) => [Number(r.id), r]));
    // A volume replaced by an import since the ranking has a new row: it drops out of this page.
    const items = ranked.map((r) => byRow.get(Number(r.id))).filter((r) => r !== undefined);
    return { totalItems, items: items.map(toVolume) };
  }

  #lookup(kind: LookupKind, value: string) {
    return this.#db.selectFrom('books_volume_lookups').select('volume_row').where('kind', '=', kind).where('value', 'in', lookupValues(kind, value));
  }

  async #count(q: SelectQueryBuilder<any, any, object>): Promise<number> {
    const rows = await this.#database.heavyRead(q.select((eb) => eb.fn.countAll().as('n')));
    return Number(rows[0]?.n ?? 0);
  }
}

async function inChunks<T>(values: Array<string | number>, run: (chunk: any[]) => Promise<T[] | T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) {
    const result = await run(values.slice(i, i + IN_CHUNK));
    if (Array.isArray(result)) out.push(...result);
  }
  return out;
}

function toVolume(row: any): CatalogVolume {
  const doc = JSON.parse(row.document);
  return { id: row.volume_id, source: row.source, sourceKey: row.source_key, ...doc, lookups: [] };
}
