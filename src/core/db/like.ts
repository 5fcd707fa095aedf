// LIKE patterns built from user text: the text's own `%`, `_` and `\` match themselves (every query that uses these
// patterns says `escape '\'`, the same on SQLite and PostgreSQL).
import { sql, type Expression, type SqlBool } from 'kysely';

/** The text with LIKE's wildcards and escape character escaped. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `expression LIKE pattern ESCAPE '\'`. */
export const likeEscaped = (expression: Expression<unknown>, pattern: string): Expression<SqlBool> => sql<SqlBool>`${expression} like ${pattern} escape '\\'`;
