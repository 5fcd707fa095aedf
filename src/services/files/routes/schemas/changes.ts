// Documented requests of changes.*, the watch methods (a Channel body), channels.stop and about.get.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { ALL_DRIVES, FileParams, driveQuery, flag, integer, oneOf, pathParams, text } from './common.ts';

/** A change-id token: a positive decimal number. */
const changeToken = (description: string) => Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description }));

const DRIVE_FEED = {
  driveId: text("The shared drive whose changes to read; left out, the user's own."),
  teamDriveId: text('Deprecated: use driveId.'),
};

const LIST_QUERY = {
  ...DRIVE_FEED,
  ...ALL_DRIVES,
  pageToken: changeToken('The token for continuing a previous list request (startPageToken or nextPageToken).'),
  startChangeId: changeToken('Deprecated: the change ID to start listing from.'),
  maxResults: integer(1, 1000, 'Maximum number of changes to return (default 100).'),
  includeDeleted: flag('Whether to include changes of removed items (default true).'),
  includeItemsFromAllDrives: flag('Whether both My Drive and shared drive items should be included in results.'),
  includeTeamDriveItems: flag('Deprecated: use includeItemsFromAllDrives.'),
};

/** A notification channel (watch request). Checked by the shared channel registry; other fields are ignored. */
export const ChannelBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9\\-_+/=]+$', description: 'A UUID or similar unique string that identifies this channel.' }),
    type: oneOf(['web_hook', 'webhook'], 'The type of delivery mechanism used for this channel.'),
    address: Type.String({ format: 'uri', description: 'The http(s) address where notifications are delivered.' }),
    token: text('An arbitrary string delivered to the target address with each notification.', 256),
    expiration: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,16}$' })], { description: 'When the channel should expire, in milliseconds since the epoch.' }),
    ),
    params: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Additional parameters controlling delivery channel behavior.' })),
  },
  { description: 'A notification channel.' },
);

const ChannelStop = Type.Object(
  {
    id: Type.String({ description: 'The ID of the channel to stop.' }),
    resourceId: Type.String({ description: 'The resource ID the watch answer gave.' }),
  },
  { description: 'The channel to stop; other fields are ignored.' },
);

export const CHANGE_SCHEMAS = {
  startPageToken: documented({ querystring: driveQuery(DRIVE_FEED) }),
  list: documented({ querystring: driveQuery(LIST_QUERY) }),
  get: documented({ params: pathParams({ changeId: 'The ID of the change.' }), querystring: driveQuery(DRIVE_FEED) }),
  watch: documented({ querystring: driveQuery({ ...DRIVE_FEED, pageToken: text('The change list token the notified resource URI names.') }), body: ChannelBody }),
  watchFile: documented({ params: FileParams, querystring: driveQuery(ALL_DRIVES), body: ChannelBody }),
  stopChannel: documented({ querystring: driveQuery(), body: ChannelStop }),
  about: documented({ querystring: driveQuery() }),
};
