// The PaylinkTokenStatus model: the token's flags (read from its state and timeline), payment data and history.
import type { OutboxMessage } from '../../../core/outbox.ts';
import { isoMs } from '../../../core/time.ts';
import { isExpired, isOpenForPayment } from './domain/token-state.ts';
import { EV } from './events.ts';
import { KIND_HEADER, type MessageKind } from './notifications.ts';
import type { AttachmentRecord, TimelineEvent, TokenRecord } from './store.ts';

/**
 * `messages` are the token's outbox messages: the "sent" flags mean delivered (an SMS held outside the polite window
 * is not sent yet; a postback counts once the merchant answered 2xx).
 */
export function tokenStatus(t: TokenRecord, events: TimelineEvent[], attachments: AttachmentRecord[], messages: OutboxMessage[], now: number) {
  const has = (...names: string[]) => events.some((e) => names.includes(e.state));
  const delivered = (channel: OutboxMessage['channel'], kind?: MessageKind) =>
    messages.some((m) => m.channel === channel && m.status === 'delivered' && (kind === undefined || m.headers[KIND_HEADER] === kind));
  const last = events.at(-1);
  return {
    token: t.token,
    identifier: t.identifier,
    mid: t.merchantid,
    amount: t.amount,
    currency: t.currency,
    state: t.state,
    created: isoMs(t.createdAt),
    datetime: isoMs(now),
    expires: t.expiresAt === null ? null : isoMs(t.expiresAt),
    last_event_date_time: last ? isoMs(last.at) : isoMs(t.createdAt),
    is_attachment: attachments.some((a) => a.status !== 'PURGED'),
    is_cancelled: t.state === 'cancelled',
    is_closed: t.state === 'closed',
    is_reconciled: t.state === 'reconciled',
    is_customer_receipt_email_sent: delivered('email', 'receipt'),
    is_email_sent: delivered('email', 'bill-notification'),
    is_expired: !t.paid && isExpired(t, now),
    is_form_viewed: has(EV.formViewed),
    is_merchant_notification_email_sent: delivered('email', 'merchant-notification'),
    is_open_for_payment: isOpenForPayment(t, now),
    is_paid: t.paid,
    is_payment_attempted: t.paymentAttempts > 0,
    is_postback_ok: delivered('webhook'),
    is_request_challenged: has(EV.challenged),
    is_sms_sent: delivered('sms', 'bill-notification'),
    is_validated: has(EV.guardValidated),
    amount_paid: t.paid && t.payment ? t.payment.amount : 0,
    auth_code: t.payment?.authcode || undefined,
    card: t.payment?.card || undefined,
    trans_no: t.payment?.transno,
    payment_attempts_count: t.paymentAttempts,
    last_payment_result: t.payment ? { result: t.payment.result, result_code: t.payment.result_code, result_message: t.payment.result_message, authorised: t.payment.authorised } : undefined,
    state_history: events.map((e) => ({ datetime: isoMs(e.at), message: e.message, state: e.state })),
  };
}
