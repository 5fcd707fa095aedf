// iCalendar (RFC 5545) text of an event for invitation e-mails (METHOD REQUEST, CANCEL or REPLY), and the MIME
// message that carries it beside a plain-text part.
import type { EventDoc } from './event.ts';

export type Method = 'REQUEST' | 'CANCEL' | 'REPLY';

const escapeText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** Folds a content line at 75 octets (RFC 5545 3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut--;
    out.push(rest.slice(0, cut));
    rest = ' ' + rest.slice(cut);
  }
  out.push(rest);
  return out.join('\r\n');
}

function when(name: string, w: EventDoc['start']): string {
  if (w.date !== undefined) return `${name};VALUE=DATE:${w.date.replaceAll('-', '')}`;
  return `${name}:${stamp(Date.parse(w.dateTime!))}`;
}

export function icalendar(doc: EventDoc, method: Method, now: number, onlyAttendee?: string): string {
  const lines = ['BEGIN:VCALENDAR', 'PRODID:-//twinstack//calendar//EN', 'VERSION:2.0', 'CALSCALE:GREGORIAN', `METHOD:${method}`, 'BEGIN:VEVENT'];
  lines.push(when('DTSTART', doc.start), when('DTEND', doc.end), `DTSTAMP:${stamp(now)}`);
  lines.push(`ORGANIZER${doc.organizer.displayName ? `;CN=${escapeText(doc.organizer.displayName)}` : ''}:mailto:${doc.organizer.email}`);
  lines.push(`UID:${doc.iCalUID}`);
  for (const a of doc.attendees ?? []) {
    if (onlyAttendee && a.email.toLowerCase() !== onlyAttendee) continue;
    const partstat = { needsAction: 'NEEDS-ACTION', accepted: 'ACCEPTED', declined: 'DECLINED', tentative: 'TENTATIVE' }[a.responseStatus];
    lines.push(`ATTENDEE;CUTYPE=${a.resource ? 'RESOURCE' : 'INDIVIDUAL'};ROLE=${a.optional ? 'OPT-PARTICIPANT' : 'REQ-PARTICIPANT'};PARTSTAT=${partstat};RSVP=TRUE${a.displayName ? `;CN=${escapeText(a.displayName)}` : ''}:mailto:${a.email}`);
  }
  if (doc.recurringEventId && doc.originalStartTime) lines.push(when('RECURRENCE-ID', doc.originalStartTime));
  for (const r of doc.recurrence ?? []) lines.push(r);
  lines.push(`CREATED:${stamp(Date.parse(doc.created))}`, `LAST-MODIFIED:${stamp(Date.parse(doc.updated))}`);
  if (doc.description) lines.push(`DESCRIPTION:${escapeText(doc.description)}`);
  if (doc.location) lines.push(`LOCATION:${escapeText(doc.location)}`);
  lines.push(`SEQUENCE:${doc.sequence}`, `STATUS:${method === 'CANCEL' ? 'CANCELLED' : doc.status === 'tentative' ? 'TENTATIVE' : 'CONFIRMED'}`);
  lines.push(`SUMMARY:${escapeText(doc.summary ?? '')}`, 'TRANSP:' + (doc.transparency === 'transparent' ? 'TRANSPARENT' : 'OPAQUE'), 'END:VEVENT', 'END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** A multipart/alternative body (text/plain, then text/calendar) and the headers that describe it. */
export function invitationMessage(text: string, calendar: string, method: Method, boundary: string): { body: string; headers: Record<string, string> } {
  const body = [
    `--${boundary}`,
    'Content-Type: text/plain; charset=UTF-8',
    '',
    text,
    `--${boundary}`,
    `Content-Type: text/calendar; charset=UTF-8; method=${method}`,
    '',
    calendar,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { body, headers: { 'Content-Type': `multipart/alternative; boundary="${boundary}"`, 'MIME-Version': '1.0' } };
}
