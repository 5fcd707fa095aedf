// The documented Calendar (calendars.insert/update/patch), calendarList entry and ACL rule resources, and the
// calendar list's parameters, as calendars.ts, domain/list-entry.ts and calendar-list.ts read them.
import { Type } from '@sinclair/typebox';
import { CALENDAR_COLORS } from '../../domain/colors.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { ReminderList } from './event.ts';
import { flag, maxResults, pageToken, readOnly, syncToken } from './common.ts';

const closed = { additionalProperties: false } as const;

export const Calendar = Type.Object(
  {
    summary: Type.Optional(Type.String({ maxLength: 1024, description: 'Title of the calendar; required (non-empty) by insert and update.' })),
    description: Type.Optional(Type.String({ maxLength: 8192, description: 'Description of the calendar.' })),
    location: Type.Optional(Type.String({ maxLength: 1024, description: 'Geographic location of the calendar as free-form text.' })),
    timeZone: Type.Optional(Type.String({ maxLength: 128, description: 'The time zone of the calendar (an IANA time zone name, e.g. "Europe/Zurich").' })),
    kind: readOnly('Type of the resource ("calendar#calendar").'),
    etag: readOnly('ETag of the resource.'),
    id: readOnly('Identifier of the calendar.'),
    conferenceProperties: readOnly('Conferencing properties for this calendar.'),
  },
  { ...closed, description: 'A calendar. A null description or location clears it.' },
);

const NOTIFICATION_TYPES = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse', 'agenda'];
const hexColor = (description: string) => Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', maxLength: 7, description: `${description} (#rrggbb); written only with colorRgbFormat=true.` }));

export const CalendarListEntry = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Identifier of the calendar; required by calendarList.insert.' })),
    summaryOverride: Type.Optional(Type.String({ maxLength: 1024, description: 'The summary that the authenticated user has set for this calendar.' })),
    colorId: Type.Optional(stringEnum(Object.keys(CALENDAR_COLORS), { description: 'The color of the calendar: an entry in the calendar section of the colors definition.' })),
    backgroundColor: hexColor('The main color of the calendar'),
    foregroundColor: hexColor('The foreground color of the calendar'),
    hidden: flag('Whether the calendar has been hidden from the list.'),
    selected: flag('Whether the calendar content shows up in the calendar UI.'),
    defaultReminders: Type.Optional(ReminderList('The default reminders that the authenticated user has for this calendar.')),
    notificationSettings: Type.Optional(
      Type.Object(
        {
          notifications: Type.Optional(
            Type.Array(
              Type.Object({ type: stringEnum(NOTIFICATION_TYPES, { description: 'The type of notification; each at most once.' }), method: stringEnum(['email'], { description: 'The method used to deliver the notification.' }) }, closed),
              { maxItems: NOTIFICATION_TYPES.length, description: 'The list of notifications set for this calendar.' },
            ),
          ),
        },
        { ...closed, description: 'The notifications that the authenticated user is receiving for this calendar.' },
      ),
    ),
    ...Object.fromEntries(
      ['kind', 'etag', 'summary', 'description', 'location', 'timeZone', 'accessRole', 'primary', 'deleted', 'conferenceProperties', 'dataOwner'].map((k) => [k, readOnly(`The entry's ${k}.`)]),
    ),
  },
  { ...closed, description: 'An entry of the user\u2019s calendar list. A null field clears it.' },
);

export const CalendarListWriteQuery = googleQuery({
  colorRgbFormat: flag('Whether to use the backgroundColor and foregroundColor fields to write the calendar colors (RGB).'),
}, { unknownParameters: 'ignored' });

export const CalendarListQuery = googleQuery({
  maxResults: maxResults(100, 250),
  pageToken,
  minAccessRole: Type.Optional(stringEnum(['freeBusyReader', 'reader', 'writer', 'owner'], { description: 'The minimum access role for the user in the returned entries.' })),
  showHidden: flag('Whether to show hidden entries.'),
  showDeleted: flag('Whether to include deleted calendar list entries in the result.'),
  syncToken: { ...syncToken, description: `${syncToken.description} Deleted and hidden entries are always included; cannot be combined with minAccessRole, showDeleted=false or showHidden=false.` },
}, { unknownParameters: 'ignored' });

export const AclListQuery = googleQuery({
  maxResults: maxResults(100, 250),
  pageToken,
  showDeleted: flag('Whether to include deleted rules (role "none") in the result.'),
  syncToken: { ...syncToken, description: `${syncToken.description} Deleted rules (role "none") are always included; cannot be combined with showDeleted=false.` },
}, { unknownParameters: 'ignored' });

export const AclRule = Type.Object(
  {
    scope: Type.Optional(
      Type.Object(
        {
          type: stringEnum(['default', 'user', 'domain'], { description: 'The type of the scope: default (every user), user or domain; group is not supported.' }),
          value: Type.Optional(
            Type.String({ maxLength: 254, description: 'The email address of a user or the name of a domain; omitted for type default; cannot change on update.' }),
          ),
        },
        { ...closed, description: 'The extent to which calendar access is granted by this ACL rule; required by acl.insert.' },
      ),
    ),
    role: Type.Optional(stringEnum(['none', 'freeBusyReader', 'reader', 'writer', 'owner'], { description: 'The role assigned to the scope; required by insert and update.' })),
    kind: readOnly('Type of the resource ("calendar#aclRule").'),
    etag: readOnly('ETag of the resource.'),
    id: readOnly('Identifier of the ACL rule.'),
  },
  closed,
);
