// Reads an Event request body: every writable field type-checked and bounded; read-only fields ignored; unknown
// fields refused. The result holds only the fields the body carried.
import { arr, bool, httpUrl, int, isEmail, obj, only, oneOf, optStr, str, type Obj } from './check.ts';
import { EVENT_COLOR_IDS } from './colors.ts';
import { readConferenceData } from './conference.ts';
import { badRequest, requiredField } from './errors.ts';
import { READ_ONLY, WRITABLE, type Attachment, type Attendee, type EventDoc } from './event.ts';
import { EVENT_ID } from './ids.ts';
import { checkRecurrence } from './recurrence.ts';
import { parseWhen } from './times.ts';

export type EventFields = Partial<Omit<EventDoc, 'eventType'>> & { eventType?: string };

export interface ReadOptions {
  conferenceDataVersion: number;
  supportsAttachments: boolean;
  /** `import` lets the body set the organizer and requires iCalUID. */
  importing?: boolean;
}

export const LIMITS = {
  summary: 1024,
  description: 8192,
  location: 1024,
  attendees: 1000,
  attachments: 25,
  overrides: 5,
  reminderMinutes: 40320,
  propertyKey: 44,
  propertyValue: 1024,
  properties: 300,
  text: 1024,
  label: 256,
} as const;

export const AUTO_DECLINE = ['declineNone', 'declineAllConflictingInvitations', 'declineOnlyNewConflictingInvitations'] as const;
export const RESPONSES = ['needsAction', 'declined', 'tentative', 'accepted'] as const;

export function readEvent(body: unknown, options: ReadOptions): EventFields {
  const o = obj(body ?? {}, 'resource');
  const f: EventFields = {};
  for (const k of Object.keys(o)) {
    if (!(WRITABLE as readonly string[]).includes(k) && !READ_ONLY.includes(k)) throw badRequest(`Unknown field ${k}.`, k);
  }
  const has = (k: string) => o[k] !== undefined && o[k] !== null;
  if (has('id')) {
    const id = str(o.id, 'id', 1024);
    if (!EVENT_ID.test(id)) throw badRequest('Invalid resource id value.', 'id');
    f.id = id;
  }
  if (has('iCalUID')) f.iCalUID = nonEmpty(o.iCalUID, 'iCalUID', 1024);
  if (has('status')) f.status = oneOf(o.status, 'status', ['confirmed', 'tentative', 'cancelled'] as const);
  if (has('summary')) f.summary = str(o.summary, 'summary', LIMITS.summary);
  if (has('description')) f.description = str(o.description, 'description', LIMITS.description);
  if (has('location')) f.location = str(o.location, 'location', LIMITS.location);
  if (has('colorId')) f.colorId = oneOf(o.colorId, 'colorId', EVENT_COLOR_IDS);
  if (has('start')) f.start = parseWhen(o.start, 'start');
  if (has('end')) f.end = parseWhen(o.end, 'end');
  if (has('originalStartTime')) f.originalStartTime = parseWhen(o.originalStartTime, 'originalStartTime');
  if (has('recurringEventId')) f.recurringEventId = str(o.recurringEventId, 'recurringEventId', 1100);
  if (has('recurrence')) f.recurrence = checkRecurrence(o.recurrence);
  if (has('transparency')) f.transparency = oneOf(o.transparency, 'transparency', ['opaque', 'transparent'] as const);
  if (has('visibility')) f.visibility = oneOf(o.visibility, 'visibility', ['default', 'public', 'private', 'confidential'] as const);
  if (has('sequence')) f.sequence = int(o.sequence, 'sequence', 0, 2_147_483_647);
  if (has('attendees')) f.attendees = readAttendees(o.attendees);
  if (has('attendeesOmitted')) f.attendeesOmitted = bool(o.attendeesOmitted, 'attendeesOmitted');
  if (has('extendedProperties')) f.extendedProperties = readExtended(o.extendedProperties);
  for (const k of ['anyoneCanAddSelf', 'guestsCanInviteOthers', 'guestsCanModify', 'guestsCanSeeOtherGuests'] as const) if (has(k)) f[k] = bool(o[k], k);
  if (has('reminders')) f.reminders = readReminders(o.reminders);
  if (has('source')) {
    const s = obj(o.source, 'source');
    only(s, ['url', 'title'], 'source');
    f.source = { url: httpUrl(s.url, 'source.url', 2048) };
    const title = optStr(s.title, 'source.title', LIMITS.text);
    if (title !== undefined) f.source.title = title;
  }
  if (has('organizer')) {
    const org = obj(o.organizer, 'organizer');
    only(org, ['id', 'email', 'displayName', 'self'], 'organizer');
    if (options.importing) {
      const email = str(org.email, 'organizer.email', 254);
      if (!isEmail(email)) throw badRequest(`Invalid organizer email: ${email}`, 'organizer.email');
      f.organizer = { email };
      const name = optStr(org.displayName, 'organizer.displayName', LIMITS.label);
      if (name !== undefined) f.organizer.displayName = name;
    }
  }
  if (has('eventType')) f.eventType = str(o.eventType, 'eventType', 32);
  if (has('focusTimeProperties')) f.focusTimeProperties = readDecline(o.focusTimeProperties, 'focusTimeProperties', true);
  if (has('outOfOfficeProperties')) f.outOfOfficeProperties = readDecline(o.outOfOfficeProperties, 'outOfOfficeProperties', false);
  if (has('workingLocationProperties')) f.workingLocationProperties = readWorkingLocation(o.workingLocationProperties);
  if (has('birthdayProperties')) {
    const b = obj(o.birthdayProperties, 'birthdayProperties');
    only(b, ['type', 'contact', 'customTypeName'], 'birthdayProperties');
    f.birthdayProperties = { type: b.type === undefined ? 'birthday' : oneOf(b.type, 'birthdayProperties.type', ['anniversary', 'birthday', 'custom', 'other', 'self']) };
  }
  if (has('attachments') && options.supportsAttachments) f.attachments = readAttachments(o.attachments);
  if (has('conferenceData') && options.conferenceDataVersion >= 1) f.conferenceData = readConferenceData(o.conferenceData);
  return f;
}

function nonEmpty(v: unknown, field: string, max: number): string {
  const s = str(v, field, max);
  if (s === '') throw requiredField(`Missing ${field}.`, field);
  return s;
}

function readAttendees(raw: unknown): Attendee[] {
  const seen = new Set<string>();
  return arr(raw, 'attendees', LIMITS.attendees).map((item, i) => {
    const field = `attendees[${i}]`;
    const a = obj(item, field);
    only(a, ['id', 'email', 'displayName', 'organizer', 'self', 'resource', 'optional', 'responseStatus', 'comment', 'additionalGuests'], field);
    if (a.email === undefined || a.email === null || a.email === '') throw requiredField('Missing attendee email.', `${field}.email`);
    const email = str(a.email, `${field}.email`, 254);
    if (!isEmail(email)) throw badRequest(`Invalid attendee email: ${email}`, `${field}.email`);
    const key = email.toLowerCase();
    if (seen.has(key)) throw badRequest(`Duplicate attendee email: ${email}`, `${field}.email`);
    seen.add(key);
    const out: Attendee = { email, responseStatus: a.responseStatus === undefined ? 'needsAction' : oneOf(a.responseStatus, `${field}.responseStatus`, RESPONSES) };
    const name = optStr(a.displayName, `${field}.displayName`, LIMITS.label);
    if (name !== undefined) out.displayName = name;
    const comment = optStr(a.comment, `${field}.comment`, LIMITS.text);
    if (comment !== undefined) out.comment = comment;
    if (a.optional !== undefined) out.optional = bool(a.optional, `${field}.optional`);
    if (a.resource !== undefined) out.resource = bool(a.resource, `${field}.resource`);
    if (a.additionalGuests !== undefined) out.additionalGuests = int(a.additionalGuests, `${field}.additionalGuests`, 0, 1000);
    return out;
  });
}

function readExtended(raw: unknown): EventDoc['extendedProperties'] {
  const o = obj(raw, 'extendedProperties');
  only(o, ['private', 'shared'], 'extendedProperties');
  const out: NonNullable<EventDoc['extendedProperties']> = {};
  let count = 0;
  for (const scope of ['private', 'shared'] as const) {
    if (o[scope] === undefined || o[scope] === null) continue;
    const map = obj(o[scope], `extendedProperties.${scope}`);
    const entries: Record<string, string> = {};
    for (const [k, v] of Object.entries(map)) {
      const field = `extendedProperties.${scope}.${k}`;
      if (k === '' || k.length > LIMITS.propertyKey) throw badRequest(`Invalid extended property name: at most ${LIMITS.propertyKey} characters.`, field);
      entries[k] = str(v, field, LIMITS.propertyValue);
      if (++count > LIMITS.properties) throw badRequest(`At most ${LIMITS.properties} extended properties are allowed.`, 'extendedProperties');
    }
    out[scope] = entries;
  }
  return out;
}

function readReminders(raw: unknown): EventDoc['reminders'] {
  const r = obj(raw, 'reminders');
  only(r, ['useDefault', 'overrides'], 'reminders');
  if (r.useDefault === undefined || r.useDefault === null) throw requiredField('Missing reminders.useDefault.', 'reminders.useDefault');
  const useDefault = bool(r.useDefault, 'reminders.useDefault');
  const out: EventDoc['reminders'] = { useDefault };
  if (r.overrides !== undefined && r.overrides !== null) {
    out.overrides = readReminderList(r.overrides, 'reminders.overrides');
    if (useDefault && out.overrides.length > 0) throw badRequest('Cannot specify both default reminders and overrides at the same time.', 'reminders');
  }
  return out;
}

/** A list of reminders (an event's overrides, a calendar's default reminders): at most 5, each method and minutes. */
export function readReminderList(raw: unknown, field: string): Array<{ method: 'email' | 'popup'; minutes: number }> {
  const list = arr(raw, field, Number.MAX_SAFE_INTEGER);
  if (list.length > LIMITS.overrides) throw badRequest(`Too many reminders: at most ${LIMITS.overrides} reminders are allowed.`, field);
  return list.map((item, i) => {
    const at = `${field}[${i}]`;
    const o = obj(item, at);
    only(o, ['method', 'minutes'], at);
    if (o.method === undefined) throw requiredField('Missing reminder method.', `${at}.method`);
    if (o.minutes === undefined) throw requiredField('Missing reminder minutes.', `${at}.minutes`);
    return { method: oneOf(o.method, `${at}.method`, ['email', 'popup'] as const), minutes: int(o.minutes, `${at}.minutes`, 0, LIMITS.reminderMinutes) };
  });
}

function readDecline(raw: unknown, field: string, chat: boolean): Record<string, unknown> {
  const o = obj(raw, field);
  only(o, chat ? ['autoDeclineMode', 'declineMessage', 'chatStatus'] : ['autoDeclineMode', 'declineMessage'], field);
  const out: Obj = {};
  if (o.autoDeclineMode !== undefined) out.autoDeclineMode = oneOf(o.autoDeclineMode, `${field}.autoDeclineMode`, AUTO_DECLINE);
  const message = optStr(o.declineMessage, `${field}.declineMessage`, LIMITS.text);
  if (message !== undefined) out.declineMessage = message;
  if (chat && o.chatStatus !== undefined) out.chatStatus = oneOf(o.chatStatus, `${field}.chatStatus`, ['available', 'doNotDisturb']);
  return out;
}

function readWorkingLocation(raw: unknown): Record<string, unknown> {
  const o = obj(raw, 'workingLocationProperties');
  only(o, ['type', 'homeOffice', 'customLocation', 'officeLocation'], 'workingLocationProperties');
  if (o.type === undefined) throw requiredField('Missing workingLocationProperties.type.', 'workingLocationProperties.type');
  const type = oneOf(o.type, 'workingLocationProperties.type', ['homeOffice', 'officeLocation', 'customLocation']);
  const out: Obj = { type };
  if (type === 'homeOffice') out.homeOffice = o.homeOffice ?? {};
  if (type === 'customLocation') {
    const c = obj(o.customLocation ?? {}, 'workingLocationProperties.customLocation');
    only(c, ['label'], 'workingLocationProperties.customLocation');
    out.customLocation = c.label === undefined ? {} : { label: str(c.label, 'workingLocationProperties.customLocation.label', LIMITS.label) };
  }
  if (type === 'officeLocation') {
    const field = 'workingLocationProperties.officeLocation';
    const c = obj(o.officeLocation ?? {}, field);
    const keys = ['buildingId', 'floorId', 'floorSectionId', 'deskId', 'label'];
    only(c, keys, field);
    const office: Obj = {};
    for (const k of keys) if (c[k] !== undefined) office[k] = str(c[k], `${field}.${k}`, LIMITS.label);
    out.officeLocation = office;
  }
  return out;
}

function readAttachments(raw: unknown): Attachment[] {
  const list = arr(raw, 'attachments', Number.MAX_SAFE_INTEGER);
  if (list.length > LIMITS.attachments) throw badRequest(`Too many attachments: at most ${LIMITS.attachments} are allowed per event.`, 'attachments');
  return list.map((item, i) => {
    const field = `attachments[${i}]`;
    const a = obj(item, field);
    only(a, ['fileUrl', 'title', 'mimeType', 'iconLink', 'fileId'], field);
    if (a.fileUrl === undefined) throw requiredField('Missing attachment fileUrl.', `${field}.fileUrl`);
    const out: Attachment = { fileUrl: httpUrl(a.fileUrl, `${field}.fileUrl`, 2048) };
    const title = optStr(a.title, `${field}.title`, LIMITS.text);
    if (title !== undefined) out.title = title;
    const mime = optStr(a.mimeType, `${field}.mimeType`, 255);
    if (mime !== undefined) out.mimeType = mime;
    if (a.iconLink !== undefined) out.iconLink = httpUrl(a.iconLink, `${field}.iconLink`, 2048);
    // A file-storage link carries the file id in its alternate-link form (`.../file/d/<id>/...` or `?id=`).
    const fileId = /\/d\/([A-Za-z0-9_-]+)/.exec(out.fileUrl)?.[1] ?? new URL(out.fileUrl).searchParams.get('id') ?? undefined;
    if (fileId) out.fileId = fileId;
    return out;
  });
}
