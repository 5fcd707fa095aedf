// Documented requests of files.*: the writable fields of a File resource (domain/file-input.ts reads them; read-only
// fields a client sends back are ignored, hence additional properties) and each method's query parameters.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { MAX_DESCRIPTION, MAX_INDEXABLE_TEXT, MAX_TITLE } from '../../domain/file-input.ts';
import { ORDER_KEYS } from '../../domain/order-by.ts';
import { MODIFIED_DATE_BEHAVIORS } from '../../ops/files.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { ALL_DRIVES, FileParams, PAGE_TOKEN, flag, integer, oneOf, text } from './common.ts';
import { PropertyBody } from './properties.ts';

const dateTime = (description: string) => Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description }));

const Labels = Type.Object(
  {
    starred: Type.Optional(Type.Boolean({ description: 'Whether this file is starred by the user.' })),
    hidden: Type.Optional(Type.Boolean({ description: 'Deprecated.' })),
    restricted: Type.Optional(Type.Boolean({ description: 'Whether viewers and commenters are prevented from downloading, printing and copying the file.' })),
    trashed: Type.Optional(Type.Boolean({ description: 'Whether the file has been trashed.' })),
    viewed: Type.Optional(Type.Boolean({ description: 'Whether this file has been viewed by this user (read-only: checked, then ignored).' })),
  },
  { description: 'A group of labels for the file.' },
);

export const ParentReference = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 128, description: 'The ID of the parent folder (or `root`).' }) },
  { description: 'A reference to a parent folder.' },
);

/** The File resource of an insert, update, patch or copy body (or a multipart or resumable upload's metadata). */
export const FileBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 128, description: 'The ID of the file (one from files.generateIds, on insert).' })),
    title: Type.Optional(Type.String({ maxLength: MAX_TITLE, description: 'The title of the file.' })),
    mimeType: Type.Optional(Type.String({ maxLength: 255, description: 'The MIME type of the file; left out, it is derived from the uploaded content.' })),
    description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION, nullable: true, description: 'A short description of the file (null clears it).' })),
    labels: Type.Optional(Labels),
    parents: Type.Optional(Type.Array(ParentReference, { description: 'The parent folders; left out on insert, the file goes in the My Drive root.' })),
    properties: Type.Optional(Type.Array(PropertyBody, { description: 'Custom properties of the file.' })),
    modifiedDate: dateTime('Last time the file was modified by anyone (RFC 3339); written only with setModifiedDate or modifiedDateBehavior.'),
    lastViewedByMeDate: dateTime('Last time the file was viewed by the user (RFC 3339).'),
    writersCanShare: Type.Optional(Type.Boolean({ description: 'Whether writers can share the document with other users.' })),
    copyRequiresWriterPermission: Type.Optional(Type.Boolean({ description: 'Whether copying, printing and downloading are disabled for readers and commenters.' })),
    indexableText: Type.Optional(
      Type.Object({ text: Type.Optional(Type.String({ maxLength: MAX_INDEXABLE_TEXT, description: 'The text to be indexed for this file.' })) }, { description: 'Indexable text attributes of the file (write-only).' }),
    ),
    originalFilename: Type.Optional(Type.String({ maxLength: MAX_TITLE, description: 'The original filename of uploaded content.' })),
    folderColorRgb: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', maxLength: 7, description: 'Folder color as an RGB hex string (#rrggbb).' })),
    shortcutDetails: Type.Optional(
      Type.Object(
        { targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'The ID of the file this shortcut points to; set on insert only.' })) },
        { description: 'Shortcut file details (mimeType application/vnd.google-apps.shortcut); the target MIME type is output only.' },
      ),
    ),
  },
  { description: 'A File resource; read-only fields are ignored.' },
);

const PINNED = { pinned: flag('Whether to pin the head revision of the new or updated content.') };
export const CONVERT = { convert: flag('Whether to convert the uploaded content to the corresponding Docs Editors format.') };

/** Query parameters of an insert; an upload also takes `convert`. */
export const INSERT_QUERY = { ...ALL_DRIVES, ...PINNED };

/** Query parameters of update and patch (and of adding or removing a parent); an upload also takes `convert`. */
export const UPDATE_QUERY = {
  ...ALL_DRIVES,
  ...PINNED,
  addParents: text('Comma-separated list of parent IDs to add.'),
  removeParents: text('Comma-separated list of parent IDs to remove.'),
  newRevision: flag('Whether a blob upload should create a new revision (default true).'),
  modifiedDateBehavior: oneOf(MODIFIED_DATE_BEHAVIORS, 'Determines the behavior in which modifiedDate is updated.'),
  setModifiedDate: flag('Whether to set the modified date using the value supplied in the request body.'),
  updateViewedDate: flag("Whether to update the view date after successfully updating the file."),
};

const allDrivesOnly = documented({ params: FileParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }) });

export const FILE_SCHEMAS = {
  get: documented({
    params: FileParams,
    querystring: googleQuery({
      ...ALL_DRIVES,
      updateViewedDate: flag("Whether to update the view date after successfully retrieving the file."),
      revisionId: text('With alt=media: the revision whose content to download.'),
    }, { unknownParameters: 'ignored' }),
  }),
  insert: documented({ querystring: googleQuery(INSERT_QUERY, { unknownParameters: 'ignored' }), body: FileBody }),
  update: documented({ params: FileParams, querystring: googleQuery(UPDATE_QUERY, { unknownParameters: 'ignored' }), body: FileBody }),
  delete: allDrivesOnly,
  copy: documented({ params: FileParams, querystring: googleQuery({ ...ALL_DRIVES, ...PINNED }, { unknownParameters: 'ignored' }), body: FileBody }),
  trash: allDrivesOnly,
  touch: allDrivesOnly,
  emptyTrash: documented({ querystring: googleQuery({ driveId: text('The shared drive whose trash to empty (the caller must be an organizer); left out, My Drive.') }, { unknownParameters: 'ignored' }) }),
  generateIds: documented({
    querystring: googleQuery({
      maxResults: integer(1, 1000, 'Number of IDs to return (default 10).'),
      space: oneOf(['drive', 'appDataFolder'], 'The space in which the IDs can be used to create new files (default drive).'),
    }, { unknownParameters: 'ignored' }),
  }),
  list: documented({
    querystring: googleQuery({
      ...ALL_DRIVES,
      ...PAGE_TOKEN,
      maxResults: integer(0, 1000, 'Maximum number of files to return (0 or none: 100).'),
      q: text('Query string for searching files.'),
      orderBy: text(`Comma-separated list of sort keys, each optionally followed by desc: ${ORDER_KEYS.join(', ')}.`),
      corpora: oneOf(['user', 'drive', 'domain', 'allDrives', 'default'], 'Bodies of items (files or documents) to which the query applies.'),
      corpus: oneOf(['DEFAULT', 'DOMAIN'], 'Deprecated: the body of items to which the query applies.'),
      projection: oneOf(['BASIC', 'FULL'], 'Deprecated: accepted and ignored.'),
      spaces: text('Comma-separated list of spaces to query: drive, appDataFolder, photos.'),
      includeItemsFromAllDrives: flag('Whether both My Drive and shared drive items should be included in results.'),
      includeTeamDriveItems: flag('Deprecated: use includeItemsFromAllDrives.'),
      driveId: text('ID of the shared drive to search (with corpora=drive).'),
      teamDriveId: text('Deprecated: use driveId.'),
    }, { unknownParameters: 'ignored' }),
  }),
  export: documented({
    params: FileParams,
    querystring: googleQuery({ ...ALL_DRIVES, mimeType: Type.String({ description: 'The MIME type of the format requested for this export.' }) }, { unknownParameters: 'ignored' }),
  }),
  webContentLink: documented({
    querystring: googleQuery({
      id: Type.String({ description: 'The ID of the file to download.' }),
      revisionId: text('The revision whose content to download.'),
    }, { unknownParameters: 'ignored' }),
  }),
};
