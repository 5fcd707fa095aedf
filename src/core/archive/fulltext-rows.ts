// Full-text index tables in a form both databases can rebuild from: `{doc_id, fields}`, the folded text of each field
// in index order. SQLite's FTS5 table holds that text; PostgreSQL's tsvector holds each word with its positions and
// the weight label of its field (A for the first field, B, C, D), from which the text is put back in word order.
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/dialect.ts';
import { indexFullTextDocuments, type FullTextDocument } from '../db/fulltext.ts';
import { quoteId, type TableShape } from './columns.ts';

export interface PortableDocument {
  doc_id: number;
  /** Folded text per field, trailing empty fields left out (so both databases give the same row). */
  fields: string[];
}

const LABELS = 'ABCD';

export function fullTextSelect(shape: TableShape, dialect: DialectName): string {
  return dialect === 'sqlite' ? `select rowid as doc_id, * from ${quoteId(shape.name)}` : `select doc_id, document::text as document from ${quoteId(shape.name)}`;
}

export function toPortable(row: Record<string, unknown>, shape: TableShape, dialect: DialectName): PortableDocument {
  const fields = dialect === 'sqlite' ? shape.columns.map((c) => String(row[c.name] ?? '')) : fieldsOfTsvector(String(row.document ?? ''));
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return { doc_id: Number(row.doc_id), fields };
}

/** `'word':3A,7 'other':1A` -> the words of each weight label, in position order (D, the default, is unmarked). */
function fieldsOfTsvector(text: string): string[] {
  const placed: Array<Array<[number, string]>> = [[], [], [], []];
  for (const m of text.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    const word = m[1].replace(/''/g, "'").replace(/\\(.)/g, '$1');
    for (const p of (m[2] ?? '').split(',').filter(Boolean)) {
      const label = /[A-D]$/.test(p) ? p.slice(-1) : 'D';
      placed[LABELS.indexOf(label)].push([parseInt(p, 10), word]);
    }
  }
  return placed.map((words) => words.sort((a, b) => a[0] - b[0]).map(([, w]) => w).join(' '));
}

/** Indexes portable documents into the target's full-text table through the same helper the services use. */
export async function insertPortable(tx: Kysely<any>, shape: TableShape, dialect: DialectName, docs: PortableDocument[]): Promise<void> {
  // SQLite's columns are the field names; on PostgreSQL only the order matters (it gives each field its label).
  const byWidth = new Map<number, PortableDocument[]>();
  for (const d of docs) {
    const width = dialect === 'sqlite' ? shape.columns.length : Math.max(1, d.fields.length);
    const group = byWidth.get(width);
    if (group) group.push(d);
    else byWidth.set(width, [d]);
  }
  for (const [width, group] of byWidth) {
    const fields = dialect === 'sqlite' ? shape.columns.map((c) => c.name) : Array.from({ length: width }, (_, i) => `f${i}`);
    const index = { name: shape.name, fields, weights: fields.map(() => 1) };
    const documents: FullTextDocument[] = group.map((d) => ({ id: d.doc_id, fields: Object.fromEntries(fields.map((f, i) => [f, d.fields[i] ?? ''])) }));
    await indexFullTextDocuments(tx, index, documents);
  }
}
