// Pieces the documented request schemas of Books share: paging, projection and path parameters. A method's query string
// is googleQuery(own, { unknownParameters: 'ignored' }): Books ignores a parameter it does not know.
// Enumerations are listed in their lower-case form; the handlers also accept the discovery document's upper-case one.
import { Type, type TProperties } from '@sinclair/typebox';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { PROJECTIONS } from '../params.ts';

/** An optional parameter with one of `values` (any case; `_` for `-`). */
export const choice = (values: readonly string[], description: string) =>
  Type.Optional(stringEnum(values, { description: `${description} Case-insensitive.` }));

/** An optional `true` or `false`; another value is refused. */
export const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const INT32_MAX = 2_147_483_647;

export const PAGE: TProperties = {
  startIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'Index of the first result to return (starts at 0).' })),
  maxResults: Type.Optional(Type.Integer({ minimum: 0, maximum: 40, description: 'Maximum number of results to return (default 10).' })),
};

export const PROJECTION: TProperties = { projection: choice(PROJECTIONS, 'Restrict information returned to a set of selected fields (default full).') };

export const SHOW_PREORDERS: TProperties = { showPreorders: flag('Set to true to show books available for preorder (accepted; the catalog holds none).') };

export const USER_ID = { userId: Type.String({ description: 'ID of the user whose bookshelves to read.' }) };
export const SHELF = { shelf: Type.String({ description: 'ID of the bookshelf (a number such as 0 for Favorites), or its title.' }) };
