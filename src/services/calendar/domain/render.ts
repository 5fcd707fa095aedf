// The wire form of events, calendars and collections as one calendar's reader sees them.
import type { EventDoc } from './event.ts';
import { renderWhen } from './times.ts';

export interface View {
  /** The calendar the event is read from: `self` flags and organizer-only fields depend on it. */
  calendarId: string;
  /** The zone `dateTime` values are written in (list `timeZone`, else the calendar's). */
  zone: string;
  /** The zone the request named (list `timeZone`): it wins over the event's own. */
  requestedZone?: string;
  baseUrl: string;
  maxAttendees?: number;
}

export const etagOf = (changeSeq: number, salt = 0): string => `"${3_000_000_000_000 + changeSeq * 8 + salt}"`;

export function renderEvent(doc: EventDoc, etag: string, view: View): Record<string, unknown> {
  const self = (email: string) => email.toLowerCase() === view.calendarId.toLowerCase();
  const out: Record<string, unknown> = {
    kind: 'calendar#event',
    etag,
    id: doc.id,
    status: doc.status,
    htmlLink: `${view.baseUrl}/calendar/event?eid=${Buffer.from(`${doc.id} ${view.calendarId}`).toString('base64url')}`,
    created: doc.created,
    updated: doc.updated,
  };
  const { start, end, originalStartTime, attendees, creator, organizer, source, ...rest } = doc;
  for (const [k, v] of Object.entries(rest)) if (!(k in out) && v !== undefined) out[k] = v;
  out.creator = self(creator.email) ? { ...creator, self: true } : creator;
  out.organizer = self(organizer.email) ? { ...organizer, self: true } : organizer;
  out.start = renderWhen(start, view.zone, view.requestedZone);
  out.end = renderWhen(end, view.zone, view.requestedZone);
  if (originalStartTime) out.originalStartTime = renderWhen(originalStartTime, view.zone, view.requestedZone);
  // The source is the organizer's own: other calendars do not see it.
  if (source && self(organizer.email)) out.source = source;
  if (attendees) {
    let list = attendees.map((a) => (self(a.email) ? { ...a, self: true } : a));
    if (view.maxAttendees !== undefined && list.length > view.maxAttendees) {
      list = list.filter((a) => a.self).slice(0, Math.max(1, view.maxAttendees));
      out.attendeesOmitted = true;
    }
    out.attendees = list;
  }
  return out;
}
