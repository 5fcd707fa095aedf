// The stored event document: the Event resource as the organizer's calendar holds it (kind, etag and htmlLink are
// added when rendered).
import type { ConferenceData } from './conference.ts';
import type { When } from './times.ts';

export interface Person {
  id?: string;
  email: string;
  displayName?: string;
  self?: boolean;
}

export interface Attendee {
  email: string;
  displayName?: string;
  organizer?: boolean;
  self?: boolean;
  resource?: boolean;
  optional?: boolean;
  responseStatus: 'needsAction' | 'declined' | 'tentative' | 'accepted';
  comment?: string;
  additionalGuests?: number;
  id?: string;
}

export interface Reminders {
  useDefault: boolean;
  overrides?: Array<{ method: 'email' | 'popup'; minutes: number }>;
}

export interface Attachment {
  fileUrl: string;
  title?: string;
  mimeType?: string;
  iconLink?: string;
  fileId?: string;
}

export const EVENT_TYPES = ['default', 'birthday', 'focusTime', 'outOfOffice', 'workingLocation', 'fromGmail'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventDoc {
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  colorId?: string;
  creator: Person;
  organizer: Person;
  start: When;
  end: When;
  endTimeUnspecified?: boolean;
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: When;
  transparency?: 'opaque' | 'transparent';
  visibility?: 'default' | 'public' | 'private' | 'confidential';
  iCalUID: string;
  sequence: number;
  attendees?: Attendee[];
  attendeesOmitted?: boolean;
  extendedProperties?: { private?: Record<string, string>; shared?: Record<string, string> };
  hangoutLink?: string;
  conferenceData?: ConferenceData;
  anyoneCanAddSelf?: boolean;
  guestsCanInviteOthers?: boolean;
  guestsCanModify?: boolean;
  guestsCanSeeOtherGuests?: boolean;
  privateCopy?: boolean;
  locked?: boolean;
  reminders: Reminders;
  source?: { url: string; title?: string };
  workingLocationProperties?: Record<string, unknown>;
  outOfOfficeProperties?: Record<string, unknown>;
  focusTimeProperties?: Record<string, unknown>;
  attachments?: Attachment[];
  birthdayProperties?: { type: string; contact?: string; customTypeName?: string };
  gadget?: Record<string, unknown>;
  eventType: EventType;
}

/** Fields a client writes (insert, update, patch); everything else is the server's. */
export const WRITABLE = [
  'summary', 'description', 'location', 'colorId', 'start', 'end', 'recurrence', 'transparency', 'visibility', 'sequence',
  'attendees', 'attendeesOmitted', 'extendedProperties', 'conferenceData', 'anyoneCanAddSelf', 'guestsCanInviteOthers',
  'guestsCanModify', 'guestsCanSeeOtherGuests', 'reminders', 'source', 'workingLocationProperties', 'outOfOfficeProperties',
  'focusTimeProperties', 'attachments', 'birthdayProperties', 'eventType', 'status', 'id', 'iCalUID', 'organizer',
  'originalStartTime', 'recurringEventId',
] as const;

/** Read-only fields: accepted in a request (clients send back what they read) and ignored. */
export const READ_ONLY = ['kind', 'etag', 'htmlLink', 'created', 'updated', 'creator', 'endTimeUnspecified', 'hangoutLink', 'locked', 'privateCopy', 'gadget'];

/** What a client may write of a stored event (the base a patch merges onto). */
export function writableView(doc: EventDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of WRITABLE) if (k !== 'id' && (doc as unknown as Record<string, unknown>)[k] !== undefined) out[k] = structuredClone((doc as unknown as Record<string, unknown>)[k]);
  return out;
}

/** Patch semantics: objects merge key by key, arrays and scalars replace, null clears. */
export function mergePatch(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k])) {
      out[k] = mergePatch(out[k] as Record<string, unknown>, v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}

/**
 * The attendees of a write that says some were omitted (`attendeesOmitted: true`, as a read with `maxAttendees` gives
 * them): the entries it names replace the stored ones with the same e-mail or join the list, and the stored entries
 * it does not name stay, so a participant can answer without knowing every guest.
 */
export function withOmittedAttendees(stored: Attendee[] | undefined, given: unknown): unknown {
  if (!Array.isArray(given)) return stored;
  // Entries without an e-mail are passed on as they are, for the body's check to refuse.
  const emailOf = (a: unknown) => (a !== null && typeof a === 'object' && typeof (a as Attendee).email === 'string' ? (a as Attendee).email.toLowerCase() : '');
  const named = new Map(given.map((a) => [emailOf(a), a]));
  const known = new Set((stored ?? []).map((a) => a.email.toLowerCase()));
  return [...(stored ?? []).map((a) => named.get(a.email.toLowerCase()) ?? a), ...given.filter((a) => !known.has(emailOf(a)))];
}

/**
 * Lower-case text `q` searches: summary, description, location, attendees and organizer, and a working location's
 * labels, building and desk (the fields Calendar's `q` names).
 */
export function searchText(doc: EventDoc): string {
  const parts = [doc.summary, doc.description, doc.location, doc.organizer.email, doc.organizer.displayName];
  for (const a of doc.attendees ?? []) parts.push(a.email, a.displayName);
  const wl = doc.workingLocationProperties as { customLocation?: { label?: string }; officeLocation?: { label?: string; buildingId?: string; deskId?: string } } | undefined;
  parts.push(wl?.customLocation?.label, wl?.officeLocation?.label, wl?.officeLocation?.buildingId, wl?.officeLocation?.deskId);
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n').toLowerCase();
}

/** JSON with object keys sorted: equal documents compare equal whatever order their fields were set in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}
