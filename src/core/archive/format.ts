// The archive format: a gzip'd stream of JSON lines. The first line is the manifest; then the rows of every table
// (parents before children), then the stored content of the blobs those rows reference, then the service files kept
// beside the database. Column values that JSON cannot carry as they are travel with a type tag, so rows move between
// SQLite and PostgreSQL whatever the column types.
import type { DialectName } from '../db/dialect.ts';
import { ApiError } from '../errors.ts';
import type { ServiceId } from '../service.ts';

export const ARCHIVE_FORMAT = 'twinstack-archive';
export const ARCHIVE_VERSION = 1;

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  program: { name: string; version: string };
  createdAt: string;
  /** The database the archive was taken from. */
  dialect: DialectName;
  services: ServiceId[];
  /**
   * True when taken without a service filter: importing it replaces principals, credentials and settings too. A
   * partial archive adds the principals and credentials the target lacks and keeps the rest.
   */
  complete: boolean;
  /** Applied migrations per namespace (core ones and each service's): the importing schema must match. */
  migrations: Record<string, string[]>;
  /** An HMAC of a fixed label under the master key: rows hold data encrypted under that key. */
  keyCheck: string;
  /** Rows per table, in the order they follow. */
  tables: Record<string, number>;
  /** Full-text index tables, whose rows are `{doc_id, fields}` (each database keeps its own index form). */
  fullText: string[];
  /** Blobs whose bytes follow, and their total size. */
  content: { blobs: number; bytes: number };
  /** Service files (`<service>/<name>`) carried, sealed under the master key. */
  files: string[];
}

/** One line after the manifest. */
export type ArchiveLine =
  | { table: string; row: Record<string, unknown> }
  | { content: string; data: string }
  | { file: string; data: string };

/** Bytes of blob content per line. */
export const CONTENT_PIECE = 1024 * 1024;

export class ArchiveError extends ApiError {}

export const badArchive = (message: string) => new ArchiveError(400, `not a usable archive: ${message}`);

/** A column value as JSON: Buffers, big integers, dates, JSON documents and non-finite numbers are tagged. */
export function encodeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $number: String(value) };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof Date) return { $date: value.toISOString() };
  return { $json: value };
}

/** The inverse of `encodeValue`: a JS value, before it is fitted to the target column (see columns.ts). */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const tagged = value as Record<string, unknown>;
  if (typeof tagged.$bytes === 'string') return Buffer.from(tagged.$bytes, 'base64');
  if (typeof tagged.$bigint === 'string') {
    const n = BigInt(tagged.$bigint);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : tagged.$bigint;
  }
  if (typeof tagged.$date === 'string') return new Date(tagged.$date);
  if (typeof tagged.$number === 'string') return Number(tagged.$number);
  if ('$json' in tagged) return tagged.$json;
  throw badArchive(`unknown value ${JSON.stringify(value).slice(0, 80)}`);
}

/** A row with its columns in name order, values encoded: the same state gives the same line on either database. */
export function encodeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(row).sort()) out[key] = encodeValue(row[key]);
  return out;
}
