// Ranked full-text search over a table's rows, one API on both databases: an FTS5 table ranked by bm25 on SQLite, a
// table of tsvector documents with a GIN index ranked by ts_rank on PostgreSQL. Text is folded the same way on both
// sides (lower case, no diacritics, letters and digits only) before either database sees it, so a query matches the
// same rows on SQLite and PostgreSQL.
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import { bulkInsert } from './bulk.ts';
import { dialectOf } from './dialect.ts';
import { foldText, foldWords } from '../text.ts';

export interface FullTextIndex {
  /** The index table, e.g. `books_volumes_fts`; its key is the integer id of the indexed row. */
  name: string;
  /** Searchable fields, most important first; at most four (PostgreSQL has four weight labels). */
  fields: string[];
  /** Weight of each field in the ranking, same order as `fields`. */
  weights: number[];
}

/** One document: the indexed row's integer id and the text of each field. */
export interface FullTextDocument {
  id: number;
  fields: Record<string, string | undefined>;
}

/** One required term: a word, or a phrase when it folds to several words; `field` restricts it to one field. */
export interface FullTextTerm {
  text: string;
  field?: string;
}

/** A derived table of the matching rows: `doc_id` (the indexed row's id) and `score` (higher is more relevant). */
export type FullTextMatch = RawBuilder<{ doc_id: number; score: number }>;

const LABELS = ['A', 'B', 'C', 'D'];
/** A lexeme folded text never holds ('#'), as a tsvector literal. */
const GAP = `$$'#gap':1$$`;

export { foldText, foldWords };

function check(index: FullTextIndex): void {
  if (index.fields.length === 0 || index.fields.length > LABELS.length) throw new Error(`full-text index ${index.name}: 1 to 4 fields`);
  if (index.weights.length !== index.fields.length) throw new Error(`full-text index ${index.name}: one weight per field`);
  for (const name of [index.name, ...index.fields]) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`full-text index: bad name ${name}`);
}

/** Creates the index table (call from a migration). */
export async function createFullTextIndex(db: Kysely<any>, index: FullTextIndex): Promise<void> {
  check(index);
  if (dialectOf(db) === 'sqlite') {
    await sql`create virtual table ${sql.id(index.name)} using fts5(${sql.join(index.fields.map((f) => sql.id(f)))}, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
    return;
  }
  await sql`create table ${sql.id(index.name)} (doc_id bigint primary key, document tsvector not null)`.execute(db);
  await sql`create index ${sql.id(`${index.name}_gin`)} on ${sql.id(index.name)} using gin (document)`.execute(db);
}

const ID_CHUNK = 5000;

/** Removes documents by id (inside the unit of work that removes or replaces the rows). */
export async function removeFullTextDocuments(db: Kysely<any>, index: FullTextIndex, ids: number[]): Promise<void> {
  const key = dialectOf(db) === 'sqlite' ? 'rowid' : 'doc_id';
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    await db.deleteFrom(index.name).where(key, 'in', ids.slice(i, i + ID_CHUNK)).execute();
  }
}

/**
 * Indexes documents, replacing any earlier document with the same id. Call it inside the unit of work that writes the
 * rows, so the index is always in step with them.
 */
export async function indexFullTextDocuments(db: Kysely<any>, index: FullTextIndex, docs: FullTextDocument[]): Promise<void> {
  if (docs.length === 0) return;
  await removeFullTextDocuments(
    db,
    index,
    docs.map((d) => d.id),
  );
  const rows = docs.map((d) => [d.id, ...index.fields.map((f) => foldText(d.fields[f] ?? ''))]);
  if (dialectOf(db) === 'sqlite') {
    await bulkInsert(db, index.name, ['rowid', ...index.fields], rows);
    return;
  }
  // Each field is weighted by its label, so a query can scope a term to one field. Concatenation would make the last
  // word of a field adjacent to the first of the next, so a phrase could span two fields (as it cannot on SQLite): a
  // placeholder lexeme between fields, deleted afterwards, leaves a gap in the positions.
  const vectors = index.fields.map((_, i) => `setweight(to_tsvector('simple', u.f${i}), '${LABELS[i]}')`).join(` || ${GAP}::tsvector || `);
  const arrays = ['$1::bigint[]', ...index.fields.map((_, i) => `$${i + 2}::text[]`)].join(', ');
  const names = ['id', ...index.fields.map((_, i) => `f${i}`)].join(', ');
  const text = `insert into "${index.name}" (doc_id, document) select u.id, ts_delete(${vectors}, '#gap') from unnest(${arrays}) as u(${names})`;
  for (let i = 0; i < rows.length; i += ID_CHUNK) {
    const chunk = rows.slice(i, i + ID_CHUNK);
    await db.executeQuery(CompiledQuery.raw(text, rows[0].map((_, c) => chunk.map((r) => r[c]))));
  }
}

/**
 * The rows matching every term, with a relevance score, as a derived table to join on `doc_id`. Undefined when no term
 * holds a word (such a query matches nothing).
 */
export function fullTextMatch(db: Kysely<any>, index: FullTextIndex, terms: FullTextTerm[]): FullTextMatch | undefined {
  const parts = terms.map((t) => ({ words: foldWords(t.text), field: t.field })).filter((t) => t.words.length > 0);
  if (parts.length === 0) return undefined;
  for (const p of parts) if (p.field !== undefined && !index.fields.includes(p.field)) throw new Error(`full-text index ${index.name} has no field ${p.field}`);
  if (dialectOf(db) === 'sqlite') {
    // Folded words hold letters and digits only, so quoting them needs no escaping.
    const expression = parts.map((p) => `${p.field ? `{${p.field}} : ` : ''}"${p.words.join(' ')}"`).join(' AND ');
    const weights = sql.join(index.weights.map((w) => sql.lit(w)));
    return sql<{ doc_id: number; score: number }>`(select rowid as doc_id, -bm25(${sql.id(index.name)}, ${weights}) as score from ${sql.id(index.name)} where ${sql.id(index.name)} match ${expression})`;
  }
  const label = (field?: string) => (field ? `:${LABELS[index.fields.indexOf(field)]}` : '');
  const expression = parts.map((p) => `(${p.words.map((w) => `'${w}'${label(p.field)}`).join(' <-> ')})`).join(' & ');
  // ts_rank takes the weights of labels D, C, B, A, each at most 1.
  const top = Math.max(...index.weights);
  const rankWeights = LABELS.map((_, i) => (index.weights[i] ?? 0) / top).reverse();
  return sql<{ doc_id: number; score: number }>`(select doc_id, ts_rank(${sql.lit(`{${rankWeights.join(',')}}`)}::float4[], document, q) as score from ${sql.id(index.name)}, to_tsquery('simple', ${expression}) as q where document @@ q)`;
}
