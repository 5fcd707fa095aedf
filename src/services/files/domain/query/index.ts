/**
 * Drive v2 `q`: parse, then compile to a Kysely condition.
 *
 *   const node = parseDriveQuery(q);          // throws DriveQueryError -> 400 reason `invalid`, location `q`
 *   query.where(compileDriveQuery(node, target));
 *
 * Skip both when `q` is absent or blank (parseDriveQuery refuses a blank query). `target` implements
 * DriveQueryTarget: one method per leaf (title, fullText, mimeType, modifiedDate, lastViewedByMeDate, trashed,
 * starred, hidden, sharedWithMe, inParents, inOwners, inWriters, inReaders, propertiesHas), each returning an
 * Expression<SqlBool> over the files table (usually `exists (...)` subqueries for parents, permissions and
 * properties). Leaves must never evaluate to NULL, or `not` would drop rows. `'root'` in parents arrives as the
 * literal id 'root'; resolving the alias is the target's job. Date values arrive as epoch milliseconds;
 * `trashed != true` arrives as trashed(false); `sharedWithMe = false` is compiled as not(sharedWithMe()).
 */
export type { DateOperator, DateTerm, FlagTerm, MembershipTerm, PropertyMatch, PropertyVisibility, QueryLeaf, QueryNode, TextOperator } from './ast.ts';
export { compileDriveQuery, type DriveQueryTarget } from './compile.ts';
export { DriveQueryError } from './errors.ts';
export { MAX_QUERY_DEPTH, parseDriveQuery } from './parser.ts';
export { printDriveQuery } from './print.ts';
