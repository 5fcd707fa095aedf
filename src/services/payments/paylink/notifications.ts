// Messages about a token: bill-payment e-mail and SMS (to the outbox; SMS held outside the polite window), the
// merchant's notification and the payer's receipt after payment, and the postback webhook with the final result.
import { XMLBuilder } from 'fast-xml-parser';
import type { Merchant, PaymentsDeps } from '../contract.ts';
import { isoMs } from '../../../core/time.ts';
import { politeDeliverAfter } from './domain/notification-rules.ts';
import { EV } from './events.ts';
import type { EmailPath } from './request.ts';
import type { PaylinkStore, TokenRecord } from './store.ts';

const SMS_MAX = 153;

/** Header naming what an outbox message of a token is, so its status can report which kinds were delivered. */
export const KIND_HEADER = 'x-paylink-message';
export type MessageKind = 'bill-notification' | 'merchant-notification' | 'receipt' | 'postback';

export class PaylinkNotifier {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly store: PaylinkStore,
  ) {}

  payUrl(t: TokenRecord): string {
    return `${this.deps.ctx.baseUrl}/pay/${t.token}`;
  }

  shortUrl(t: TokenRecord): string {
    return `${this.deps.ctx.baseUrl}/u/${t.usc}`;
  }

  async sendEmails(t: TokenRecord, merchant: Merchant, paths: EmailPath[], attachmentNames: string[]): Promise<void> {
    const bill = t.bill ?? {};
    for (const path of paths) {
      const lines = [
        bill.addressee ? `Dear ${bill.addressee},` : 'Hello,',
        '',
        `${merchant.name} asks you to pay ${money(t.amount, t.currency)}${bill.descriptor ? ` for ${bill.descriptor}` : ''}.`,
        ...(bill.due ? [`Payment is due by ${bill.due}.`] : []),
        ...(bill.memo ? ['', String(bill.memo)] : []),
        '',
        `Pay securely at ${this.payUrl(t)}`,
        ...(attachmentNames.length ? ['', `Attached: ${attachmentNames.join(', ')}`] : []),
        '',
        `Reference: ${t.identifier}`,
      ];
      const headers: Record<string, string> = { [KIND_HEADER]: 'bill-notification' };
      if (path.cc.length) headers.cc = path.cc.join(', ');
      if (path.bcc.length) headers.bcc = path.bcc.join(', ');
      if (path.reply_to.length) headers['reply-to'] = path.reply_to.join(', ');
      await this.deps.ctx.outbox.enqueue({
        service: 'payments',
        channel: 'email',
        recipient: path.to.join(', '),
        subject: `Payment request from ${merchant.name}`,
        body: lines.join('\n'),
        headers,
        correlation: t.token,
      });
      const count = path.to.length + path.cc.length + path.bcc.length;
      await this.store.addEvent(t.seq, this.deps.ctx.clock.now(), EV.emailQueued, `E-mail notification queued for ${count} recipient(s)`);
    }
  }

  async sendSms(t: TokenRecord, merchant: Merchant, numbers: string[]): Promise<void> {
    const now = this.deps.ctx.clock.now();
    const link = this.shortUrl(t);
    const tail = ` ${money(t.amount, t.currency)} due. Pay at ${link}`;
    const body = `${merchant.name.slice(0, Math.max(0, SMS_MAX - tail.length))}${tail}`.slice(0, SMS_MAX);
    for (const to of numbers) {
      const deliverAfter = politeDeliverAfter(now, merchant.timeZone);
      await this.deps.ctx.outbox.enqueue({ service: 'payments', channel: 'sms', recipient: to, body, headers: { [KIND_HEADER]: 'bill-notification' }, correlation: t.token, deliverAfter });
      const held = deliverAfter === undefined ? '' : `, held until ${isoMs(deliverAfter)} (outside the polite window)`;
      await this.store.addEvent(t.seq, now, EV.smsQueued, `SMS notification queued${held}`);
    }
    await this.store.markSmsSent(t.seq, now);
  }

  /** After payment: the merchant's notification e-mail, the payer's receipt, and the postback. */
  async afterPayment(t: TokenRecord, merchant: Merchant, result: Record<string, unknown>, licenceKey: string | undefined): Promise<void> {
    const now = this.deps.ctx.clock.now();
    const options: string[] = t.request.config?.options ?? [];
    const summary = `${money(Number(result.amount), String(result.currency || t.currency))} ${result.authorised ? 'paid' : 'declined'} for ${t.identifier} (transaction ${result.transno})`;
    if (result.authorised && t.request.email && !options.includes('BYPASS_MERCHANT_EMAIL')) {
      await this.deps.ctx.outbox.enqueue({ service: 'payments', channel: 'email', recipient: t.request.email, subject: `Paylink payment received: ${t.identifier}`, body: summary, headers: { [KIND_HEADER]: 'merchant-notification' }, correlation: t.token });
      await this.store.addEvent(t.seq, now, EV.merchantEmailQueued, 'Merchant notification e-mail queued');
    }
    const payerEmail = t.request.cardholder?.email;
    if (result.authorised && payerEmail && !options.includes('BYPASS_CUSTOMER_EMAIL')) {
      await this.deps.ctx.outbox.enqueue({ service: 'payments', channel: 'email', recipient: payerEmail, subject: `Your payment to ${merchant.name}`, body: `Thank you. ${summary}. Authorisation code ${result.authcode}.`, headers: { [KIND_HEADER]: 'receipt' }, correlation: t.token });
      await this.store.addEvent(t.seq, now, EV.receiptEmailQueued, 'Customer receipt e-mail queued');
    }
    await this.postback(t, result, licenceKey);
  }

  /** The final result, POSTed to the merchant's postback address as JSON (retried by the outbox). */
  async postback(t: TokenRecord, result: Record<string, unknown>, licenceKey: string | undefined): Promise<void> {
    const config = t.request.config ?? {};
    if (!config.postback || config.postbackPolicy === 'none') return;
    const body: Record<string, unknown> = {
      ...postbackFields(result, t),
      ...(config.passThroughData !== undefined ? { passThroughData: config.passThroughData } : {}),
      ...(Object.keys(t.customValues).length ? { custom_params: t.customValues } : {}),
    };
    if (licenceKey && result.authcode !== undefined) {
      body.sha256 = this.deps.digest(
        { authcode: String(result.authcode ?? ''), amount: Number(result.amount), result_code: String(result.result_code), merchantid: t.merchantid, transno: Number(result.transno), identifier: t.identifier },
        licenceKey,
      );
    }
    const xml = config.postbackFormat === 'xml';
    await this.deps.ctx.outbox.enqueue({
      service: 'payments',
      channel: 'webhook',
      recipient: config.postback,
      body: xml ? postbackXml(body) : JSON.stringify(body),
      headers: { ...(config.passThroughHeaders ?? {}), 'content-type': xml ? 'text/xml; charset=utf-8' : 'application/json' },
      correlation: t.token,
    });
    await this.store.addEvent(t.seq, this.deps.ctx.clock.now(), EV.postbackQueued, 'Postback of the final result queued');
    // `sync`: one delivery attempt before the payer's browser is answered; a failure falls back to the retries.
    if (config.postbackPolicy === 'sync') await this.deps.ctx.outbox.deliverDue();
  }
}

function postbackFields(r: Record<string, unknown>, t: TokenRecord): Record<string, unknown> {
  return {
    amount: r.amount,
    authcode: r.authcode,
    authorised: String(Boolean(r.authorised)),
    currency: r.currency,
    datetime: r.datetime,
    errorcode: r.result_code,
    errormessage: r.result_message,
    identifier: t.identifier,
    merchantid: t.merchantid,
    mode: 'test',
    result: r.result,
    // O open for settlement, P a pre-authorisation awaiting capture.
    status: r.trans_status === 'P' ? 'P' : 'O',
    transno: r.transno,
    maskedPan: r.maskedpan,
    cardScheme: r.scheme,
    cardSchemeId: r.scheme_id,
    authenticationResult: r.authen_result,
    cavv: r.cavv,
    eci: r.eci,
    AVSResponse: r.avs_result,
    CSCResponse: r.csc_result,
    token: t.token,
  };
}

const xmlBuilder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false, processEntities: true });

/** The postback as XML, under the legacy Paylink root element. */
function postbackXml(body: Record<string, unknown>): string {
  const clean = JSON.parse(JSON.stringify(body));
  return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ paylinkTransactionResult: clean })}`;
}

/** Minor units shown with two decimals and the currency code (enough for a notification). */
export function money(amount: number, currency: string): string {
  return `${(amount / 100).toFixed(2)} ${currency}`;
}
