// What the merchant API does with tokens: create them (plain or as bill payments), read their status and changes,
// move them through their life cycle, adjust them, purge attachments and resend notifications.
import { randomBytes } from 'node:crypto';
import { base58, randomToken } from '../../../core/ids.ts';
import { isoMs } from '../../../core/time.ts';
import { payError, type Caller, type Merchant, type PaymentsDeps } from '../contract.ts';
import { guardSourceValue, guardsWithoutSource, type GuardDefinition } from './domain/field-guard.ts';
import { resendRefusal } from './domain/notification-rules.ts';
import { transition, type MerchantAction } from './domain/token-state.ts';
import { EV } from './events.ts';
import { money, PaylinkNotifier } from './notifications.ts';
import type { BillPaymentRequest, TokenRequest } from './request.ts';
import { tokenStatus } from './status.ts';
import type { PaylinkStore, TokenRecord } from './store.ts';

export const UPLOAD_VALIDITY_MS = 24 * 3_600_000;
const SERVER_VERSION = '6.6.40';

const ACTION_EVENTS: Record<MerchantAction, { event: string; message: string }> = {
  cancel: { event: EV.cancelled, message: 'Token cancelled' },
  close: { event: EV.closed, message: 'Token closed' },
  reopen: { event: EV.reopened, message: 'Token reopened' },
  reconcile: { event: EV.reconciled, message: 'Token reconciled' },
};

/** A guard with its expected value, as sealed in the token row. */
export interface SealedGuard {
  name: string;
  label: string;
  field_type: string;
  value: string;
}

export class PaylinkTokens {
  readonly notifier: PaylinkNotifier;

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly store: PaylinkStore,
  ) {
    this.notifier = new PaylinkNotifier(deps, store);
  }

  private get now(): number {
    return this.deps.ctx.clock.now();
  }

  /** `format` is the create call's body format: the postback answers in the same one. */
  async create(merchant: Merchant, req: TokenRequest, bill: BillPaymentRequest | undefined, source: string, format: 'json' | 'xml' = 'json') {
    if (req.currency && req.currency !== merchant.currency) throw payError(422, 'P034', `The merchant account processes ${merchant.currency} only.`, req.identifier);
    const sources = { identifier: req.identifier, cardholder: req.cardholder, customParams: req.config.customParams, passThroughData: req.config.passThroughData };
    const missing = guardsWithoutSource(req.config.guards, sources);
    if (missing.length > 0) throw payError(422, 'D041', `No source value for field guard ${missing.join(', ')}`, req.identifier);
    const now = this.now;
    const token = base58(randomBytes(16));
    const { guards, ...config } = req.config;
    const sealed = guards.map((g) => sealGuard(g, guardSourceValue(g, sources)!));
    const record: Omit<TokenRecord, 'seq'> = {
      token,
      usc: base58(randomBytes(6)),
      merchantid: merchant.merchantid,
      clientid: merchant.clientid,
      identifier: req.identifier,
      amount: req.amount,
      currency: merchant.currency,
      state: 'created',
      paid: false,
      expiresAt: config.expiresAt,
      request: { ...req, config: { ...config, postbackFormat: format, guards: sealed.map(({ value: _v, ...shown }) => shown) } },
      bill: bill ? { addressee: bill.addressee, descriptor: bill.descriptor, due: bill.due, memo: bill.memo, emailPaths: bill.emailPaths, smsPaths: bill.smsPaths } : null,
      guardsEnc: sealed.length ? this.deps.ctx.vault.encrypt(JSON.stringify(sealed), `paylink-guards:${token}`) : null,
      payment: null,
      customValues: {},
      paymentAttempts: 0,
      emailResends: 0,
      smsResends: 0,
      lastSmsAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const seq = await this.store.insertToken(record, { at: now, state: EV.created, message: `Token created for ${money(record.amount, record.currency)}` });
    const t: TokenRecord = { ...record, seq };
    const attachments = bill ? await this.addAttachments(t, bill) : [];
    if (bill) {
      await this.notifier.sendEmails(t, merchant, bill.emailPaths, attachments.map((a) => a.name));
      if (bill.smsPaths.length) await this.notifier.sendSms(t, merchant, bill.smsPaths.map((p) => p.to));
    }
    return {
      id: String(seq),
      result: 1,
      token,
      url: this.notifier.payUrl(t),
      usc: t.usc,
      mode: 'test',
      date_created: isoMs(now),
      identifier: t.identifier,
      expires: t.expiresAt === null ? null : isoMs(t.expiresAt),
      ...(bill ? { attachments } : {}),
      server_version: SERVER_VERSION,
      source,
    };
  }

  private async addAttachments(t: TokenRecord, bill: BillPaymentRequest) {
    const results: Array<{ name: string; result: 'OK' | 'UPLOAD'; url?: string; expires?: string }> = [];
    for (const a of bill.attachments) {
      if (a.data) {
        await this.store.insertAttachment({ tokenSeq: t.seq, name: a.filename, mimeType: a.mimeType, status: 'OK', uploadHash: null, uploadExpiresAt: null, data: a.data, createdAt: this.now });
        await this.store.addEvent(t.seq, this.now, EV.attachmentAdded, `Attachment ${a.filename} added`);
        results.push({ name: a.filename, result: 'OK' });
        continue;
      }
      const uploadId = randomToken(24);
      const expiresAt = this.now + UPLOAD_VALIDITY_MS;
      await this.store.insertAttachment({ tokenSeq: t.seq, name: a.filename, mimeType: a.mimeType, status: 'UPLOAD', uploadHash: uploadHash(this.deps, uploadId), uploadExpiresAt: expiresAt, data: null, createdAt: this.now });
      await this.store.addEvent(t.seq, this.now, EV.attachmentAwaitingUpload, `Attachment ${a.filename} awaits upload`);
      results.push({ name: a.filename, result: 'UPLOAD', url: `${this.deps.ctx.baseUrl}/paylink/attachments/${uploadId}`, expires: isoMs(expiresAt) });
    }
    return results;
  }

  /** The token for the merchant API; 422 D101 when unknown; 403 when the caller's client does not own it. */
  /** The token if the caller may act on it: its client's, and its merchant's when the key names a subject. */
  async forCaller(token: string, caller: Caller): Promise<TokenRecord> {
    const t = await this.store.byToken(token);
    if (!t) throw payError(422, 'D101', 'Data is not found');
    if (t.clientid !== caller.client.clientid || (caller.subject !== undefined && caller.subject !== t.merchantid)) throw payError(403, 'S005', 'The token belongs to a merchant this client cannot access.');
    return t;
  }

  async status(t: TokenRecord) {
    const [events, attachments, messages] = await Promise.all([
      this.store.events(t.seq),
      this.store.attachments(t.seq),
      this.deps.ctx.outbox.list({ service: 'payments', correlation: t.token }),
    ]);
    return tokenStatus(t, events, attachments, messages, this.now);
  }

  /** cancel, close, reopen, reconcile: refused changes are 422 with code 000 ("non valid change"). */
  async act(t: TokenRecord, action: MerchantAction): Promise<void> {
    const now = this.now;
    const step = transition(t, action, now);
    if ('refused' in step) throw payError(422, '000', step.refused, t.identifier);
    if (!step.changed) return;
    if (!(await this.store.moveState(t.seq, t.state, step.next, now))) throw payError(422, '000', 'The token changed at the same time; read its status and retry.', t.identifier);
    await this.store.addEvent(t.seq, now, ACTION_EVENTS[action].event, ACTION_EVENTS[action].message);
  }

  async adjust(t: TokenRecord, body: Record<string, unknown>): Promise<void> {
    const amount = body.amount;
    if (amount === undefined || amount === null || amount === '') throw payError(400, 'P004', 'Amount not supplied', t.identifier);
    const n = typeof amount === 'string' && /^\d{1,9}$/.test(amount) ? Number(amount) : amount;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 999_999_999) throw payError(400, 'P005', 'amount must be a whole number of minor units, 1 to 9 digits.', t.identifier);
    if (body.identifier !== undefined && body.identifier !== t.identifier) throw payError(400, 'P045', "identifier does not match the token's identifier.", t.identifier);
    if (body.reason !== undefined && (typeof body.reason !== 'string' || body.reason.length > 255)) throw payError(400, 'P045', 'reason must be text of at most 255 characters.', t.identifier);
    const step = transition(t, 'adjust', this.now);
    if ('refused' in step) throw payError(422, '000', step.refused, t.identifier);
    if (!(await this.store.adjustAmount(t.seq, n, this.now))) throw payError(422, '000', 'The token is being paid or has been paid.', t.identifier);
    const reason = typeof body.reason === 'string' && body.reason ? `: ${body.reason}` : '';
    await this.store.addEvent(t.seq, this.now, EV.adjusted, `Amount changed from ${t.amount} to ${n}${reason}`);
  }

  async purgeAttachments(t: TokenRecord): Promise<number> {
    const purged = await this.store.purgeAttachments(t.seq);
    if (purged > 0) await this.store.addEvent(t.seq, this.now, EV.attachmentsPurged, `${purged} attachment(s) purged`);
    return purged;
  }

  async resend(t: TokenRecord, merchant: Merchant, body: Record<string, unknown>): Promise<void> {
    const request = { email: flag(body.email, 'email'), sms: flag(body.sms, 'sms') };
    if (!request.email && !request.sms) throw payError(400, 'P044', 'Set email or sms (or both) to true.', t.identifier);
    const bill = t.bill;
    if (request.email && !bill?.emailPaths?.length) throw payError(422, '000', 'The token has no e-mail notification path.', t.identifier);
    if (request.sms && !bill?.smsPaths?.length) throw payError(422, '000', 'The token has no SMS notification path.', t.identifier);
    const step = transition(t, 'adjust', this.now);
    if ('refused' in step) throw payError(422, '000', step.refused, t.identifier);
    const refusal = resendRefusal(request, { emailResends: t.emailResends, smsResends: t.smsResends, lastSmsAt: t.lastSmsAt ?? undefined }, this.now);
    if (refusal) throw payError(422, '000', refusal.reason, t.identifier);
    if (request.email) {
      const names = (await this.store.attachments(t.seq)).filter((a) => a.status === 'OK').map((a) => a.name);
      await this.notifier.sendEmails(t, merchant, bill!.emailPaths, names);
      await this.store.countResend(t.seq, 'email', this.now);
    }
    if (request.sms) {
      await this.notifier.sendSms(t, merchant, bill!.smsPaths.map((p: { to: string }) => p.to));
      await this.store.countResend(t.seq, 'sms', this.now);
    }
  }

  guardsOf(t: TokenRecord): SealedGuard[] {
    return t.guardsEnc ? JSON.parse(this.deps.ctx.vault.decrypt(t.guardsEnc, `paylink-guards:${t.token}`)) : [];
  }
}

export const uploadHash = (deps: PaymentsDeps, uploadId: string): string => deps.ctx.vault.lookupHash(`paylink-upload:${uploadId}`);

function sealGuard(g: GuardDefinition, value: string): SealedGuard {
  return { name: g.name, label: g.label ?? g.name, field_type: g.field_type ?? 'text', value };
}

function flag(v: unknown, field: string): boolean {
  if (v === undefined || v === null || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  throw payError(400, 'P045', `${field} must be true or false.`);
}
