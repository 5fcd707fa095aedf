// Documented requests of the upload paths: media and multipart uploads and resumable sessions. Only a resumable
// session's opening request has a JSON body (the File metadata); media bodies and multipart/related bodies (a JSON
// metadata part, then the media) are bytes and stay undescribed.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { FileParams, oneOf } from './common.ts';
import { CONVERT, FileBody, INSERT_QUERY, UPDATE_QUERY } from './files.ts';

const UPLOAD_TYPE = {
  uploadType: oneOf(['media', 'multipart', 'resumable'], 'The upload protocol (default: multipart for a multipart/related body, else media).'),
};
const UPLOAD_ID = (required: boolean) => {
  const id = Type.String({ minLength: 1, description: 'The resumable session a chunk belongs to.' });
  return { upload_id: required ? id : Type.Optional(id) };
};

/** The metadata of a resumable session, when the body is JSON. */
const SessionMetadata = { content: { 'application/json': { schema: FileBody } } };

export const UPLOAD_SCHEMAS = {
  insert: documented({ querystring: googleQuery({ ...INSERT_QUERY, ...CONVERT, ...UPLOAD_TYPE }, { unknownParameters: 'ignored' }), body: SessionMetadata }),
  insertChunk: documented({ querystring: googleQuery(UPLOAD_ID(true), { unknownParameters: 'ignored' }) }),
  update: documented({ params: FileParams, querystring: googleQuery({ ...UPDATE_QUERY, ...CONVERT, ...UPLOAD_TYPE, ...UPLOAD_ID(false) }, { unknownParameters: 'ignored' }), body: SessionMetadata }),
};

