// The documented Event resource (events.insert/update/patch/import) and the sub-shapes it is made of, as the event
// reader (domain/input.ts) accepts them: unknown fields are refused, read-only ones accepted and ignored, and the
// bounds are the reader's own. Descriptions follow the Calendar API v3 reference.
import { Type } from '@sinclair/typebox';
import { EVENT_COLOR_IDS } from '../../domain/colors.ts';
import { EVENT_TYPES } from '../../domain/event.ts';
import { EVENT_ID } from '../../domain/ids.ts';
import { AUTO_DECLINE, LIMITS, RESPONSES } from '../../domain/input.ts';
import { MAX_LINE, MAX_LINES } from '../../domain/recurrence.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { readOnly } from './common.ts';

const closed = { additionalProperties: false } as const;
const text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));
const url = (description: string) => Type.String({ format: 'uri', maxLength: 2048, description: `${description} (http or https).` });
const email = (description: string) => Type.String({ format: 'email', maxLength: 254, description });

/** Start, end or original start of an event: `date` for an all-day event, else `dateTime`. */
export const EventDateTime = Type.Object(
  {
    date: Type.Optional(Type.String({ format: 'date', description: 'The date, in the format "yyyy-mm-dd", if this is an all-day event.' })),
    dateTime: Type.Optional(
      Type.String({ description: 'The time, as a combined date-time value (RFC 3339). A time zone offset is required unless timeZone is given.' }),
    ),
    timeZone: Type.Optional(Type.String({ maxLength: 128, description: 'The IANA time zone in which the time is specified (e.g. "Europe/Zurich").' })),
  },
  { ...closed, description: 'Either date or dateTime is set, not both.' },
);

/** One reminder: how and how long before the event. Shared by events and calendar list entries. */
export const Reminder = Type.Object(
  {
    method: stringEnum(['email', 'popup'], { description: 'The method used by this reminder.' }),
    minutes: Type.Integer({ minimum: 0, maximum: LIMITS.reminderMinutes, description: 'Number of minutes before the start of the event when the reminder should trigger.' }),
  },
  closed,
);

export const ReminderList = (description: string) => Type.Array(Reminder, { maxItems: LIMITS.overrides, description });

const Attendee = Type.Object(
  {
    email: email("The attendee's email address (RFC 5322); unique among the event's attendees."),
    displayName: text(LIMITS.label, "The attendee's name, if available."),
    responseStatus: Type.Optional(stringEnum(RESPONSES, { default: 'needsAction', description: "The attendee's response status." })),
    comment: text(LIMITS.text, "The attendee's response comment."),
    optional: Type.Optional(Type.Boolean({ description: 'Whether this is an optional attendee.' })),
    resource: Type.Optional(Type.Boolean({ description: 'Whether the attendee is a resource.' })),
    additionalGuests: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Number of additional guests.' })),
    id: readOnly("The attendee's profile id."),
    organizer: readOnly('Whether the attendee is the organizer.'),
    self: readOnly('Whether this entry represents the calendar on which this copy of the event appears.'),
  },
  closed,
);

const propertyMap = (description: string) =>
  Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: LIMITS.propertyKey }), Type.String({ maxLength: LIMITS.propertyValue }), { description }));

const ExtendedProperties = Type.Object(
  {
    private: propertyMap('Properties that are private to the copy of the event that appears on this calendar.'),
    shared: propertyMap("Properties that are shared between copies of the event on other attendees' calendars."),
  },
  { ...closed, description: `Extended properties of the event: at most ${LIMITS.properties} in all.` },
);

const Attachment = Type.Object(
  {
    fileUrl: url('URL link to the attachment'),
    title: text(LIMITS.text, 'Attachment title.'),
    mimeType: text(255, 'Internet media type (MIME type) of the attachment.'),
    iconLink: Type.Optional(url("URL link to the attachment's icon")),
    fileId: readOnly('ID of the attached file.'),
  },
  closed,
);

const SolutionKey = Type.Object({ type: Type.String({ maxLength: 64, description: 'The conference solution type (hangoutsMeet, confMeet or addOn to create one).' }) }, closed);

const EntryPoint = Type.Object(
  {
    entryPointType: stringEnum(['video', 'phone', 'sip', 'more'], { description: 'The type of the conference entry point.' }),
    uri: Type.String({ maxLength: 1300, description: 'The URI of the entry point: http(s) for video and more, tel: for phone, sip: for sip.' }),
    label: text(512, 'The label for the URI, visible to end users.'),
    meetingCode: text(128, 'The meeting code to access the conference.'),
    accessCode: text(128, 'The access code to access the conference.'),
    passcode: text(128, 'The passcode to access the conference.'),
    password: text(128, 'The password to access the conference.'),
    pin: text(128, 'The PIN to access the conference.'),
    regionCode: text(8, 'The CLDR/ISO 3166 region code for the country associated with this phone access.'),
    entryPointFeatures: readOnly('Features of the entry point.'),
  },
  closed,
);

const ConferenceData = Type.Object(
  {
    createRequest: Type.Optional(
      Type.Object(
        {
          requestId: Type.String({ minLength: 1, maxLength: 1024, description: 'The client-generated unique ID for this request.' }),
          conferenceSolutionKey: SolutionKey,
          status: readOnly('The status of the conference create request.'),
        },
        { ...closed, description: 'A request to generate a new conference and attach it to the event (generated asynchronously).' },
      ),
    ),
    conferenceSolution: Type.Optional(
      Type.Object(
        {
          key: SolutionKey,
          name: text(512, 'The user-visible name of this solution.'),
          iconUri: Type.Optional(Type.String({ format: 'uri', maxLength: 1300, description: "The user-visible icon for this solution (http or https)." })),
        },
        { ...closed, description: 'The conference solution, required with entryPoints when no createRequest is given.' },
      ),
    ),
    entryPoints: Type.Optional(Type.Array(EntryPoint, { minItems: 1, maxItems: 100, description: 'Information about individual conference entry points; at most one of each type but phone.' })),
    conferenceId: text(1024, 'The ID of the conference.'),
    signature: text(2048, 'The signature of the conference data.'),
    notes: text(2048, 'Additional notes (such as instructions from the domain administrator) to display to the user.'),
    parameters: Type.Optional(Type.Object({}, { description: 'Additional properties related to a conference solution.' })),
  },
  { ...closed, description: 'Read only with the conferenceDataVersion=1 parameter; ignored otherwise.' },
);

const declineProperties = (chat: boolean, description: string) =>
  Type.Object(
    {
      autoDeclineMode: Type.Optional(stringEnum(AUTO_DECLINE, { description: 'Whether to decline meeting invitations which overlap the event.' })),
      declineMessage: text(LIMITS.text, 'Response message to set if an existing event or new invitation is automatically declined.'),
      ...(chat ? { chatStatus: Type.Optional(stringEnum(['available', 'doNotDisturb'], { description: 'The status to mark the user in Chat and related products.' })) } : {}),
    },
    { ...closed, description },
  );

const label = (description: string) => text(LIMITS.label, description);

const WorkingLocation = Type.Object(
  {
    type: stringEnum(['homeOffice', 'officeLocation', 'customLocation'], { description: 'Type of the working location.' }),
    homeOffice: Type.Optional(Type.Unknown({ description: 'If present, specifies that the user is working at home.' })),
    customLocation: Type.Optional(Type.Object({ label: label('An optional extra label for additional information.') }, closed)),
    officeLocation: Type.Optional(
      Type.Object(
        {
          buildingId: label('An optional building identifier.'),
          floorId: label('An optional floor identifier.'),
          floorSectionId: label('An optional floor section identifier.'),
          deskId: label('An optional desk identifier.'),
          label: label('The office name that is displayed in Calendar clients.'),
        },
        closed,
      ),
    ),
  },
  { ...closed, description: 'Working location event data; used if eventType is workingLocation.' },
);

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const Event = Type.Object(
  {
    id: Type.Optional(Type.String({ pattern: EVENT_ID.source, description: 'Opaque identifier of the event: 5 to 1024 characters of base32hex (a-v, 0-9). Generated when not given.' })),
    iCalUID: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Event unique identifier as defined in RFC 5545; required by events.import.' })),
    status: Type.Optional(stringEnum(['confirmed', 'tentative', 'cancelled'], { description: 'Status of the event.' })),
    summary: text(LIMITS.summary, 'Title of the event.'),
    description: text(LIMITS.description, 'Description of the event. Can contain HTML.'),
    location: text(LIMITS.location, 'Geographic location of the event as free-form text.'),
    colorId: Type.Optional(stringEnum(EVENT_COLOR_IDS, { description: 'The color of the event: an entry in the event section of the colors definition.' })),
    start: Type.Optional({ ...EventDateTime, description: 'The (inclusive) start time of the event; required by insert, update and import.' }),
    end: Type.Optional({ ...EventDateTime, description: 'The (exclusive) end time of the event; required by insert, update and import.' }),
    originalStartTime: Type.Optional({ ...EventDateTime, description: 'For an instance of a recurring event, the time at which it would start according to the recurrence.' }),
    recurringEventId: text(1100, 'For an instance of a recurring event, the id of the recurring event to which it belongs.'),
    recurrence: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_LINE }), { maxItems: MAX_LINES, description: 'List of RRULE, EXRULE, RDATE and EXDATE lines for a recurring event, as specified in RFC 5545.' }),
    ),
    transparency: Type.Optional(stringEnum(['opaque', 'transparent'], { description: 'Whether the event blocks time on the calendar.' })),
    visibility: Type.Optional(stringEnum(['default', 'public', 'private', 'confidential'], { description: 'Visibility of the event.' })),
    sequence: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Sequence number as per iCalendar.' })),
    attendees: Type.Optional(Type.Array(Attendee, { maxItems: LIMITS.attendees, description: 'The attendees of the event.' })),
    attendeesOmitted: flag("Whether attendees may have been omitted from the event's representation."),
    extendedProperties: Type.Optional(ExtendedProperties),
    anyoneCanAddSelf: flag('Whether anyone can invite themselves to the event (deprecated).'),
    guestsCanInviteOthers: flag('Whether attendees other than the organizer can invite others to the event.'),
    guestsCanModify: flag('Whether attendees other than the organizer can modify the event.'),
    guestsCanSeeOtherGuests: flag("Whether attendees other than the organizer can see who the event's attendees are."),
    reminders: Type.Optional(
      Type.Object(
        {
          useDefault: Type.Boolean({ description: "Whether the default reminders of the calendar apply to the event." }),
          overrides: Type.Optional(ReminderList('Reminders specific to the event; only when useDefault is false.')),
        },
        { ...closed, description: "Information about the event's reminders for the authenticated user." },
      ),
    ),
    source: Type.Optional(
      Type.Object(
        { url: url('URL of the source pointing to a resource'), title: text(LIMITS.text, 'Title of the source; for example a title of a web page or an email subject.') },
        { ...closed, description: 'Source from which the event was created.' },
      ),
    ),
    organizer: Type.Optional(
      Type.Object(
        {
          email: Type.Optional(email("The organizer's email address; read by events.import only.")),
          displayName: label("The organizer's name; read by events.import only."),
          id: readOnly("The organizer's profile id."),
          self: readOnly('Whether the organizer corresponds to the calendar on which this copy of the event appears.'),
        },
        { ...closed, description: 'The organizer of the event. Read-only, except when importing an event.' },
      ),
    ),
    eventType: Type.Optional(stringEnum(EVENT_TYPES, { maxLength: 32, description: 'Specific type of the event.' })),
    focusTimeProperties: Type.Optional(declineProperties(true, 'Focus Time event data; used if eventType is focusTime.')),
    outOfOfficeProperties: Type.Optional(declineProperties(false, 'Out of office event data; used if eventType is outOfOffice.')),
    workingLocationProperties: Type.Optional(WorkingLocation),
    birthdayProperties: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(stringEnum(['anniversary', 'birthday', 'custom', 'other', 'self'], { default: 'birthday', description: 'Type of birthday or special event.' })),
          contact: readOnly('Resource name of the contact this birthday event is linked to.'),
          customTypeName: readOnly('Custom type label specified for this event.'),
        },
        { ...closed, description: 'Birthday or special event data; used if eventType is birthday.' },
      ),
    ),
    attachments: Type.Optional(Type.Array(Attachment, { maxItems: LIMITS.attachments, description: 'File attachments for the event; read only with supportsAttachments=true.' })),
    conferenceData: Type.Optional(ConferenceData),
    kind: readOnly('Type of the resource ("calendar#event").'),
    etag: readOnly('ETag of the resource.'),
    htmlLink: readOnly('An absolute link to this event in the Calendar web UI.'),
    created: readOnly('Creation time of the event.'),
    updated: readOnly('Last modification time of the event.'),
    creator: readOnly('The creator of the event.'),
    endTimeUnspecified: readOnly('Whether the end time is actually unspecified.'),
    hangoutLink: readOnly('An absolute link to the Hangout associated with this event.'),
    locked: readOnly('Whether this is a locked event copy.'),
    privateCopy: readOnly('Whether event propagation is disabled.'),
    gadget: readOnly('A gadget that extends this event (deprecated).'),
  },
  { ...closed, description: 'An event. A null field counts as absent (in a patch it clears the field).' },
);
