// Query parameters of the event methods: parsed once, every wrong value refused with a 400 naming the parameter.
import { parseRfc3339 } from '../../../core/time.ts';
import { badRequest, calendarError } from './errors.ts';
import { EVENT_TYPES } from './event.ts';
import { knownZone } from './zone.ts';

export type Query = Record<string, unknown>;

const first = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);
const all = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

export function boolParam(q: Query, name: string, fallback = false): boolean {
  const v = first(q[name]);
  if (v === undefined || v === '') return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest(`Invalid boolean value for ${name}: ${String(v)}`, name);
}

export function intParam(q: Query, name: string, min: number, max: number): number | undefined {
  const v = first(q[name]);
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`Invalid value for ${name}: ${String(v)}`, name);
  return n;
}

export function strParam(q: Query, name: string, max = 1024): string | undefined {
  const v = first(q[name]);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > max) throw badRequest(`Invalid value for ${name}.`, name);
  return v;
}

export function timeParam(q: Query, name: string): number | undefined {
  const v = strParam(q, name, 64);
  if (v === undefined) return undefined;
  const i = parseRfc3339(v);
  if (!i) throw badRequest(`Bad Request: ${name} must be an RFC 3339 timestamp with a time zone offset.`, name);
  return i.seconds * 1000;
}

export function zoneParam(q: Query): string | undefined {
  const v = strParam(q, 'timeZone', 128);
  if (v !== undefined && !knownZone(v)) throw badRequest(`Invalid time zone: ${v}`, 'timeZone');
  return v;
}

export function enumParam<T extends string>(q: Query, name: string, values: readonly T[]): T | undefined {
  const v = strParam(q, name, 64);
  if (v === undefined) return undefined;
  if (!values.includes(v as T)) throw badRequest(`Invalid value for ${name}: ${v}`, name);
  return v as T;
}

/** A window whose end is not after its start holds nothing: refused as Calendar does (events.list, instances, freeBusy). */
export function checkTimeRange(timeMin: number | undefined, timeMax: number | undefined): void {
  if (timeMin !== undefined && timeMax !== undefined && timeMin >= timeMax) {
    throw calendarError(400, 'timeRangeEmpty', 'The specified time range is empty.', 'timeMax');
  }
}

/** A list with `syncToken` refuses the parameters in `forbidden`, and the flags in `notFalse` set to false. */
export function refuseWithSyncToken(q: Query, forbidden: readonly string[], notFalse: readonly string[]): void {
  for (const name of forbidden) {
    if (q[name] !== undefined) throw badRequest(`The ${name} parameter cannot be used together with syncToken.`, name);
  }
  for (const name of notFalse) {
    if (first(q[name]) === 'false') throw badRequest(`The ${name} parameter cannot be false together with syncToken.`, name);
  }
}

export interface WriteQuery {
  conferenceDataVersion: number;
  supportsAttachments: boolean;
  sendUpdates: 'all' | 'externalOnly' | 'none';
  maxAttendees?: number;
}

export function readWriteQuery(q: Query): WriteQuery {
  const sendUpdates = enumParam(q, 'sendUpdates', ['all', 'externalOnly', 'none'] as const);
  const legacy = boolParam(q, 'sendNotifications', false);
  return {
    conferenceDataVersion: intParam(q, 'conferenceDataVersion', 0, 1) ?? 0,
    supportsAttachments: boolParam(q, 'supportsAttachments'),
    sendUpdates: sendUpdates ?? (legacy ? 'all' : 'none'),
    maxAttendees: intParam(q, 'maxAttendees', 1, 1_000_000),
  };
}

export interface ListQuery {
  maxResults: number;
  pageToken?: string;
  syncToken?: string;
  timeMin?: number;
  timeMax?: number;
  singleEvents: boolean;
  orderBy?: 'startTime' | 'updated';
  showDeleted: boolean;
  showHiddenInvitations: boolean;
  iCalUID?: string;
  q?: string;
  updatedMin?: number;
  timeZone?: string;
  eventTypes: string[];
  privateProperties: Array<[string, string]>;
  sharedProperties: Array<[string, string]>;
  maxAttendees?: number;
}

const SYNC_FORBIDDEN = ['iCalUID', 'orderBy', 'privateExtendedProperty', 'q', 'sharedExtendedProperty', 'timeMin', 'timeMax', 'updatedMin'];

function properties(q: Query, name: string): Array<[string, string]> {
  return all(q[name]).map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0) throw badRequest(`Invalid value for ${name}: ${p} (name=value expected).`, name);
    return [p.slice(0, eq), p.slice(eq + 1)];
  });
}

export function readListQuery(q: Query): ListQuery {
  const out: ListQuery = {
    maxResults: intParam(q, 'maxResults', 1, Number.MAX_SAFE_INTEGER) ?? 250,
    pageToken: strParam(q, 'pageToken', 4096),
    syncToken: strParam(q, 'syncToken', 4096),
    timeMin: timeParam(q, 'timeMin'),
    timeMax: timeParam(q, 'timeMax'),
    singleEvents: boolParam(q, 'singleEvents'),
    orderBy: enumParam(q, 'orderBy', ['startTime', 'updated'] as const),
    showDeleted: boolParam(q, 'showDeleted'),
    showHiddenInvitations: boolParam(q, 'showHiddenInvitations'),
    iCalUID: strParam(q, 'iCalUID'),
    q: strParam(q, 'q', 1024),
    updatedMin: timeParam(q, 'updatedMin'),
    timeZone: zoneParam(q),
    eventTypes: all(q.eventTypes),
    privateProperties: properties(q, 'privateExtendedProperty'),
    sharedProperties: properties(q, 'sharedExtendedProperty'),
    maxAttendees: intParam(q, 'maxAttendees', 1, 1_000_000),
  };
  out.maxResults = Math.min(out.maxResults, 2500);
  for (const t of out.eventTypes) if (!(EVENT_TYPES as readonly string[]).includes(t)) throw badRequest(`Invalid value for eventTypes: ${t}`, 'eventTypes');
  // A sync always carries the deletions since the token, so they cannot be asked away.
  if (out.syncToken !== undefined) refuseWithSyncToken(q, SYNC_FORBIDDEN, ['showDeleted']);
  if (out.orderBy === 'startTime' && !out.singleEvents) {
    throw badRequest('The requested ordering is not available for the particular query.', 'orderBy');
  }
  checkTimeRange(out.timeMin, out.timeMax);
  return out;
}
