// Bill-payment notification rules: how many paths and addresses a request may carry, when an SMS may be sent
// (the polite window in the merchant's time zone), and how often a notification may be resent.
import { zoneOffsetMs } from '../../../../core/time.ts';

export const MAX_PATHS = 3;
export const MAX_ADDRESSES = 5;
export const MAX_EMAIL_RESENDS = 5;
export const MAX_SMS_RESENDS = 3;
export const SMS_RESEND_GAP_MS = 60_000;
export const POLITE_START_HOUR = 8;
export const POLITE_END_HOUR = 21;

const EMAIL = /^[^\s@<>(),;:"[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

export const isEmailAddress = (s: string): boolean => s.length <= 254 && EMAIL.test(s);
export const isE164 = (s: string): boolean => E164.test(s);

/**
 * The hour-of-day window in which an SMS is sent. Inside it: undefined (send now). Outside it: the next time the
 * window opens, which is when the queued SMS is released.
 */
export function politeDeliverAfter(now: number, timeZone: string): number | undefined {
  const offset = zoneOffsetMs(timeZone, now);
  const local = now + offset;
  const dayStart = Math.floor(local / 86_400_000) * 86_400_000;
  const hour = (local - dayStart) / 3_600_000;
  if (hour >= POLITE_START_HOUR && hour < POLITE_END_HOUR) return undefined;
  const nextOpenLocal = dayStart + POLITE_START_HOUR * 3_600_000 + (hour >= POLITE_END_HOUR ? 86_400_000 : 0);
  // Re-read the offset at the target so a daylight-saving change overnight does not shift the opening hour.
  return nextOpenLocal - zoneOffsetMs(timeZone, nextOpenLocal - offset);
}

export interface SendHistory {
  /** Resends of the e-mail path so far (the first send is not a resend). */
  emailResends: number;
  /** Resends of the SMS path so far. */
  smsResends: number;
  /** When the last SMS (first send or resend) was queued; undefined when none was. */
  lastSmsAt?: number;
}

export type ResendRefusal = { channel: 'email' | 'sms'; reason: string };

/** Why a resend request cannot be honoured, or undefined when it can. */
export function resendRefusal(request: { email: boolean; sms: boolean }, history: SendHistory, now: number): ResendRefusal | undefined {
  if (request.email && history.emailResends >= MAX_EMAIL_RESENDS) {
    return { channel: 'email', reason: `The e-mail notification has already been resent ${MAX_EMAIL_RESENDS} times.` };
  }
  if (request.sms) {
    if (history.smsResends >= MAX_SMS_RESENDS) {
      return { channel: 'sms', reason: `The SMS notification has already been resent ${MAX_SMS_RESENDS} times.` };
    }
    if (history.lastSmsAt !== undefined && now - history.lastSmsAt < SMS_RESEND_GAP_MS) {
      return { channel: 'sms', reason: 'An SMS notification was sent less than a minute ago.' };
    }
  }
  return undefined;
}
