// The service's graph: documents in the database, the search index in memory (compact: domain/segment.ts). Every
// change is written through a unit of work and applied to the index once committed; the index is rebuilt from the
// database at start, a slice at a time so that other requests go on meanwhile.
import { ReadThroughCache } from '../../core/cache.ts';
import { BatchedLookup } from '../../core/db/batched-lookup.ts';
import { prepared } from '../../core/db/prepared.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { Entity } from './domain/entity.ts';
import { SearchIndex, indexedEntity, type IndexQuery } from './domain/search-index.ts';
import { SegmentBuilder } from './domain/segment.ts';
import { readSeed, validateEntities } from './loading.ts';
import { readSettings } from './settings.ts';
import { countEntities, deleteEntity, entityDocuments, parseTerms, readMeta, termsPage, writeEntities, writeMeta } from './store.ts';
import { DEFAULT_KEY, buildWorld, yieldToOthers, type DefaultRecord } from './world-build.ts';

/** Entities per slice of indexing (rows per page when read back): each is normalised in one go on the event loop. */
const SCAN_PAGE = 500;

export interface Ranked {
  entity: Entity;
  score: number;
}

export class EntityGraph {
  readonly #ctx: ServiceContext;
  #index = new SearchIndex();
  /**
   * Documents looked up by one id, on SQLite only (its one writer is this process; PostgreSQL may have others): a
   * hit is neither read nor parsed again. An id is forgotten once its change commits, everything at every start.
   */
  readonly #documents: ReadThroughCache<string, Entity> | null;
  /** PostgreSQL: the documents looked up by one id in one turn of the event loop are read with one query. */
  readonly #batchedDocuments: BatchedLookup<Entity> | null;
  /** The minimum population of a world graph this process built at start (so `entities build` need not repeat it). */
  builtAtStart?: number;
  /** Told whenever what a search may answer changes: documents written or removed, the index replaced. */
  readonly #changeListeners: Array<() => void> = [];

  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
    const budget = readSettings(ctx.settings).documentCacheBudget;
    this.#documents = ctx.db.dialect === 'sqlite' ? new ReadThroughCache(budget, (e) => JSON.stringify(e).length * 2) : null;
    this.#batchedDocuments =
      ctx.db.dialect === 'postgres' ? new BatchedLookup(async (ids) => new Map((await entityDocuments(ctx.kysely, ids)).map((e) => [e.id, e]))) : null;
  }

  /**
   * At start, in the background (see the manifest): load the configured default graph when the database lacks it
   * (the world graph takes a few seconds), then index what the database holds.
   */
  async start(options: { signal?: AbortSignal; rebuild?: boolean } = {}): Promise<void> {
    const settings = readSettings(this.#ctx.settings);
    // After a reset or an import the tables hold other documents.
    this.#documents?.clear();
    this.#changed();
    // `rebuild`: a build cut short by a reset may have left part of a graph and even its record: build it again.
    const current = options.rebuild ? undefined : await this.defaultRecord();
    this.builtAtStart = undefined;
    if (settings.graph === 'world' && current?.graph !== 'world') {
      const started = Date.now();
      // The batches are indexed as they are written. No progress bar: this runs while the start table is printed
      // (`entities build` shows one).
      const builder = new SegmentBuilder();
      const onBatch = (batch: Entity[]) => {
        for (const e of batch) builder.add(indexedEntity(e));
      };
      const built = await buildWorld(this.#ctx, { minPopulation: settings.minPopulation, progress: false, signal: options.signal, onBatch });
      this.#ctx.log.info({ entities: built, ms: Date.now() - started }, 'entity graph built');
      this.builtAtStart = settings.minPopulation;
      // Usually the graph holds nothing else, and the index is the one just filled.
      if ((await this.count()) === built) {
        this.#index = new SearchIndex(builder.finish());
        this.#changed();
        return;
      }
    } else if (settings.graph === 'samples' && current?.graph !== 'samples' && (await this.count()) === 0) {
      await this.put(validateEntities(readSeed()), { graph: 'samples' });
    }
    await this.rebuildIndex(options.signal);
  }

  async defaultRecord(): Promise<DefaultRecord | undefined> {
    const raw = await readMeta(this.#ctx.kysely, DEFAULT_KEY);
    return raw ? (JSON.parse(raw) as DefaultRecord) : undefined;
  }

  /**
   * Reads what the index needs of every entity back (a page at a time, letting requests through between pages) into
   * a fresh index. The service's own connection, not a read worker: a worker started for this one scan would keep
   * tens of megabytes for the life of the process, and the rows are parsed on this thread either way.
   */
  async rebuildIndex(signal?: AbortSignal): Promise<void> {
    // Each row is normalised into the compact builder as it arrives: no object per entity outlives its page.
    const builder = new SegmentBuilder();
    let after: string | undefined;
    for (;;) {
      signal?.throwIfAborted();
      await yieldToOthers();
      const rows = await termsPage(this.#ctx.kysely, SCAN_PAGE, after).execute();
      for (const r of rows) builder.add(indexedEntity(parseTerms(r)));
      if (rows.length < SCAN_PAGE) break;
      after = rows[rows.length - 1].id as string;
    }
    this.#index = new SearchIndex(builder.finish());
    this.#changed();
  }

  /** Stores entities (replacing those with the same ids) in one unit of work, then indexes them. */
  async put(given: Entity[], record?: Pick<DefaultRecord, 'graph'>): Promise<void> {
    // The last document of an id wins, as if each replaced the one before.
    const entities = [...new Map(given.map((e) => [e.id, e])).values()];
    const now = this.#ctx.clock.now();
    try {
      await this.#ctx.db.write(async (tx) => {
        await writeEntities(tx, entities, now);
        if (record) await writeMeta(tx, DEFAULT_KEY, JSON.stringify({ ...record, entities: entities.length, builtAt: now } satisfies DefaultRecord));
      });
    } finally {
      // Also when the write failed: a commit whose fsync failed may still have changed the table.
      for (const e of entities) this.#documents?.forget(e.id);
      this.#changed();
    }
    this.#index.upsert(entities);
  }

  async remove(id: string): Promise<boolean> {
    let removed: boolean;
    try {
      removed = await this.#ctx.db.write((tx) => deleteEntity(tx, id));
    } finally {
      this.#documents?.forget(id);
      this.#changed();
    }
    if (removed) this.#index.remove(id);
    return removed;
  }

  /** Calls `listener` whenever what a search may answer changes (an answer computed across it is stale). */
  onChange(listener: () => void): void {
    this.#changeListeners.push(listener);
  }

  #changed(): void {
    for (const listener of this.#changeListeners) listener();
  }

  count(): Promise<number> {
    return countEntities(this.#ctx.kysely);
  }

  get indexed(): number {
    return this.#index.size;
  }

  /** The best matches with their documents, best first. */
  async search(q: IndexQuery): Promise<Ranked[]> {
    const scored = this.#index.search(q);
    const docs = new Map((await this.documents(scored.map((s) => s.id))).map((e) => [e.id, e]));
    // A document deleted between the index lookup and this read is left out.
    return scored.flatMap((s) => (docs.has(s.id) ? [{ entity: docs.get(s.id)!, score: s.score }] : []));
  }

  /** A lookup by one id (the most frequent) runs a query compiled once. */
  readonly #byId = prepared<{ doc: string }>(() => this.#ctx.kysely.selectFrom('entities_entities').select('doc').where('id', '=', ''));

  async documents(ids: string[]): Promise<Entity[]> {
    if (ids.length !== 1) return entityDocuments(this.#ctx.kysely, ids);
    if (this.#batchedDocuments) {
      const found = await this.#batchedDocuments.get(ids[0]);
      return found ? [found] : [];
    }
    const found = this.#documents ? await this.#documents.get(ids[0], () => this.#document(ids[0])) : await this.#document(ids[0]);
    return found ? [found] : [];
  }

  async #document(id: string): Promise<Entity | undefined> {
    const row = (await this.#byId(this.#ctx.kysely, id)).rows[0];
    return row ? (JSON.parse(row.doc) as Entity) : undefined;
  }
}
