// Which tables an archive holds and which of their rows, found from the manifests: each service's `tables`, and the
// tables core keeps for every service. A core table with a `service` or `owner` column holds rows per service (jobs,
// outbox, watch channels, blob references, uploads in progress); the others (principals, credentials, settings) are
// shared by all. Blob rows go with the references of the selected services; their bytes travel as content lines.
import { BLOB_TABLES } from '../blobs/migrations.ts';
import type { DialectName } from '../db/dialect.ts';
import { WATCH_TABLES } from '../google/watch-channels.ts';
import { CORE_TABLES } from '../migrations.ts';
import type { ServiceManifest } from '../service.ts';
import { describeTable, quoteId, quoteText, type RunQuery } from './columns.ts';

export type TableRole = 'shared' | 'per-service' | 'blobs' | 'service';

export interface PlannedTable {
  name: string;
  role: TableRole;
  /** SQL condition selecting the rows of the selected services (none: every row). */
  where?: string;
  /** The column naming the service of a per-service row. */
  column?: string;
}

/** Blob bytes are not a table of the archive: they follow as content lines, whatever the backend that holds them. */
const CHUNKS_TABLE = 'core_blob_chunks';
const BLOBS_TABLE = 'core_blobs';
const SERVICE_COLUMNS = ['service', 'owner'];

/** Tables in the order their rows are inserted (parents first); deletion runs in the reverse order. */
export async function planTables(run: RunQuery, dialect: DialectName, manifests: ServiceManifest[]): Promise<PlannedTable[]> {
  const ids = manifests.map((m) => m.id);
  const inList = `(${ids.map(quoteText).join(', ') || 'null'})`;
  const planned: PlannedTable[] = [];
  // Each list is written children first (the order `reset` empties them in).
  for (const table of [...CORE_TABLES].reverse().concat([...BLOB_TABLES].reverse(), [...WATCH_TABLES].reverse())) {
    if (table === CHUNKS_TABLE) continue;
    if (table === BLOBS_TABLE) {
      planned.push({ name: table, role: 'blobs', where: `hash in (select hash from core_blob_refs where owner in ${inList})` });
      continue;
    }
    const shape = await describeTable(run, dialect, table);
    const column = SERVICE_COLUMNS.find((c) => shape.columns.some((col) => col.name === c));
    planned.push(column ? { name: table, role: 'per-service', where: `${quoteId(column)} in ${inList}`, column } : { name: table, role: 'shared' });
  }
  for (const m of manifests) for (const table of [...m.tables].reverse()) planned.push({ name: table, role: 'service' });
  return planned;
}

/** Applied migrations of each namespace (core's and each service's), by name. */
export async function appliedMigrations(run: RunQuery, namespaces: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const ns of namespaces) out[ns] = (await run(`select name from ${quoteId(`${ns}_migrations`)} order by name`)).map((r) => String(r.name));
  return out;
}

/** Core's migration namespaces (`core`, `core_blobs`, ...), from the bookkeeping tables the runtime made. */
export async function coreNamespaces(run: RunQuery, dialect: DialectName): Promise<string[]> {
  const names =
    dialect === 'sqlite'
      ? await run(`select name from sqlite_master where type = 'table' and name like 'core%'`)
      : await run(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name like 'core%'`);
  return names
    .map((r) => String(r.name))
    .filter((n) => n.endsWith('_migrations'))
    .map((n) => n.slice(0, -'_migrations'.length))
    .sort();
}
