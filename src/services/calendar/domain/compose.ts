// Builds the stored event from the fields a request carried: insert, import and update (a patch is an update of the
// stored writable fields merged with the body). Sequence, `updated`, typed-event rules and conference requests are
// decided here.
import type { ConferenceData } from './conference.ts';
import { badRequest, requiredField } from './errors.ts';
import { stableJson, type EventDoc, type EventType, type Person } from './event.ts';
import { applyTypeRules, checkCreatableType } from './event-types.ts';
import { icalUidOf } from './ids.ts';
import type { EventFields } from './input.ts';
import { Series } from './recurrence.ts';
import { checkSpan } from './times.ts';

export interface ComposeContext {
  mode: 'insert' | 'import' | 'update';
  now: number;
  calendarZone: string;
  isPrimary: boolean;
  /** Organizer of a new event: the calendar (its id as e-mail). */
  organizer: Person;
  creator: Person;
  newId: () => string;
  conferenceDataVersion: number;
  supportsAttachments: boolean;
}

export interface Composed {
  doc: EventDoc;
  /** A change of time, place, recurrence or status: raises `sequence`. */
  significant: boolean;
  /** A create request that must be generated. */
  conferenceRequested: boolean;
}

const SIGNIFICANT: Array<keyof EventDoc> = ['start', 'end', 'recurrence', 'location', 'status'];
const iso = (ms: number) => new Date(ms).toISOString();

export function composeEvent(previous: EventDoc | undefined, f: EventFields, c: ComposeContext): Composed {
  if (c.mode === 'insert' && f.id !== undefined && f.iCalUID !== undefined) {
    throw badRequest('Do not supply both id and iCalUID when creating an event.', 'iCalUID');
  }
  if (c.mode === 'import' && f.iCalUID === undefined) throw requiredField('Missing iCalUID: it is required to import an event.', 'iCalUID');
  if (f.start === undefined) throw requiredField('Missing start time.', 'start');
  if (f.end === undefined) throw requiredField('Missing end time.', 'end');
  checkSpan(f.start, f.end, c.calendarZone);

  let eventType: EventType;
  if (previous) {
    if (f.eventType !== undefined && f.eventType !== previous.eventType) throw badRequest('The event type cannot be changed.', 'eventType', 'eventTypeRestriction');
    eventType = previous.eventType;
  } else {
    checkCreatableType(f.eventType ?? 'default', c.mode === 'import');
    eventType = (f.eventType ?? 'default') as EventType;
  }

  if (f.recurrence && f.recurrence.length > 0) {
    if (previous?.recurringEventId) throw badRequest('An instance of a recurring event cannot itself recur.', 'recurrence');
    if (f.start.dateTime !== undefined && f.start.timeZone === undefined) {
      throw badRequest('Missing time zone definition for start time.', 'start.timeZone');
    }
    new Series(f.recurrence, f.start, f.end, c.calendarZone);
  }

  const id = previous?.id ?? f.id ?? c.newId();
  const doc: EventDoc = {
    id,
    status: f.status ?? 'confirmed',
    created: previous?.created ?? iso(c.now),
    updated: iso(c.now),
    creator: previous?.creator ?? c.creator,
    organizer: previous?.organizer ?? (c.mode === 'import' && f.organizer ? f.organizer : c.organizer),
    start: f.start,
    end: f.end,
    iCalUID: previous?.iCalUID ?? f.iCalUID ?? icalUidOf(id),
    sequence: previous?.sequence ?? 0,
    reminders: f.reminders ?? { useDefault: true },
    eventType,
  };
  const copy = ['summary', 'description', 'location', 'colorId', 'transparency', 'visibility', 'attendees', 'extendedProperties',
    'anyoneCanAddSelf', 'guestsCanInviteOthers', 'guestsCanModify', 'guestsCanSeeOtherGuests', 'source', 'workingLocationProperties',
    'outOfOfficeProperties', 'focusTimeProperties', 'birthdayProperties'] as const;
  const target = doc as unknown as Record<string, unknown>;
  for (const k of copy) if (f[k] !== undefined) target[k] = f[k];
  if (f.recurrence && f.recurrence.length > 0) doc.recurrence = f.recurrence;
  for (const k of ['recurringEventId', 'originalStartTime', 'privateCopy', 'locked', 'hangoutLink', 'gadget'] as const) {
    if (previous?.[k] !== undefined) target[k] = previous[k];
  }
  if (doc.attendees) markOrganizer(doc, previous);
  doc.attachments = c.supportsAttachments ? f.attachments : previous?.attachments;
  if (doc.attachments === undefined) delete doc.attachments;

  let conferenceRequested = false;
  const conference = pickConference(previous?.conferenceData, f.conferenceData, c.conferenceDataVersion);
  if (conference.data) doc.conferenceData = conference.data;
  else delete doc.hangoutLink;
  conferenceRequested = conference.requested;

  applyTypeRules(doc, c.isPrimary, previous?.eventType === 'birthday' ? previous : undefined);

  let significant = false;
  if (previous) {
    significant = SIGNIFICANT.some((k) => stableJson(previous[k]) !== stableJson(doc[k]));
    if (f.sequence !== undefined && f.sequence < previous.sequence) {
      throw badRequest('Invalid sequence value. The specified sequence number is below the current sequence number of the resource.', 'sequence');
    }
    doc.sequence = f.sequence !== undefined && f.sequence > previous.sequence ? f.sequence : previous.sequence + (significant ? 1 : 0);
    // Changing only reminders does not move `updated` (spec C4).
    if (onlyRemindersDiffer(previous, doc)) doc.updated = previous.updated;
  } else if (f.sequence !== undefined) doc.sequence = f.sequence;
  return { doc, significant, conferenceRequested };
}

/** The organizer's own attendee entry is flagged; a known attendee keeps the response they gave unless it is rewritten. */
function markOrganizer(doc: EventDoc, previous?: EventDoc): void {
  const before = new Map((previous?.attendees ?? []).map((a) => [a.email.toLowerCase(), a]));
  doc.attendees = doc.attendees!.map((a) => {
    const out = { ...a };
    const old = before.get(a.email.toLowerCase());
    if (old && a.responseStatus === 'needsAction' && old.responseStatus !== 'needsAction') out.responseStatus = old.responseStatus;
    if (a.email.toLowerCase() === doc.organizer.email.toLowerCase()) out.organizer = true;
    else delete out.organizer;
    delete out.self;
    return out;
  });
}

function pickConference(previous: ConferenceData | undefined, given: ConferenceData | undefined, version: number): { data?: ConferenceData; requested: boolean } {
  // Without conferenceDataVersion=1 the stored conference stays as it is.
  if (version < 1 || given === undefined) return { data: version < 1 ? previous : undefined, requested: false };
  const request = given.createRequest;
  if (request) {
    // A create request with a request id already seen is ignored: the conference it made (or is making) stays.
    if (previous?.createRequest?.requestId === request.requestId) return { data: previous, requested: false };
    return { data: given, requested: true };
  }
  return { data: given, requested: false };
}

function onlyRemindersDiffer(a: EventDoc, b: EventDoc): boolean {
  const strip = (d: EventDoc) => stableJson({ ...d, reminders: undefined, updated: undefined, sequence: undefined });
  return strip(a) === strip(b) && stableJson(a.reminders) !== stableJson(b.reminders);
}
