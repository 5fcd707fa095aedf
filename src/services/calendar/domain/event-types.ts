// Rules of the event types (spec C4 EventType values; Calendar's event-type guides where the spec is silent).
import { randomInt } from 'node:crypto';
import { badRequest } from './errors.ts';
import { stableJson, type EventDoc } from './event.ts';
import { addDays } from './times.ts';

const CREATABLE = ['default', 'birthday', 'focusTime', 'outOfOffice', 'workingLocation'];
const PROPERTIES: Record<string, keyof EventDoc> = {
  focusTime: 'focusTimeProperties',
  outOfOffice: 'outOfOfficeProperties',
  workingLocation: 'workingLocationProperties',
  birthday: 'birthdayProperties',
};
const BIRTHDAY_RULES = [['RRULE:FREQ=YEARLY'], ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1']];
/** What a birthday event lets change after creation. */
const BIRTHDAY_MUTABLE = new Set(['summary', 'colorId', 'reminders', 'start', 'end', 'updated', 'sequence']);

const restriction = (message: string, location = 'eventType') => badRequest(message, location, 'eventTypeRestriction');

export function checkCreatableType(type: string, importing: boolean): void {
  if (type === 'fromGmail' || type === 'fromMail') throw restriction(`Events of type ${type} cannot be created.`);
  if (!CREATABLE.includes(type)) throw badRequest(`Invalid event type: ${type}.`, 'eventType');
  if (importing && type !== 'default') throw restriction('Only events of type default can be imported.');
}

/** Completes and checks a typed event (defaults filled in); `previous` is the stored version on updates. */
export function applyTypeRules(doc: EventDoc, isPrimary: boolean, previous?: EventDoc): void {
  for (const [type, field] of Object.entries(PROPERTIES)) {
    if (type !== doc.eventType && doc[field] !== undefined) throw restriction(`${field} can only be set on events of type ${type}.`, field);
  }
  const timed = doc.start.dateTime !== undefined;
  switch (doc.eventType) {
    case 'focusTime':
    case 'outOfOffice': {
      const field = PROPERTIES[doc.eventType];
      if (doc[field] === undefined) throw restriction(`${field} is required for events of type ${doc.eventType}.`, field);
      if (!timed) throw restriction(`Events of type ${doc.eventType} cannot be all-day events.`, 'start');
      if (!isPrimary) throw restriction(`Events of type ${doc.eventType} can only be created in a primary calendar.`, 'calendarId');
      if (doc.eventType === 'focusTime' && doc.transparency === 'transparent') throw restriction('Focus time events must be opaque.', 'transparency');
      doc.transparency = 'opaque';
      break;
    }
    case 'workingLocation': {
      if (doc.workingLocationProperties === undefined) throw restriction('workingLocationProperties is required for events of type workingLocation.', 'workingLocationProperties');
      if (!isPrimary) throw restriction('Events of type workingLocation can only be created in a primary calendar.', 'calendarId');
      if (doc.visibility !== undefined && doc.visibility !== 'public') throw restriction('Working location events must have public visibility.', 'visibility');
      if (doc.transparency !== undefined && doc.transparency !== 'transparent') throw restriction('Working location events must be transparent.', 'transparency');
      doc.visibility = 'public';
      doc.transparency = 'transparent';
      break;
    }
    case 'birthday':
      checkBirthday(doc, previous);
      break;
  }
}

function checkBirthday(doc: EventDoc, previous?: EventDoc): void {
  if (doc.start.date === undefined || doc.end.date !== addDays(doc.start.date, 1)) {
    throw restriction('Birthday events must be all-day events spanning exactly one day.', 'start');
  }
  const leapDay = doc.start.date.endsWith('-02-29');
  if (!doc.recurrence || JSON.stringify(doc.recurrence) !== JSON.stringify(BIRTHDAY_RULES[leapDay ? 1 : 0]) && JSON.stringify(doc.recurrence) !== JSON.stringify(BIRTHDAY_RULES[0])) {
    throw restriction(`Birthday events must recur yearly: recurrence ${JSON.stringify(BIRTHDAY_RULES[leapDay ? 1 : 0])}.`, 'recurrence');
  }
  if (doc.visibility !== undefined && doc.visibility !== 'private') throw restriction('Birthday events must have private visibility.', 'visibility');
  if (doc.transparency !== undefined && doc.transparency !== 'transparent') throw restriction('Birthday events must be transparent.', 'transparency');
  doc.visibility = 'private';
  doc.transparency = 'transparent';
  if (previous) {
    // The type and its contact never change; only a few fields may.
    if (doc.birthdayProperties !== undefined && doc.birthdayProperties.type !== previous.birthdayProperties?.type) {
      throw restriction('The type of a birthday event cannot be changed.', 'birthdayProperties.type');
    }
    doc.birthdayProperties = previous.birthdayProperties;
    for (const key of new Set([...Object.keys(doc), ...Object.keys(previous)])) {
      if (BIRTHDAY_MUTABLE.has(key)) continue;
      const a = stableJson((doc as unknown as Record<string, unknown>)[key]);
      const b = stableJson((previous as unknown as Record<string, unknown>)[key]);
      if (a !== b) throw restriction(`Birthday events allow changes only to summary, colorId, reminders, start and end (not ${key}).`, key);
    }
    return;
  }
  const type = doc.birthdayProperties?.type ?? 'birthday';
  if (type !== 'birthday') throw restriction('Only birthday events of type birthday can be created.', 'birthdayProperties.type');
  // Types other than `self` are always linked to a contact: a new birthday gets one.
  doc.birthdayProperties = { type, contact: `people/c${randomInt(1e9, 1e10)}${randomInt(1e8, 1e9)}` };
}
