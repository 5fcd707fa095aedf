// Documented requests of comments.* and replies.*: the words of a comment or reply, a comment's anchor and context,
// and a reply's verb.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { FILE_ID, FileParams, PAGE_TOKEN, flag, integer, oneOf, pathParams, text } from './common.ts';

/** The longest comment or reply, in characters. */
export const MAX_COMMENT = 32_768;

const content = (description: string) => Type.String({ maxLength: MAX_COMMENT, description });

const CommentInsert = Type.Object(
  {
    content: content('The plain text content used to create this comment (not blank).'),
    anchor: text('A region of the document represented as a JSON string.', 4096),
    context: Type.Optional(
      Type.Object(
        {
          type: text('The MIME type of the context snippet.'),
          value: text('Data representation of the segment of the file being commented on.'),
        },
        { description: 'The context of the file which is being commented on.' },
      ),
    ),
  },
  { description: 'A Comment; other fields are ignored.' },
);

/** update (PUT) needs the content; patch may change the status alone. */
const commentUpdate = (contentRequired: boolean) =>
  Type.Object(
    {
      content: contentRequired ? content('The new content of the comment.') : Type.Optional(content('The new content of the comment.')),
      status: oneOf(['open', 'resolved'], 'The status of this comment.'),
    },
    { description: 'The fields of a Comment to change; other fields are ignored.' },
  );

const ReplyInsert = Type.Object(
  {
    content: Type.Optional(content('The plain text content of the reply; required unless a verb is given.')),
    verb: oneOf(['resolve', 'reopen'], 'The action this reply performs on its comment.'),
  },
  { description: 'A CommentReply; other fields are ignored.' },
);

const replyUpdate = (contentRequired: boolean) =>
  Type.Object(
    { content: contentRequired ? content('The new content of the reply.') : Type.Optional(content('The new content of the reply.')) },
    { description: 'The fields of a CommentReply to change; other fields are ignored.' },
  );

const COMMENT_ID = { ...FILE_ID, commentId: 'The ID of the comment.' };
const CommentParams = pathParams(COMMENT_ID);
const ReplyParams = pathParams({ ...COMMENT_ID, replyId: 'The ID of the reply.' });
const INCLUDE_DELETED = { includeDeleted: flag('Whether deleted comments or replies are included (their content blank).') };
const listQuery = (extra = {}) =>
  googleQuery({ ...PAGE_TOKEN, ...INCLUDE_DELETED, maxResults: integer(0, 100, 'Maximum number of items to return (0 or none: 20).'), ...extra }, { unknownParameters: 'ignored' });

export const COMMENT_SCHEMAS = {
  list: documented({
    params: FileParams,
    querystring: listQuery({ updatedMin: Type.Optional(Type.String({ format: 'date-time', description: 'Only comments modified after this time (RFC 3339).' })) }),
  }),
  get: documented({ params: CommentParams, querystring: googleQuery(INCLUDE_DELETED, { unknownParameters: 'ignored' }) }),
  insert: documented({ params: FileParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: CommentInsert }),
  update: documented({ params: CommentParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: commentUpdate(true) }),
  patch: documented({ params: CommentParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: commentUpdate(false) }),
  delete: documented({ params: CommentParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  listReplies: documented({ params: CommentParams, querystring: listQuery() }),
  getReply: documented({ params: ReplyParams, querystring: googleQuery(INCLUDE_DELETED, { unknownParameters: 'ignored' }) }),
  insertReply: documented({ params: CommentParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: ReplyInsert }),
  updateReply: documented({ params: ReplyParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: replyUpdate(true) }),
  patchReply: documented({ params: ReplyParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: replyUpdate(false) }),
  deleteReply: documented({ params: ReplyParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
