// Blob bytes as fixed-size chunks in the database (the PostgreSQL default): every instance on that database serves
// every blob, and the bytes commit or roll back with the unit of work that stores them.
import type { Kysely } from 'kysely';

export const CHUNK_BYTES = 256 * 1024;

export async function writeChunks(tx: Kysely<any>, hash: string, data: Buffer): Promise<void> {
  const rows = [];
  for (let seq = 0; seq * CHUNK_BYTES < data.length || seq === 0; seq++) {
    rows.push({ hash, seq, data: data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES) });
    if (data.length === 0) break;
  }
  // A few chunks per statement keeps each parameter list small.
  for (let i = 0; i < rows.length; i += 8) await tx.insertInto('core_blob_chunks').values(rows.slice(i, i + 8)).execute();
}

/** Bytes [start, end) of a chunked blob: only the chunks that cover the range are read. */
export async function readChunks(db: Kysely<any>, hash: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const first = Math.floor(start / CHUNK_BYTES);
  const last = Math.floor((end - 1) / CHUNK_BYTES);
  const rows = await db
    .selectFrom('core_blob_chunks')
    .select(['seq', 'data'])
    .where('hash', '=', hash)
    .where('seq', '>=', first)
    .where('seq', '<=', last)
    .orderBy('seq')
    .execute();
  const joined = Buffer.concat(rows.map((r) => Buffer.from(r.data as Uint8Array)));
  const from = start - first * CHUNK_BYTES;
  return joined.subarray(from, from + (end - start));
}

export async function deleteChunks(tx: Kysely<any>, hash: string): Promise<void> {
  await tx.deleteFrom('core_blob_chunks').where('hash', '=', hash).execute();
}
