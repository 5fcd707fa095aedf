// Documented requests of children.* and parents.*: a reference body naming the other end by id.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { ALL_DRIVES, FILE_ID, FileParams, PAGE_TOKEN, integer, text, pathParams } from './common.ts';
import { ORDER_KEYS } from '../../domain/order-by.ts';
import { UPDATE_QUERY } from './files.ts';

const reference = (description: string) =>
  Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, description }) }, { description: 'A reference; other fields are ignored.' });

const FOLDER_ID = { folderId: 'The ID of the folder (or `root`).' };
const FolderParams = pathParams(FOLDER_ID);
const ChildParams = pathParams({ ...FOLDER_ID, childId: 'The ID of the child.' });
const ParentParams = pathParams({ ...FILE_ID, parentId: 'The ID of the parent (or `root`).' });
/** Adding or removing a reference updates the child as files.patch does, with its parameters. */
const RelinkQuery = googleQuery(UPDATE_QUERY, { unknownParameters: 'ignored' });

export const FOLDER_SCHEMAS = {
  listChildren: documented({
    params: FolderParams,
    querystring: googleQuery({
      ...ALL_DRIVES,
      ...PAGE_TOKEN,
      maxResults: integer(0, 1000, 'Maximum number of children to return (0 or none: 100).'),
      q: text('Query string for searching children.'),
      orderBy: text(`Comma-separated list of sort keys, each optionally followed by desc: ${ORDER_KEYS.join(', ')}.`),
    }, { unknownParameters: 'ignored' }),
  }),
  getChild: documented({ params: ChildParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  insertChild: documented({ params: FolderParams, querystring: RelinkQuery, body: reference('The ID of the child to put in the folder.') }),
  deleteChild: documented({ params: ChildParams, querystring: RelinkQuery }),
  listParents: documented({ params: FileParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }) }),
  getParent: documented({ params: ParentParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }) }),
  insertParent: documented({ params: FileParams, querystring: RelinkQuery, body: reference('The ID of the parent folder to add (or `root`).') }),
  deleteParent: documented({ params: ParentParams, querystring: RelinkQuery }),
};
