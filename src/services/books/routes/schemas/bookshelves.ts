// Documented requests of bookshelves.* (a user's public shelves) and mylibrary.bookshelves.* (the caller's own).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { INT32_MAX, PAGE, PROJECTION, SHELF, SHOW_PREORDERS, USER_ID, choice } from './common.ts';

const UserParams = Type.Object(USER_ID);
const UserShelfParams = Type.Object({ ...USER_ID, ...SHELF });
const ShelfParams = Type.Object(SHELF);

const volumeId = (description: string) => Type.String({ minLength: 1, description });

/** Why a volume is added (addVolume) or removed (removeVolume): Books lists fewer reasons for a removal. */
export const ADD_REASONS = ['ios-prex', 'ios-search', 'onboarding'] as const;
export const REMOVE_REASONS = ['onboarding'] as const;

/** addVolume and removeVolume take the same parameters, with their own reasons. */
const volumeChange = (reasons: readonly string[], verb: 'add' | 'remove', done: string) =>
  googleQuery({ volumeId: volumeId(`ID of volume to ${verb}.`), reason: choice(reasons, `The reason for which the book is ${done} the library.`) }, { unknownParameters: 'ignored' });

export const BOOKSHELF_SCHEMAS = {
  list: documented({ params: UserParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  get: documented({ params: UserShelfParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  listVolumes: documented({ params: UserShelfParams, querystring: googleQuery({ ...PAGE, ...SHOW_PREORDERS }, { unknownParameters: 'ignored' }) }),
};

export const MY_LIBRARY_SCHEMAS = {
  list: documented({ querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  get: documented({ params: ShelfParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  listVolumes: documented({
    params: ShelfParams,
    querystring: googleQuery({ ...PAGE, ...PROJECTION, ...SHOW_PREORDERS, q: Type.Optional(Type.String({ description: 'Full-text search query string in this bookshelf.' })) }, { unknownParameters: 'ignored' }),
  }),
  addVolume: documented({ params: ShelfParams, querystring: volumeChange(ADD_REASONS, 'add', 'added to') }),
  removeVolume: documented({ params: ShelfParams, querystring: volumeChange(REMOVE_REASONS, 'remove', 'removed from') }),
  clearVolumes: documented({ params: ShelfParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  moveVolume: documented({
    params: ShelfParams,
    querystring: googleQuery({
      volumeId: volumeId('ID of volume to move.'),
      volumePosition: Type.Integer({
        minimum: 0,
        maximum: INT32_MAX,
        description: 'Position on shelf to move the item (0 puts the item before the current first item, 1 between the first and the second and so on).',
      }),
    }, { unknownParameters: 'ignored' }),
  }),
};
