// Event ids: base32hex (a-v, 0-9), 5 to 1024 characters, unique per calendar; instance ids add `_<original start>`.
import { randomPooled } from '../../../core/random.ts';

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';
export const EVENT_ID = /^[a-v0-9]{5,1024}$/;
const INSTANCE_ID = /^([a-v0-9]{5,1024})_(\d{8})(?:T(\d{6})Z)?$/;

/** A new random id: 26 base32hex characters (130 bits, as many as a UUID carries). */
export function newEventId(): string {
  const bytes = randomPooled(17);
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

export interface InstanceRef {
  seriesId: string;
  /** The stamp as written in the id. */
  stamp: string;
  /** Original start: an instant for timed series, a date for all-day series. */
  originalStartMs?: number;
  originalDate?: string;
}

export function parseInstanceId(id: string): InstanceRef | undefined {
  const m = INSTANCE_ID.exec(id);
  if (!m) return undefined;
  const date = `${m[2].slice(0, 4)}-${m[2].slice(4, 6)}-${m[2].slice(6, 8)}`;
  if (m[3] === undefined) return Number.isNaN(Date.parse(date)) ? undefined : { seriesId: m[1], stamp: id.slice(m[1].length + 1), originalDate: date };
  const ms = Date.parse(`${date}T${m[3].slice(0, 2)}:${m[3].slice(2, 4)}:${m[3].slice(4, 6)}Z`);
  return Number.isNaN(ms) ? undefined : { seriesId: m[1], stamp: id.slice(m[1].length + 1), originalStartMs: ms };
}

/** The iCalendar UID of a new event (RFC 5545 wants global uniqueness; the id already has it). */
export const icalUidOf = (eventId: string): string => `${eventId}@twinstack.local`;
