// Import: the manifest is checked first (format, master key, schema, services), so a refused archive changes
// nothing; then the selected services' rows are replaced in one unit of work on the write path, which commits all of
// it or none. Service files are written once that unit is durable, and each service then starts again on its new state.
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { deleteChunks, writeChunks } from '../blobs/chunks.ts';
import type { Runtime } from '../runtime.ts';
import type { ServiceId } from '../service.ts';
import { describeTable, fitValue, quoteId, quoteText, type RunQuery, type TableShape } from './columns.ts';
import { fileAad, keyCheck, selectManifests, whenLoaded, type Progress } from './common.ts';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError, badArchive, decodeValue, type ArchiveManifest } from './format.ts';
import { insertPortable, type PortableDocument } from './fulltext-rows.ts';
import { appliedMigrations, coreNamespaces, planTables, type PlannedTable } from './scope.ts';
import { lineReader, writeBytesAtomically } from './stream.ts';

export interface ImportOptions {
  /** Services to import from the archive; default: every service it holds. */
  services?: ServiceId[];
  onProgress?: Progress;
  /** Called once the manifest passed its checks, before anything changes. */
  onManifest?: (manifest: ArchiveManifest) => void;
}

export interface ImportSummary {
  services: ServiceId[];
  complete: boolean;
  rows: number;
  blobs: number;
  files: number;
  source: { dialect: string; program: string; createdAt: string };
}

/** Rows per INSERT: well under both databases' parameter limits. */
const MAX_PARAMS = 20_000;

export async function importArchive(rt: Runtime, input: Readable, options: ImportOptions = {}): Promise<ImportSummary> {
  const lines = lineReader(input);
  try {
    const first = await lines.next();
    const manifest = checkManifest(first.done ? undefined : first.value);
    if (manifest.keyCheck !== keyCheck(rt.vault)) {
      throw new ArchiveError(409, 'the archive was made under another master key (TWINSTACK_MASTER_KEY or <data-dir>/master.key): import it where that key is configured; nothing was changed');
    }
    const wanted = options.services ?? manifest.services;
    for (const id of wanted) if (!manifest.services.includes(id)) throw new ArchiveError(400, `service ${id} is not in the archive (it holds ${manifest.services.join(', ')})`);
    const manifests = selectManifests(rt, wanted);
    const ids = manifests.map((m) => m.id);
    const complete = manifest.complete && manifest.services.every((id) => ids.includes(id));
    const dialect = rt.db.dialect;
    const run: RunQuery = async (text) => (await sql.raw(text).execute(rt.db.kysely)).rows as Array<Record<string, unknown>>;

    const namespaces = [...(await coreNamespaces(run, dialect)), ...ids];
    const ours = await appliedMigrations(run, namespaces);
    for (const ns of namespaces) {
      if (JSON.stringify(ours[ns]) !== JSON.stringify(manifest.migrations[ns] ?? [])) {
        throw new ArchiveError(409, `the archive's ${ns} tables are at another schema version (${(manifest.migrations[ns] ?? []).at(-1) ?? 'none'}, here ${ours[ns].at(-1) ?? 'none'}): import it with the version that exported it; nothing was changed`);
      }
    }
    const plan = await planTables(run, dialect, manifests);
    const shapes = new Map(await Promise.all(plan.map(async (t) => [t.name, await describeTable(run, dialect, t.name)] as const)));
    options.onManifest?.(manifest);
    await whenLoaded(rt, manifests);

    const total = Object.values(manifest.tables).reduce((a, b) => a + b, 0) + manifest.content.blobs + manifest.files.length;
    const files = new Map<string, Buffer>();
    const summary = await rt.db.write(async (tx) => {
      const loader = new Loader(tx, rt, plan, shapes, ids, complete, (done) => options.onProgress?.(done, total));
      await loader.clear();
      for (let next = await lines.next(); !next.done; next = await lines.next()) await loader.take(next.value, files);
      return loader.finish(manifest);
    });

    await replaceServiceFiles(rt, manifests.map((m) => ({ id: m.id, names: m.dataFiles ?? [] })), files);
    if (complete && rt.clock.mode === 'manual') {
      const row = await rt.db.kysely.selectFrom('core_settings').select('value').where('key', '=', 'clock').executeTakeFirst();
      if (row) rt.clock.set((JSON.parse(String(row.value)) as { now: number }).now);
    }
    await rt.reload(ids);
    await whenLoaded(rt, manifests);
    return {
      services: ids,
      complete,
      ...summary,
      files: files.size,
      source: { dialect: manifest.dialect, program: `${manifest.program.name} ${manifest.program.version}`, createdAt: manifest.createdAt },
    };
  } finally {
    await lines.return(undefined);
  }
}

export function checkManifest(value: unknown): ArchiveManifest {
  const m = value as Partial<ArchiveManifest> | undefined;
  if (!m || m.format !== ARCHIVE_FORMAT) throw badArchive('it does not start with a twinstack archive manifest');
  if (m.version !== ARCHIVE_VERSION) throw badArchive(`format version ${m.version} (this program reads version ${ARCHIVE_VERSION})`);
  const ok =
    Array.isArray(m.services) &&
    typeof m.keyCheck === 'string' &&
    typeof m.migrations === 'object' &&
    typeof m.tables === 'object' &&
    typeof m.content === 'object' &&
    Array.isArray(m.files) &&
    typeof m.complete === 'boolean';
  if (!ok) throw badArchive('its manifest lacks required fields');
  return m as ArchiveManifest;
}

/** Rows arrive table by table; they are inserted in batches, fitted to the columns of this database. */
class Loader {
  readonly #tx: Kysely<any>;
  readonly #rt: Runtime;
  readonly #plan: Map<string, PlannedTable>;
  readonly #shapes: Map<string, TableShape>;
  readonly #ids: string[];
  readonly #complete: boolean;
  readonly #progress: (done: number) => void;
  #done = 0;
  #rows = 0;
  readonly #seen = new Map<string, number>();
  #batch: { table: string; rows: Array<Record<string, unknown>> } | undefined;
  // Blobs this import added, and whose bytes arrived.
  readonly #added = new Set<string>();
  readonly #filled = new Set<string>();
  #content: { hash: string; pieces: Buffer[] } | undefined;

  constructor(tx: Kysely<any>, rt: Runtime, plan: PlannedTable[], shapes: Map<string, TableShape>, ids: string[], complete: boolean, progress: (done: number) => void) {
    this.#tx = tx;
    this.#rt = rt;
    this.#plan = new Map(plan.map((t) => [t.name, t]));
    this.#shapes = shapes;
    this.#ids = ids;
    this.#complete = complete;
    this.#progress = progress;
  }

  /** Empties what the import replaces, children first. Shared core rows go only when a complete archive replaces them. */
  async clear(): Promise<void> {
    for (const t of [...this.#plan.values()].reverse()) {
      if (t.role === 'service' || (t.role === 'shared' && this.#complete)) await this.#tx.deleteFrom(t.name).execute();
      else if (t.role === 'per-service') await sql`delete from ${sql.id(t.name)} where ${sql.raw(t.where!)}`.execute(this.#tx);
    }
  }

  async take(line: unknown, files: Map<string, Buffer>): Promise<void> {
    const l = line as Record<string, unknown>;
    if (typeof l?.table === 'string' && typeof l.row === 'object' && l.row !== null) return this.#takeRow(l.table, l.row as Record<string, unknown>);
    await this.#flush();
    if (typeof l?.content === 'string' && typeof l.data === 'string') return this.#takeContent(l.content, Buffer.from(l.data, 'base64'));
    await this.#flushContent();
    if (typeof l?.file === 'string' && typeof l.data === 'string') {
      const service = l.file.slice(0, l.file.indexOf('/'));
      let data: Buffer;
      try {
        data = this.#rt.vault.decryptBytes(Buffer.from(l.data, 'base64'), fileAad(l.file));
      } catch {
        throw badArchive(`file ${l.file} does not open under this master key`);
      }
      if (this.#ids.includes(service)) files.set(l.file, data);
      return this.#step();
    }
    throw badArchive(`unexpected line ${JSON.stringify(line).slice(0, 80)}`);
  }

  async finish(manifest: ArchiveManifest): Promise<{ rows: number; blobs: number }> {
    await this.#flush();
    await this.#flushContent();
    for (const [table, n] of Object.entries(manifest.tables)) {
      if ((this.#seen.get(table) ?? 0) !== n) throw badArchive(`table ${table} has ${this.#seen.get(table) ?? 0} rows of ${n}: the archive is cut short`);
    }
    for (const hash of this.#added) if (!this.#filled.has(hash)) throw badArchive(`the content of blob ${hash} is missing`);
    // Blobs of services not imported would be referenced by nobody.
    for (const hash of this.#added) {
      const ref = await this.#tx.selectFrom('core_blob_refs').select('hash').where('hash', '=', hash).executeTakeFirst();
      if (ref) continue;
      await deleteChunks(this.#tx, hash);
      await this.#tx.deleteFrom('core_blobs').where('hash', '=', hash).execute();
    }
    if (this.#rt.db.dialect === 'postgres') await this.#advanceSequences();
    return { rows: this.#rows, blobs: this.#filled.size };
  }

  #step(n = 1): void {
    this.#done += n;
    this.#progress(this.#done);
  }

  async #takeRow(table: string, row: Record<string, unknown>): Promise<void> {
    this.#seen.set(table, (this.#seen.get(table) ?? 0) + 1);
    const planned = this.#plan.get(table);
    // Tables and rows of services not imported are read past.
    const wanted = planned && (planned.role !== 'per-service' || this.#ids.includes(String(row[planned.column!])));
    if (!wanted) return this.#step();
    if (this.#batch && this.#batch.table !== table) await this.#flush();
    this.#batch ??= { table, rows: [] };
    this.#batch.rows.push(row);
    const shape = this.#shapes.get(table)!;
    if (this.#batch.rows.length >= Math.min(500, Math.floor(MAX_PARAMS / Math.max(1, shape.columns.length)))) await this.#flush();
  }

  async #flush(): Promise<void> {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    const planned = this.#plan.get(batch.table)!;
    const shape = this.#shapes.get(batch.table)!;
    const dialect = this.#rt.db.dialect;
    if (shape.fullText) {
      await insertPortable(this.#tx, shape, dialect, batch.rows as unknown as PortableDocument[]);
    } else {
      const types = new Map(shape.columns.map((c) => [c.name, c.type]));
      const rows = batch.rows.map((raw) => {
        const out: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(raw)) {
          const type = types.get(name);
          if (type === undefined) throw badArchive(`table ${batch.table} has no column ${name} here`);
          out[name] = fitValue(decodeValue(value), type, dialect);
        }
        return out;
      });
      if (planned.role === 'blobs') {
        // Imported bytes go into the database, where they commit with everything else.
        for (const row of rows) {
          const added = await this.#tx.insertInto(batch.table).values({ ...row, location: 'db' }).onConflict((oc) => oc.column('hash').doNothing()).executeTakeFirst();
          if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) this.#added.add(String(row.hash));
        }
      } else if (planned.role === 'shared' && !this.#complete) {
        await this.#tx.insertInto(batch.table).values(rows).onConflict((oc) => oc.doNothing()).execute();
      } else {
        await this.#tx.insertInto(batch.table).values(rows).execute();
      }
    }
    this.#rows += batch.rows.length;
    this.#step(batch.rows.length);
  }

  #takeContent(hash: string, piece: Buffer): Promise<void> | void {
    if (this.#content && this.#content.hash !== hash) return this.#flushContent().then(() => this.#takeContent(hash, piece));
    this.#content ??= { hash, pieces: [] };
    this.#content.pieces.push(piece);
  }

  async #flushContent(): Promise<void> {
    const content = this.#content;
    if (!content) return;
    this.#content = undefined;
    if (this.#added.has(content.hash)) {
      const data = Buffer.concat(content.pieces);
      if (createHash('sha256').update(data).digest('hex') !== content.hash) throw badArchive(`the content of blob ${content.hash} does not match its hash`);
      await writeChunks(this.#tx, content.hash, data);
      this.#filled.add(content.hash);
    }
    this.#step();
  }

  /** PostgreSQL sequences do not follow ids inserted explicitly: move each past the largest imported id. */
  async #advanceSequences(): Promise<void> {
    for (const name of this.#plan.keys()) {
      for (const column of this.#shapes.get(name)!.serial) {
        const table = quoteId(name);
        await sql
          .raw(`select setval(pg_get_serial_sequence(${quoteText(table)}, ${quoteText(column)}), coalesce(max(${quoteId(column)}), 0) + 1, false) from ${table}`)
          .execute(this.#tx);
      }
    }
  }
}

/** Writes the imported service files (atomically) and removes those the archive does not hold. */
async function replaceServiceFiles(rt: Runtime, services: Array<{ id: string; names: string[] }>, files: Map<string, Buffer>): Promise<void> {
  for (const { id, names } of services) {
    for (const name of names) {
      const path = join(rt.options.dataDir, name);
      const data = files.get(`${id}/${name}`);
      if (!data) {
        await rm(path, { force: true });
        continue;
      }
      await mkdir(dirname(path), { recursive: true });
      await writeBytesAtomically(path, data);
    }
  }
}
