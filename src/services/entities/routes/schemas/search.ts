// The documented query string of entities.search (GET /v1/entities:search). The handler checks every parameter itself
// and refuses unknown ones, as the schema's closed object says; the bounds below are the ones it enforces.
import { Type } from '@sinclair/typebox';
import { googleQuery } from '../../../../core/google/query-schema.ts';

/** How many results answer without `limit`, and the most `limit` may ask for. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;

/** A repeated parameter that also takes a comma-separated list in one value. */
const commaList = (description: string, item = Type.String()) => Type.Optional(Type.Array(item, { description }));

export const SearchQuery = googleQuery({
  query: Type.Optional(Type.String({ description: 'The literal query string for search, matched against names and aliases. Either query or ids is required.' })),
  ids: commaList(
    'Entity ids to look up instead of searching (repeated, ids=A&ids=B, or comma-separated); unknown ids are left out.',
    Type.String({ pattern: '^(kg:)?/[a-z]/[0-9a-z_]{1,64}$' }),
  ),
  languages: commaList("Language codes to run the query with, e.g. 'en' (repeated or comma-separated); default en.", Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' })),
  types: commaList('Restricts returned entities to any of these schema.org types, e.g. Person (repeated or comma-separated).'),
  indent: Type.Optional(Type.Boolean({ description: 'Enables indenting of JSON results (true/false or 1/0).' })),
  prefix: Type.Optional(Type.Boolean({ description: 'Enables prefix match against names and aliases of entities (true/false or 1/0).' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Limits the number of entities to be returned.' })),
});
