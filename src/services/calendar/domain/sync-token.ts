// Sync tokens: the calendar's change number at the end of a full list, bound to the calendar and the options that
// shape the result. Anything else (a token of another calendar, a forged or mangled one) needs a full sync.
import { createHash } from 'node:crypto';
import { fullSyncRequired } from './errors.ts';

export function makeSyncToken(calendarId: string, seq: number, shape: string): string {
  return `CP${Buffer.from(JSON.stringify({ s: seq, c: digest(calendarId + '\u0000' + shape) })).toString('base64url')}`;
}

export function readSyncToken(token: string, calendarId: string, shape: string): number {
  try {
    if (!token.startsWith('CP')) throw new Error('not a sync token');
    const parsed = JSON.parse(Buffer.from(token.slice(2), 'base64url').toString('utf8'));
    if (parsed.c === digest(calendarId + '\u0000' + shape) && Number.isSafeInteger(parsed.s) && parsed.s >= 0) return parsed.s;
  } catch {
    // fall through
  }
  throw fullSyncRequired();
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);
