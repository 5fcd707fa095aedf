// Documented requests of changes.*, the watch methods (a Channel body, shared with Calendar), channels.stop and about.get.
import { Type } from '@sinclair/typebox';
import { StopChannelBody, WatchChannelBody } from '../../../../core/google/watch-channel-schema.ts';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { ALL_DRIVES, FileParams, flag, integer, pathParams, text } from './common.ts';

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

export const CHANGE_SCHEMAS = {
  startPageToken: documented({ querystring: googleQuery(DRIVE_FEED, { unknownParameters: 'ignored' }) }),
  list: documented({ querystring: googleQuery(LIST_QUERY, { unknownParameters: 'ignored' }) }),
  get: documented({ params: pathParams({ changeId: 'The ID of the change.' }), querystring: googleQuery(DRIVE_FEED, { unknownParameters: 'ignored' }) }),
  watch: documented({ querystring: googleQuery({ ...DRIVE_FEED, pageToken: text('The change list token the notified resource URI names.') }, { unknownParameters: 'ignored' }), body: WatchChannelBody }),
  watchFile: documented({ params: FileParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }), body: WatchChannelBody }),
  stopChannel: documented({ querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: StopChannelBody }),
  about: documented({ querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
