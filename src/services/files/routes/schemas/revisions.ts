// Documented requests of revisions.*: the flags of a Revision that can change.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { FILE_ID, FileParams, PAGE_TOKEN, flag, integer, pathParams } from './common.ts';

const RevisionParams = pathParams({ ...FILE_ID, revisionId: 'The ID of the revision (or `head`).' });

const RevisionPatch = Type.Object(
  {
    pinned: flag('Whether this revision is pinned to prevent automatic purging (at most 200 per file).'),
    published: flag('Whether this revision is published (Docs Editors files).'),
    publishAuto: flag('Whether subsequent revisions are automatically republished (checked, not stored).'),
    publishedOutsideDomain: flag('Whether this revision is published outside the domain (checked, not stored).'),
  },
  { description: 'A Revision; other fields are ignored.' },
);

export const REVISION_SCHEMAS = {
  list: documented({ params: FileParams, querystring: googleQuery({ ...PAGE_TOKEN, maxResults: integer(1, 1000, 'Maximum number of revisions to return (default 200).') }, { unknownParameters: 'ignored' }) }),
  get: documented({ params: RevisionParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  update: documented({ params: RevisionParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: RevisionPatch }),
  delete: documented({ params: RevisionParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
