// The event write paths as units of work: every read that decides a write (existence, ETag, uniqueness) runs on the
// unit's transaction; each saved row takes its calendar's next change number and notifies the calendar's channels.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/service.ts';
import type { Access, Caller, Calendars } from './access.ts';
import { composeEvent, type ComposeContext } from './domain/compose.ts';
import { completeRequest } from './domain/conference.ts';
import { badRequest, deleted, duplicate, forbidden, notFound, preconditionFailed } from './domain/errors.ts';
import { mergePatch, searchText, stableJson, withOmittedAttendees, writableView, type EventDoc } from './domain/event.ts';
import { findOccurrence, instanceDoc, instanceIdOf, seriesOf, spanOf } from './domain/instances.ts';
import { newEventId, parseInstanceId } from './domain/ids.ts';
import { readEvent, type EventFields } from './domain/input.ts';
import { reshapesInstances, shapeOf } from './domain/retired.ts';
import { etagOf } from './domain/render.ts';
import { dayStart } from './domain/zone.ts';
import type { Invitations, SendUpdates } from './invitations.ts';
import type { CalendarRow, CalendarStore, EventRow } from './store.ts';
import { eventsTopic, type ResourceWatches } from './watches.ts';

export interface WriteParams {
  conferenceDataVersion: number;
  supportsAttachments: boolean;
  sendUpdates: SendUpdates;
  ifMatch?: string;
}

/** A stored event, or an instance generated from its series (written back as an exception). */
export interface Loaded {
  doc: EventDoc;
  etag: string;
  row?: EventRow;
  master?: EventRow;
}

export interface Saved {
  doc: EventDoc;
  etag: string;
  calendar: CalendarRow;
}

/** How long a conference create request stays pending before the job generates it. */
export const CONFERENCE_DELAY_MS = 2000;
/** Fields an attendee's copy keeps as its own when the organizer's version is copied over it. */
const PERSONAL = ['reminders', 'colorId'] as const;

export class Events {
  readonly #ctx: ServiceContext;
  readonly #store: CalendarStore;
  readonly #calendars: Calendars;
  readonly #watches: ResourceWatches;
  readonly #invitations: Invitations;

  constructor(ctx: ServiceContext, store: CalendarStore, calendars: Calendars, watches: ResourceWatches, invitations: Invitations) {
    this.#ctx = ctx;
    this.#store = store;
    this.#calendars = calendars;
    this.#watches = watches;
    this.#invitations = invitations;
  }

  /**
   * Writes one event row: next change number, span columns, search text, channel notification. `previous` is the
   * stored version it replaces: a reshaped series keeps its earlier shape for singleEvents sync.
   */
  async save(tx: Kysely<any>, calendar: CalendarRow, doc: EventDoc, previous?: EventDoc): Promise<Saved> {
    const zone = calendar.doc.timeZone;
    const single = !doc.recurrence;
    const span = spanOf(doc, zone);
    const seq = await this.#store.nextChange(tx, calendar.id, single ? span.endMs - span.startMs : 0);
    if (previous && reshapesInstances(previous, doc)) await this.#store.putEarlierShape(tx, calendar.id, doc.id, seq, shapeOf(previous));
    await this.#store.putEvent(tx, calendar.id, doc, span, seq, searchText(doc), this.#ctx.clock.now());
    await this.#watches.changed(tx, [eventsTopic(calendar.id)]);
    return { doc, etag: etagOf(seq), calendar };
  }

  /** Loads an event or a generated instance of a series; undefined when neither exists. */
  async load(db: Kysely<any>, calendar: CalendarRow, eventId: string): Promise<Loaded | undefined> {
    const row = await this.#store.event(db, calendar.id, eventId);
    if (row) return { doc: row.doc, etag: etagOf(row.changeSeq), row };
    const ref = parseInstanceId(eventId);
    if (!ref) return undefined;
    const master = await this.#store.event(db, calendar.id, ref.seriesId);
    if (!master?.doc.recurrence) return undefined;
    const zone = calendar.doc.timeZone;
    const occ = findOccurrence(seriesOf(calendar.id, master.doc, zone), ref, zone, dayStart);
    if (!occ) return undefined;
    const doc = instanceDoc(master.doc, occ);
    if (master.doc.status === 'cancelled') doc.status = 'cancelled';
    return { doc, etag: etagOf(master.changeSeq), master };
  }

  #composeContext(caller: Caller, access: Access, mode: ComposeContext['mode'], params: WriteParams): ComposeContext {
    return {
      mode,
      now: this.#ctx.clock.now(),
      calendarZone: access.calendar.doc.timeZone,
      isPrimary: access.calendar.isPrimary,
      organizer: { email: access.calendar.id, displayName: access.calendar.doc.summary },
      creator: { email: caller.email, displayName: caller.name },
      newId: newEventId,
      conferenceDataVersion: params.conferenceDataVersion,
      supportsAttachments: params.supportsAttachments,
    };
  }

  async insert(caller: Caller, calendarId: string, body: unknown, params: WriteParams, mode: 'insert' | 'import' = 'insert'): Promise<Saved> {
    const fields = readEvent(body, { ...params, importing: mode === 'import' });
    return this.#ctx.db.write(async (tx) => {
      const access = await this.#calendars.resolve(caller, calendarId, 'writer', tx);
      if (mode === 'import') {
        // Importing an iCalUID the calendar already holds updates that event.
        const existing = await this.#store.eventByUid(tx, access.calendar.id, fields.iCalUID!);
        if (existing) return this.#replace(tx, caller, access, await this.#importTarget(tx, access.calendar, existing, fields), fields, params, 'import');
      }
      if (fields.id !== undefined && (await this.#store.event(tx, access.calendar.id, fields.id))) throw duplicate();
      const { doc, conferenceRequested } = composeEvent(undefined, fields, this.#composeContext(caller, access, mode, params));
      const saved = await this.save(tx, access.calendar, doc);
      if (conferenceRequested) await this.#scheduleConference(tx, access.calendar.id, doc);
      if (mode === 'insert') await this.#invitations.afterWrite(tx, this, access.calendar.id, doc, undefined, params.sendUpdates);
      return saved;
    });
  }

  /**
   * What an import of an iCalUID the calendar holds updates: the event, or, when the body names an `originalStartTime`
   * and the event is a series, that instance (an exception, as iCalendar's RECURRENCE-ID makes one).
   */
  async #importTarget(tx: Kysely<any>, calendar: CalendarRow, existing: EventRow, fields: EventFields): Promise<Loaded> {
    if (fields.originalStartTime === undefined || !existing.doc.recurrence) return { doc: existing.doc, etag: etagOf(existing.changeSeq), row: existing };
    const instance = await this.load(tx, calendar, instanceIdOf(existing.doc.id, fields.originalStartTime));
    if (!instance) throw badRequest('The originalStartTime is not the start of an instance of the recurring event.', 'originalStartTime');
    return instance;
  }

  async update(caller: Caller, calendarId: string, eventId: string, body: unknown, params: WriteParams, patch: boolean): Promise<Saved> {
    if (typeof (body ?? {}) !== 'object' || Array.isArray(body)) throw badRequest('Invalid value for resource: an object is required.', 'resource');
    // A client sends back the id it read (an instance id too); any other id is a change the API refuses.
    const { id, ...raw } = (body ?? {}) as Record<string, unknown>;
    if (id !== undefined && id !== null && id !== eventId) throw badRequest('The event id cannot be changed.', 'id');
    // Validate the body on its own first, so a bad field is named as the client wrote it.
    readEvent(raw, params);
    return this.#ctx.db.write(async (tx) => {
      const access = await this.#calendars.resolve(caller, calendarId, 'writer', tx);
      const loaded = await this.load(tx, access.calendar, eventId);
      if (!loaded) throw notFound();
      if (params.ifMatch !== undefined && params.ifMatch !== '*' && params.ifMatch !== loaded.etag) throw preconditionFailed();
      const input = patch ? mergePatch(writableView(loaded.doc), raw) : { ...raw };
      // `attendeesOmitted` describes the body, not the event: the guests it leaves out stay.
      if (raw.attendeesOmitted === true) input.attendees = withOmittedAttendees(loaded.doc.attendees, raw.attendees);
      delete input.attendeesOmitted;
      // Turning default reminders on drops the overrides the patch did not mention (they cannot coexist).
      const reminders = raw.reminders as { useDefault?: unknown; overrides?: unknown } | undefined;
      if (patch && reminders?.useDefault === true && reminders.overrides === undefined) input.reminders = { useDefault: true };
      const fields = readEvent(input, params);
      return this.#replace(tx, caller, access, loaded, fields, params, 'update');
    });
  }

  async #replace(tx: Kysely<any>, caller: Caller, access: Access, loaded: Loaded, fields: EventFields, params: WriteParams, mode: 'update' | 'import'): Promise<Saved> {
    const previous = loaded.doc;
    const calendar = access.calendar;
    if (previous.organizer.email.toLowerCase() !== calendar.id.toLowerCase()) {
      const self = previous.attendees?.find((a) => a.email.toLowerCase() === calendar.id.toLowerCase());
      if (self && mode === 'update') return this.#respond(tx, caller, access, loaded, fields, params);
    } else delete fields.organizer;
    // The source belongs to the organizer; a write by anyone else keeps it.
    if (caller.email !== previous.organizer.email.toLowerCase() && calendar.ownerId !== caller.principalId) fields.source = previous.source;
    const { doc, conferenceRequested } = composeEvent(previous, fields, this.#composeContext(caller, access, mode, params));
    const saved = await this.save(tx, calendar, doc, previous);
    if (conferenceRequested) await this.#scheduleConference(tx, calendar.id, doc);
    if (mode === 'update') await this.#invitations.afterWrite(tx, this, calendar.id, doc, previous, params.sendUpdates);
    return saved;
  }

  /** An attendee writes their copy: their own response and personal fields; shared fields belong to the organizer. */
  async #respond(tx: Kysely<any>, caller: Caller, access: Access, loaded: Loaded, fields: EventFields, params: WriteParams): Promise<Saved> {
    const calendar = access.calendar;
    const previous = loaded.doc;
    const me = calendar.id.toLowerCase();
    const { doc } = composeEvent(previous, { ...fields, conferenceData: undefined }, {
      ...this.#composeContext(caller, access, 'update', { ...params, conferenceDataVersion: 0, supportsAttachments: false }),
    });
    const shared = (d: EventDoc) =>
      stableJson({ ...d, reminders: 0, colorId: 0, updated: 0, sequence: 0, attendees: (d.attendees ?? []).filter((a) => a.email.toLowerCase() !== me).map((a) => a.email) });
    const mine = doc.attendees?.find((a) => a.email.toLowerCase() === me);
    if (shared(doc) !== shared(previous) || !mine) {
      throw forbidden('Shared properties can only be changed by the organizer of the event.', 'forbiddenForNonOrganizer');
    }
    const own = { responseStatus: mine.responseStatus, comment: mine.comment, additionalGuests: mine.additionalGuests };
    const withOwn = (d: EventDoc): EventDoc => ({
      ...d,
      attendees: d.attendees?.map((a) => (a.email.toLowerCase() === me ? dropUndefined({ ...a, ...own }) : a)),
    });
    const copy = withOwn({ ...previous, reminders: doc.reminders, colorId: doc.colorId, updated: doc.updated });
    if (copy.colorId === undefined) delete copy.colorId;
    const saved = await this.save(tx, calendar, copy);
    // The organizer's version records the response, and every other copy follows it.
    const organizerCalendar = await this.#store.calendar(tx, previous.organizer.email.toLowerCase());
    if (organizerCalendar) {
      const original = await this.load(tx, organizerCalendar, previous.id);
      if (original) {
        const updated = withOwn({ ...original.doc, updated: new Date(this.#ctx.clock.now()).toISOString() });
        await this.save(tx, organizerCalendar, updated);
        await this.#invitations.afterResponse(tx, this, updated, me, params.sendUpdates);
      }
    }
    return { ...saved, doc: (await this.#store.event(tx, calendar.id, previous.id))!.doc };
  }

  async delete(caller: Caller, calendarId: string, eventId: string, params: WriteParams): Promise<void> {
    await this.#ctx.db.write(async (tx) => {
      const access = await this.#calendars.resolve(caller, calendarId, 'writer', tx);
      const loaded = await this.load(tx, access.calendar, eventId);
      if (!loaded) throw notFound();
      if (params.ifMatch !== undefined && params.ifMatch !== '*' && params.ifMatch !== loaded.etag) throw preconditionFailed();
      if (loaded.doc.status === 'cancelled') throw deleted();
      const me = access.calendar.id.toLowerCase();
      const invited = loaded.doc.organizer.email.toLowerCase() !== me && loaded.doc.attendees?.some((a) => a.email.toLowerCase() === me);
      if (invited) {
        // An attendee who deletes their copy declines: the organizer's event records it.
        const declined = writableView(loaded.doc) as Record<string, unknown>;
        declined.attendees = loaded.doc.attendees!.map((a) => (a.email.toLowerCase() === me ? { ...a, responseStatus: 'declined' } : a));
        const { doc } = await this.#respond(tx, caller, access, loaded, readEvent(declined, { ...params, conferenceDataVersion: 0, supportsAttachments: false }), params);
        await this.save(tx, access.calendar, { ...doc, status: 'cancelled' });
        return;
      }
      await this.cancel(tx, access.calendar, loaded.doc, params.sendUpdates);
    });
  }

  /** Cancels an event (and, for a series, its exceptions); attendee copies follow. */
  async cancel(tx: Kysely<any>, calendar: CalendarRow, doc: EventDoc, sendUpdates: SendUpdates): Promise<void> {
    const now = new Date(this.#ctx.clock.now()).toISOString();
    const cancelled: EventDoc = { ...doc, status: 'cancelled', updated: now, sequence: doc.sequence + 1 };
    await this.save(tx, calendar, cancelled);
    await this.#invitations.afterWrite(tx, this, calendar.id, cancelled, doc, sendUpdates);
    if (doc.recurrence) {
      for (const ex of await this.#store.exceptions(tx, calendar.id, doc.id)) {
        if (ex.doc.status === 'cancelled') continue;
        const exDoc: EventDoc = { ...ex.doc, status: 'cancelled', updated: now };
        await this.save(tx, calendar, exDoc);
        await this.#invitations.afterWrite(tx, this, calendar.id, exDoc, ex.doc, 'none');
      }
    }
  }

  async move(caller: Caller, calendarId: string, eventId: string, destination: string, params: WriteParams): Promise<Saved> {
    return this.#ctx.db.write(async (tx) => {
      const source = await this.#calendars.resolve(caller, calendarId, 'writer', tx);
      const target = await this.#calendars.resolve(caller, destination, 'writer', tx);
      const loaded = await this.load(tx, source.calendar, eventId);
      if (!loaded || !loaded.row) throw loaded ? badRequest('An instance of a recurring event cannot be moved.', 'eventId') : notFound();
      const doc = loaded.doc;
      if (doc.status === 'cancelled') throw deleted();
      if (doc.recurringEventId) throw badRequest('An instance of a recurring event cannot be moved.', 'eventId');
      if (doc.eventType !== 'default') throw badRequest(`Events of type ${doc.eventType} cannot be moved.`, 'eventId', 'eventTypeRestriction');
      if (target.calendar.id === source.calendar.id) return { doc, etag: loaded.etag, calendar: source.calendar };
      if (await this.#store.event(tx, target.calendar.id, doc.id)) throw duplicate();
      const now = new Date(this.#ctx.clock.now()).toISOString();
      const organizer = { email: target.calendar.id, displayName: target.calendar.doc.summary };
      const moved: EventDoc = { ...doc, organizer, updated: now };
      const saved = await this.save(tx, target.calendar, moved);
      await this.save(tx, source.calendar, { ...doc, status: 'cancelled', updated: now });
      for (const ex of await this.#store.exceptions(tx, source.calendar.id, doc.id)) {
        await this.save(tx, target.calendar, { ...ex.doc, organizer, updated: now });
        await this.save(tx, source.calendar, { ...ex.doc, status: 'cancelled', updated: now });
      }
      await this.#invitations.afterWrite(tx, this, target.calendar.id, moved, doc, params.sendUpdates);
      return saved;
    });
  }

  async #scheduleConference(tx: Kysely<any>, calendarId: string, doc: EventDoc): Promise<void> {
    await this.#ctx.jobs.schedule(
      {
        service: 'calendar',
        kind: 'conference',
        runAt: this.#ctx.clock.now() + CONFERENCE_DELAY_MS,
        payload: { calendarId, eventId: doc.id, requestId: doc.conferenceData!.createRequest!.requestId },
        key: `calendar:conference:${calendarId}:${doc.id}`,
      },
      tx,
    );
  }

  /** The durable job: the pending create request of an event becomes a conference (or fails). */
  async completeConference(payload: { calendarId: string; eventId: string; requestId: string }): Promise<void> {
    await this.#ctx.db.write(async (tx) => {
      const calendar = await this.#store.calendar(tx, payload.calendarId);
      const row = calendar && (await this.#store.event(tx, calendar.id, payload.eventId));
      const request = row?.doc.conferenceData?.createRequest;
      if (!calendar || !row || request?.requestId !== payload.requestId || request.status.statusCode !== 'pending') return;
      const conferenceData = completeRequest(row.doc.conferenceData!, `${this.#ctx.baseUrl}/meet`);
      const doc: EventDoc = { ...row.doc, conferenceData, updated: new Date(this.#ctx.clock.now()).toISOString() };
      const video = conferenceData.entryPoints?.find((p) => p.entryPointType === 'video');
      if (video) doc.hangoutLink = video.uri;
      await this.save(tx, calendar, doc);
      await this.#invitations.afterWrite(tx, this, calendar.id, doc, row.doc, 'none');
    });
  }

  /** The attendee copy of an organizer's event in a user's primary calendar (personal fields kept). */
  async saveCopy(tx: Kysely<any>, principalId: string, email: string, name: string, doc: EventDoc, cancelled: boolean): Promise<void> {
    await this.#calendars.ensurePrimary(tx, principalId, email, name);
    const calendar = (await this.#store.calendar(tx, email))!;
    const existing = await this.#store.event(tx, calendar.id, doc.id);
    if (!existing && cancelled) return;
    const { source: _s, ...shared } = doc;
    const copy: EventDoc = { ...shared, status: cancelled ? 'cancelled' : doc.status };
    if (existing) for (const k of PERSONAL) (copy as unknown as Record<string, unknown>)[k] = existing.doc[k];
    if (copy.colorId === undefined) delete copy.colorId;
    if (existing && stableJson(existing.doc) === stableJson(copy)) return;
    await this.save(tx, calendar, copy, existing?.doc);
  }
}

function dropUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}
