// What follows an organizer's write: attendees who are twinstack users get the event in their primary calendar (and
// lose it when removed or cancelled), and with sendUpdates=all / externalOnly attendees get an e-mail carrying an
// iCalendar part through the outbox.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/service.ts';
import { randomHex } from '../../core/ids.ts';
import type { EventDoc } from './domain/event.ts';
import { icalendar, invitationMessage, type Method } from './domain/ical.ts';
import type { Events } from './events.ts';

export type SendUpdates = 'all' | 'externalOnly' | 'none';

interface User {
  id: string;
  name: string;
}

export class Invitations {
  readonly #ctx: ServiceContext;

  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
  }

  /** Twinstack users by e-mail, read inside the unit of work. */
  async #users(tx: Kysely<any>): Promise<Map<string, User>> {
    const rows = await tx.selectFrom('core_principals').select(['id', 'name', 'attrs']).execute();
    const users = new Map<string, User>();
    for (const r of rows) {
      const attrs = typeof r.attrs === 'string' ? JSON.parse(r.attrs) : (r.attrs ?? {});
      if (typeof attrs.email === 'string' && attrs.email !== '') users.set(attrs.email.toLowerCase(), { id: r.id, name: r.name });
    }
    return users;
  }

  /** After the organizer's calendar saved `doc` (`previous` is what it replaced). */
  async afterWrite(tx: Kysely<any>, events: Events, calendarId: string, doc: EventDoc, previous: EventDoc | undefined, sendUpdates: SendUpdates): Promise<void> {
    const organizer = doc.organizer.email.toLowerCase();
    if (organizer !== calendarId.toLowerCase()) return;
    const now = (doc.attendees ?? []).filter((a) => a.email.toLowerCase() !== organizer);
    const before = (previous?.attendees ?? []).filter((a) => a.email.toLowerCase() !== organizer);
    if (now.length === 0 && before.length === 0) return;
    const users = await this.#users(tx);
    const current = new Set(now.map((a) => a.email.toLowerCase()));
    const cancelled = doc.status === 'cancelled';
    for (const a of now) {
      const user = users.get(a.email.toLowerCase());
      if (user) await events.saveCopy(tx, user.id, a.email.toLowerCase(), user.name, doc, cancelled);
    }
    const removed = before.filter((a) => !current.has(a.email.toLowerCase()));
    for (const a of removed) {
      const user = users.get(a.email.toLowerCase());
      if (user) await events.saveCopy(tx, user.id, a.email.toLowerCase(), user.name, doc, true);
    }
    if (sendUpdates === 'none') return;
    const wanted = (email: string) => sendUpdates === 'all' || !users.has(email.toLowerCase());
    const method: Method = cancelled ? 'CANCEL' : 'REQUEST';
    const verb = cancelled ? 'Canceled event' : previous && previous.status !== 'cancelled' ? 'Updated invitation' : 'Invitation';
    for (const a of now) if (wanted(a.email) && !a.resource) await this.#mail(tx, doc, a.email, method, verb);
    for (const a of removed) if (wanted(a.email) && !a.resource) await this.#mail(tx, doc, a.email, 'CANCEL', 'Canceled event');
  }

  /** After an attendee answered: the other copies follow the organizer's version, and the organizer may be told. */
  async afterResponse(tx: Kysely<any>, events: Events, organizerDoc: EventDoc, attendee: string, sendUpdates: SendUpdates): Promise<void> {
    await this.afterWrite(tx, events, organizerDoc.organizer.email, organizerDoc, organizerDoc, 'none');
    if (sendUpdates === 'none') return;
    const answer = organizerDoc.attendees?.find((a) => a.email.toLowerCase() === attendee);
    const verb = { accepted: 'Accepted', declined: 'Declined', tentative: 'Tentatively accepted', needsAction: 'Response' }[answer?.responseStatus ?? 'needsAction'];
    await this.#mail(tx, organizerDoc, organizerDoc.organizer.email, 'REPLY', `${verb} by ${attendee}`, attendee);
  }

  async #mail(tx: Kysely<any>, doc: EventDoc, to: string, method: Method, verb: string, onlyAttendee?: string): Promise<void> {
    const now = this.#ctx.clock.now();
    const when = doc.start.date ?? doc.start.dateTime;
    const subject = `${verb}: ${doc.summary ?? '(No title)'} @ ${when}`;
    const text = [
      doc.summary ?? '(No title)',
      `When: ${when}${doc.start.timeZone ? ` (${doc.start.timeZone})` : ''}`,
      doc.location ? `Where: ${doc.location}` : '',
      `Organizer: ${doc.organizer.email}`,
      doc.description ? `\n${doc.description}` : '',
    ]
      .filter((l) => l !== '')
      .join('\r\n');
    const message = invitationMessage(text, icalendar(doc, method, now, onlyAttendee), method, `=_${randomHex(12)}`);
    await this.#ctx.outbox.enqueue(
      { service: 'calendar', channel: 'email', recipient: to, subject, body: message.body, headers: message.headers, correlation: `event:${doc.iCalUID}` },
      tx,
    );
  }
}
