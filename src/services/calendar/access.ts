// Who calls and what they may do: the caller is a core principal (its e-mail names its primary calendar); a calendar
// is readable or writable through ownership or the ACL (the highest role of the caller's own rule, their groups'
// rules, the public rule and their domain's rule); a caller without access sees 404, as in Calendar.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { serializeWith } from '../../core/db/serialized-writes.ts';
import { directoryEntryOf } from '../../core/google/directory.ts';
import { authenticateGoogle, SCOPE_BASE } from '../../core/google/index.ts';
import type { ServiceContext } from '../../core/service.ts';
import { directlyShared, effectiveRole, grantsFor, ROLE_RANK, scopesOf, type Member } from './domain/acl-scope.ts';
import { forbidden, notFound } from './domain/errors.ts';
import type { CalendarRow, CalendarStore } from './store.ts';

export interface Caller extends Member {
  principalId: string;
  name: string;
}

const READ_SCOPES = ['calendar', 'calendar.readonly', 'calendar.events', 'calendar.events.readonly'].map((s) => SCOPE_BASE + s);
const EVENT_WRITE_SCOPES = ['calendar', 'calendar.events'].map((s) => SCOPE_BASE + s);
const CALENDAR_WRITE_SCOPES = [`${SCOPE_BASE}calendar`];

export type Need = 'read' | 'write' | 'manage';
const SCOPES: Record<Need, string[]> = { read: READ_SCOPES, write: EVENT_WRITE_SCOPES, manage: CALENDAR_WRITE_SCOPES };

export async function authenticate(req: FastifyRequest, ctx: ServiceContext, need: Need): Promise<Caller> {
  const found = await authenticateGoogle(req, ctx.identity, { scopes: SCOPES[need], apiKey: false });
  const { email, groups } = directoryEntryOf(found.principal);
  return { principalId: found.principal.id, email, groups, name: found.principal.name };
}

export { ROLE_RANK };

export interface Access {
  calendar: CalendarRow;
  /** The caller's effective role. */
  role: string;
  /** Owned, or shared by a rule of the caller's own: on their list without calendarList.insert. */
  direct: boolean;
}

export class Calendars {
  readonly #ctx: ServiceContext;
  readonly #store: CalendarStore;

  constructor(ctx: ServiceContext, store: CalendarStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  get defaultZone(): string {
    const z = this.#ctx.settings.defaultTimeZone;
    return typeof z === 'string' ? z : 'UTC';
  }

  /** Creates the primary calendar of a user the first time it is needed. Runs on `db` (a unit's tx, or its own). */
  async ensurePrimary(db: Kysely<any> | undefined, principalId: string, email: string, name: string): Promise<void> {
    const doc = { summary: email, timeZone: this.defaultZone, description: `${name}` };
    const row = { id: email, ownerId: principalId, isPrimary: true, doc, version: this.#ctx.clock.now() };
    if (db) await this.#store.insertCalendar(db, row, this.#ctx.clock.now());
    else await this.#ctx.db.write((tx) => this.#store.insertCalendar(tx, row, this.#ctx.clock.now()));
  }

  /**
   * The calendar a path names (`primary` is the caller's own) and the caller's role on it; 404 without access, 403
   * when the role is below `need`.
   */
  async resolve(caller: Caller, rawId: string, need: 'reader' | 'writer' | 'owner' = 'reader', db: Kysely<any> = this.#ctx.kysely): Promise<Access> {
    const found = await this.find(caller, rawId, db);
    if (!found) throw notFound();
    const { role } = found;
    if (ROLE_RANK[role] < ROLE_RANK.reader) throw notFound();
    if (ROLE_RANK[role] < ROLE_RANK[need]) {
      throw forbidden(`You need to have ${need} access to this calendar.`, 'requiredAccessLevel');
    }
    return found;
  }

  /**
   * Which of these principals hold at least `need` on the calendar (its owner, or through the rules that apply to
   * them), read with one query for all their rules; none when the calendar is gone.
   */
  async holders(db: Kysely<any>, calendarId: string, principalIds: string[], need: 'reader' | 'writer' | 'owner'): Promise<Set<string>> {
    const calendar = await this.#store.calendar(db, calendarId);
    if (!calendar) return new Set();
    const members = new Map((await this.#store.principalEntries(db, principalIds)).map((p) => [p.principalId, p.entry]));
    const others = [...members].filter(([id]) => id !== calendar.ownerId);
    const rules = others.length === 0 ? [] : await this.#store.grantsOn(db, calendar.id, others.flatMap(([, member]) => scopesOf(member)));
    const out = new Set(members.has(calendar.ownerId) ? [calendar.ownerId] : []);
    for (const [id, member] of others) if (ROLE_RANK[effectiveRole(grantsFor(rules, member))] >= ROLE_RANK[need]) out.add(id);
    return out;
  }

  /**
   * The calendar a path names and the caller's effective role on it (`none` included), without any access check. The
   * caller's own, group, domain and public rules are read in one query.
   */
  async find(caller: Caller, rawId: string, db: Kysely<any> = this.#ctx.kysely): Promise<Access | undefined> {
    const id = rawId === 'primary' ? caller.email : rawId.toLowerCase() === caller.email ? caller.email : rawId;
    // Calendar writes run one after another on PostgreSQL as they do on SQLite: a unit's reads stay true until it
    // commits (a second delete of an event finds it deleted, patches of one event do not undo each other), and units
    // writing to each other's calendars (invitations) queue instead of deadlocking.
    if (db !== this.#ctx.kysely) await serializeWith(db, 'calendar writes');
    let calendar = await this.#store.calendar(db, id);
    if (!calendar && id === caller.email) {
      if (db === this.#ctx.kysely) await this.ensurePrimary(undefined, caller.principalId, caller.email, caller.name);
      else await this.ensurePrimary(db, caller.principalId, caller.email, caller.name);
      calendar = await this.#store.calendar(db, id);
    }
    if (!calendar) return undefined;
    if (calendar.ownerId === caller.principalId) return { calendar, role: 'owner', direct: true };
    const grants = await this.#store.grantsOn(db, calendar.id, scopesOf(caller));
    return { calendar, role: effectiveRole(grants), direct: directlyShared(grants) };
  }
}
