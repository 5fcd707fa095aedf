// Documented requests of bookshelves.* (a user's public shelves) and mylibrary.bookshelves.* (the caller's own).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { INT32_MAX, PAGE, PROJECTION, SHELF, SHOW_PREORDERS, USER_ID, choice } from './common.ts';

const UserParams = Type.Object(USER_ID);
const UserShelfParams = Type.Object({ ...USER_ID, ...SHELF });
const ShelfParams = Type.Object(SHELF);

const volumeId = (description: string) => Type.String({ minLength: 1, description });

/** Why a volume is added or removed (addVolume, removeVolume). */
export const CHANGE_REASONS = ['ios-prex', 'ios-search', 'onboarding'] as const;

/** addVolume and removeVolume take the same parameters. */
const VOLUME_CHANGE = googleQuery({
  volumeId: volumeId('ID of volume to add or remove.'),
  reason: choice(CHANGE_REASONS, 'The reason for which the book is added to or removed from the library.'),
}, { unknownParameters: 'ignored' });

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
  changeVolume: documented({ params: ShelfParams, querystring: VOLUME_CHANGE }),
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
