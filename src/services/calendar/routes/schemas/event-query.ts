// The documented query parameters of the event methods, as domain/params.ts and the reader parse them.
import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/event.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { flag, maxResults, pageToken, syncToken } from './common.ts';

const instant = (description: string) => Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description: `${description} An RFC 3339 timestamp with a time zone offset.` }));

const timeZone = Type.Optional(Type.String({ maxLength: 128, description: 'IANA time zone used in the response (default: the time zone of the calendar).' }));
const maxAttendees = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'The maximum number of attendees to include in the response; the rest are omitted.' }));

/** Parameters of the methods that write an event (insert, update, patch, delete, move, import, quickAdd). */
const WRITE = {
  sendUpdates: Type.Optional(stringEnum(['all', 'externalOnly', 'none'], { description: 'Guests who should receive notifications about the change.' })),
  sendNotifications: flag('Deprecated: use sendUpdates. true stands for sendUpdates=all.'),
  conferenceDataVersion: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, default: 0, description: 'Version number of conference data supported by the client; 1 reads conferenceData from the body.' })),
  supportsAttachments: flag('Whether the client supports event attachments (the body attachments are read only then).'),
  maxAttendees,
};

export const EventWriteQuery = googleQuery(WRITE, { unknownParameters: 'ignored' });

export const QuickAddQuery = googleQuery({
  ...WRITE,
  text: Type.String({ minLength: 1, maxLength: 1024, description: 'The text describing the event to be created.' }),
}, { unknownParameters: 'ignored' });

export const MoveQuery = googleQuery({
  ...WRITE,
  destination: Type.String({ minLength: 1, maxLength: 1024, description: 'Calendar identifier of the calendar the event is moved to.' }),
}, { unknownParameters: 'ignored' });

export const EventGetQuery = googleQuery({ timeZone, maxAttendees, alwaysIncludeEmail: flag('Deprecated and ignored.') }, { unknownParameters: 'ignored' });

const extendedProperty = (scope: string) =>
  Type.Optional(Type.Array(Type.String({ pattern: '^[^=]+=' }), { description: `${scope} extended property constraints, each propertyName=value; all must match.` }));

/** events.list and events.watch (which takes the same parameters). */
export const EventListQuery = googleQuery({
  maxResults: maxResults(250, 2500),
  pageToken,
  syncToken: { ...syncToken, description: `${syncToken.description} Cannot be combined with iCalUID, orderBy, q, timeMin, timeMax, updatedMin, the extended property filters or showDeleted=false.` },
  timeMin: instant('Lower bound (exclusive) for an event\u2019s end time to filter by.'),
  timeMax: instant('Upper bound (exclusive) for an event\u2019s start time to filter by; must be after timeMin.'),
  updatedMin: instant('Lower bound for an event\u2019s last modification time to filter by.'),
  singleEvents: flag('Whether to expand recurring events into instances and only return single one-off events and instances.'),
  orderBy: Type.Optional(stringEnum(['startTime', 'updated'], { description: 'The order of the events returned; startTime only with singleEvents=true.' })),
  showDeleted: flag('Whether to include deleted events (with status "cancelled") in the result.'),
  showHiddenInvitations: flag('Whether to include hidden invitations in the result.'),
  iCalUID: Type.Optional(Type.String({ maxLength: 1024, description: 'Specifies an event ID in the iCalendar format to be provided in the response.' })),
  q: Type.Optional(Type.String({ maxLength: 1024, description: 'Free text search terms to find events that match them.' })),
  timeZone,
  eventTypes: Type.Optional(Type.Array(stringEnum(EVENT_TYPES), { description: 'Event types to return (repeat the parameter for several).' })),
  privateExtendedProperty: extendedProperty('Private'),
  sharedExtendedProperty: extendedProperty('Shared'),
  maxAttendees,
  alwaysIncludeEmail: flag('Deprecated and ignored.'),
}, { unknownParameters: 'ignored' });

export const InstancesQuery = googleQuery({
  maxResults: maxResults(250, 2500),
  pageToken,
  timeMin: instant('Lower bound (exclusive) for an instance\u2019s end time.'),
  timeMax: instant('Upper bound (exclusive) for an instance\u2019s start time.'),
  originalStart: instant('The original start time of the instance in the result.'),
  showDeleted: flag('Whether to include deleted instances (with status "cancelled") in the result.'),
  timeZone,
  maxAttendees,
  alwaysIncludeEmail: flag('Deprecated and ignored.'),
}, { unknownParameters: 'ignored' });
