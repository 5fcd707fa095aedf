// A digest of the state an archive holds, per table, independent of row order and of where the archive was taken:
// two instances hold the same state exactly when their digests are equal. Service files are compared by content
// (their sealed form differs with every export).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Vault } from '../crypto.ts';
import { fileAad } from './common.ts';
import { lineReader } from './stream.ts';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** `{<table>: sha256 of its sorted rows, 'content:<hash>': sha256 of the bytes, 'file:<name>': sha256 of the file}`. */
export async function archiveDigest(input: Readable, vault: Vault): Promise<Record<string, string>> {
  const rows = new Map<string, string[]>();
  const content = new Map<string, Buffer[]>();
  const out: Record<string, string> = {};
  let first = true;
  for await (const line of lineReader(input)) {
    const l = line as Record<string, unknown>;
    if (first) {
      first = false;
      for (const table of Object.keys((l.tables as Record<string, number>) ?? {})) rows.set(table, []);
      continue;
    }
    if (typeof l.table === 'string') rows.get(l.table)?.push(JSON.stringify(l.row));
    else if (typeof l.content === 'string') {
      const pieces = content.get(l.content) ?? [];
      pieces.push(Buffer.from(String(l.data), 'base64'));
      content.set(l.content, pieces);
    }
    else if (typeof l.file === 'string') out[`file:${l.file}`] = sha256(vault.decryptBytes(Buffer.from(String(l.data), 'base64'), fileAad(l.file)));
  }
  for (const [table, lines] of rows) out[table] = sha256(lines.sort().join('\n'));
  for (const [hash, pieces] of content) out[`content:${hash}`] = sha256(Buffer.concat(pieces));
  return out;
}
