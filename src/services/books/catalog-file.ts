// Catalog files: Project Gutenberg's CSV catalog or Open Library dump lines, plain or gzip-compressed. Every record is
// validated before anything is stored; the first bad one rejects the whole batch, naming its line.
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { CatalogVolume } from './domain/catalog-volume.ts';
import { GUTENBERG_COLUMNS, gutenbergVolume, type GutenbergRow } from './domain/gutenberg.ts';
import { openLibraryVolume, parseOpenLibraryLine } from './domain/open-library.ts';
import { RecordError } from './domain/record-error.ts';

/** The catalog shipped with the program: the head of Project Gutenberg's catalog (see data/books/README.md). */
export const SHIPPED_CATALOG = new URL('../../../data/books/pg_catalog_head.csv.gz', import.meta.url);

export class CatalogFileError extends Error {}

export interface ParsedCatalog {
  volumes: CatalogVolume[];
  /** Records that are valid but not books (Project Gutenberg's audio, image and data items). */
  skipped: number;
}

/** The bytes of a catalog, gunzipped when they start with the gzip magic bytes, without a byte-order mark. */
export function catalogBytes(bytes: Buffer): Buffer {
  const plain = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return plain[0] === 0xef && plain[1] === 0xbb && plain[2] === 0xbf ? plain.subarray(3) : plain;
}

export const readCatalogFile = (path: string | URL): Buffer => catalogBytes(readFileSync(path));

const atLine = (line: number, err: unknown): CatalogFileError => {
  if (err instanceof RecordError) return new CatalogFileError(`line ${line}: ${err.message}`);
  throw err;
};

/** Records turned into volumes between two yields to the event loop. */
const RECORDS_PER_SLICE = 500;

/** Lets the event loop answer what arrived meanwhile (I/O first, as setImmediate runs after it). */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Parses and validates a whole catalog; `limit` keeps only the first records (a small catalog). The records are
 * validated a slice at a time with the event loop let through in between: the shipped catalog takes half a second of
 * CPU at a first start, while the listeners are already open.
 */
export async function parseCatalog(bytes: Buffer, limit?: number): Promise<ParsedCatalog> {
  if (bytes.toString('utf8', 0, 4096).trim() === '') throw new CatalogFileError('the catalog is empty');
  // csv-parse reads a Buffer several times faster than the same text as a string.
  const parsed = bytes.toString('latin1', 0, 6) === 'Text#,' ? await parseGutenberg(bytes, limit) : await parseOpenLibrary(bytes.toString('utf8'), limit);
  // A record repeated later in the batch replaces the earlier one (a newer export of the same ebook).
  const byId = new Map(parsed.volumes.map((v) => [v.id, v]));
  return { volumes: [...byId.values()], skipped: parsed.skipped };
}

async function parseGutenberg(bytes: Buffer, limit?: number): Promise<ParsedCatalog> {
  let records: Array<{ record: GutenbergRow; info: { lines: number } }>;
  try {
    records = parse(bytes, {
      columns: (header: string[]) => {
        if (header.join(',') !== GUTENBERG_COLUMNS.join(',')) throw new CatalogFileError(`line 1: the header must be ${GUTENBERG_COLUMNS.join(',')}`);
        return header;
      },
      info: true,
      skip_empty_lines: true,
      ...(limit !== undefined ? { to: limit } : {}),
    });
  } catch (err) {
    if (err instanceof CatalogFileError) throw err;
    const e = err as { message: string; lines?: number };
    throw new CatalogFileError(`line ${e.lines ?? '?'}: ${e.message.replace(/ on line \d+$/, '')}`);
  }
  const volumes: CatalogVolume[] = [];
  let skipped = 0;
  let previousEnd = 1;
  for (const [i, { record, info }] of records.entries()) {
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    const line = previousEnd + 1;
    previousEnd = info.lines;
    let volume: CatalogVolume | undefined;
    try {
      volume = gutenbergVolume(record);
    } catch (err) {
      throw atLine(line, err);
    }
    if (volume) volumes.push(volume);
    else skipped++;
  }
  return { volumes, skipped };
}

async function parseOpenLibrary(text: string, limit?: number): Promise<ParsedCatalog> {
  const volumes: CatalogVolume[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && (limit === undefined || volumes.length < limit); i++) {
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    const line = lines[i].trim();
    if (line === '') continue;
    try {
      volumes.push(openLibraryVolume(parseOpenLibraryLine(line)));
    } catch (err) {
      throw atLine(i + 1, err);
    }
  }
  return { volumes, skipped: 0 };
}
