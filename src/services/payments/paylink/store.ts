// Queries of the Paylink tables. State changes are conditional updates whose row count decides who won, so two
// racing requests (two payers, or a payer and a merchant cancelling) cannot both succeed.
import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/index.ts';
import type { TokenState } from './domain/token-state.ts';

export interface PaymentSummary {
  transno: number;
  authcode: string;
  amount: number;
  currency: string;
  card: string;
  maskedpan: string;
  result: number;
  result_code: string;
  result_message: string;
  authorised: boolean;
  datetime: string;
}

export interface TokenRecord {
  seq: number;
  token: string;
  usc: string;
  merchantid: number;
  clientid: string;
  identifier: string;
  amount: number;
  currency: string;
  state: TokenState;
  paid: boolean;
  expiresAt: number | null;
  request: Record<string, any>;
  bill: Record<string, any> | null;
  guardsEnc: string | null;
  payment: PaymentSummary | null;
  /** Values the payer entered for custom parameters (at the last attempt). */
  customValues: Record<string, string>;
  paymentAttempts: number;
  emailResends: number;
  smsResends: number;
  lastSmsAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface TimelineEvent {
  at: number;
  state: string;
  message: string;
}

export interface AttachmentRecord {
  id: number;
  tokenSeq: number;
  name: string;
  mimeType: string;
  status: 'OK' | 'UPLOAD' | 'PURGED';
  uploadExpiresAt: number | null;
  size: number | null;
}

export class PaylinkStore {
  private readonly db: Kysely<any>;
  constructor(private readonly database: Database) {
    this.db = database.kysely;
  }

  /** Stores a new token and the first event of its timeline in one transaction (one commit per create). */
  async insertToken(t: Omit<TokenRecord, 'seq'>, first: TimelineEvent): Promise<number> {
    return this.database.write(async (trx) => {
      const seq = await insertTokenRow(trx, t);
      await trx.insertInto('payments_paylink_events').values({ token_seq: seq, at: first.at, state: first.state, message: first.message }).execute();
      return seq;
    });
  }

  async byToken(token: string): Promise<TokenRecord | undefined> {
    const row = await this.db.selectFrom('payments_paylink_tokens').selectAll().where('token', '=', token).executeTakeFirst();
    return row ? toToken(row) : undefined;
  }

  async byUsc(usc: string): Promise<TokenRecord | undefined> {
    const row = await this.db.selectFrom('payments_paylink_tokens').selectAll().where('usc', '=', usc).executeTakeFirst();
    return row ? toToken(row) : undefined;
  }

  /** Moves the token from `from` to `to`; false when another request changed it first. */
  async moveState(seq: number, from: TokenState, to: TokenState, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_paylink_tokens')
      .set({ state: to, updated_at: now })
      .where('seq', '=', seq)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Changes the amount of an unpaid token. */
  async adjustAmount(seq: number, amount: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_paylink_tokens')
      .set({ amount, updated_at: now })
      .where('seq', '=', seq)
      .where('paid', '=', 0)
      .where('paying_until', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Reserves the token for one payment attempt (so two browsers cannot pay it twice); false when taken or paid. */
  async claimPayment(seq: number, now: number, leaseMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_paylink_tokens')
      .set({ paying_until: now + leaseMs })
      .where('seq', '=', seq)
      .where('paid', '=', 0)
      .where((eb) => eb.or([eb('paying_until', 'is', null), eb('paying_until', '<', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async saveCustomValues(seq: number, values: Record<string, string>): Promise<void> {
    await this.db.updateTable('payments_paylink_tokens').set({ custom_values: JSON.stringify(values) }).where('seq', '=', seq).execute();
  }

  /** Records the outcome of an attempt and releases the reservation; an approval marks the token paid. */
  async finishPayment(seq: number, payment: PaymentSummary, now: number): Promise<void> {
    const base = this.db
      .updateTable('payments_paylink_tokens')
      .set((eb) => ({
        payment: JSON.stringify(payment),
        payment_attempts: eb('payment_attempts', '+', 1),
        paying_until: null,
        updated_at: now,
        ...(payment.authorised ? { paid: 1, state: 'paid' } : {}),
      }))
      .where('seq', '=', seq);
    await base.execute();
  }

  /** Releases a reservation without an outcome (the attempt was refused before reaching the acquirer). */
  async releasePayment(seq: number): Promise<void> {
    await this.db.updateTable('payments_paylink_tokens').set({ paying_until: null }).where('seq', '=', seq).execute();
  }

  async countResend(seq: number, channel: 'email' | 'sms', now: number): Promise<void> {
    await this.db
      .updateTable('payments_paylink_tokens')
      .set((eb) => (channel === 'email' ? { email_resends: eb('email_resends', '+', 1), updated_at: now } : { sms_resends: eb('sms_resends', '+', 1), last_sms_at: now, updated_at: now }))
      .where('seq', '=', seq)
      .execute();
  }

  async markSmsSent(seq: number, now: number): Promise<void> {
    await this.db.updateTable('payments_paylink_tokens').set({ last_sms_at: now }).where('seq', '=', seq).execute();
  }

  /** Appends to the token's timeline; every event is a change that /paylink/token/changes reports. */
  async addEvent(seq: number, at: number, state: string, message: string): Promise<void> {
    await this.db.insertInto('payments_paylink_events').values({ token_seq: seq, at, state, message }).execute();
    await this.db.updateTable('payments_paylink_tokens').set({ updated_at: at }).where('seq', '=', seq).execute();
  }

  async events(seq: number): Promise<TimelineEvent[]> {
    const rows = await this.db.selectFrom('payments_paylink_events').select(['at', 'state', 'message']).where('token_seq', '=', seq).orderBy('id').execute();
    return rows.map((r) => ({ at: Number(r.at), state: r.state, message: r.message }));
  }

  async eventTimes(seq: number, state: string): Promise<number[]> {
    const rows = await this.db.selectFrom('payments_paylink_events').select('at').where('token_seq', '=', seq).where('state', '=', state).execute();
    return rows.map((r) => Number(r.at));
  }

  /** One page of a merchant's tokens changed at or after `after`, in `p.id` order. */
  async changes(q: { merchantid: number; after: number; descending: boolean; afterSeq?: number; limit: number }): Promise<TokenRecord[]> {
    let query = this.db
      .selectFrom('payments_paylink_tokens')
      .selectAll()
      .where('merchantid', '=', q.merchantid)
      .where('updated_at', '>=', q.after)
      .orderBy('seq', q.descending ? 'desc' : 'asc')
      .limit(q.limit);
    if (q.afterSeq !== undefined) query = query.where('seq', q.descending ? '<' : '>', q.afterSeq);
    return (await query.execute()).map(toToken);
  }

  async countChanges(merchantid: number, after: number): Promise<number> {
    const row = await this.db
      .selectFrom('payments_paylink_tokens')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('merchantid', '=', merchantid)
      .where('updated_at', '>=', after)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertAttachment(a: { tokenSeq: number; name: string; mimeType: string; status: 'OK' | 'UPLOAD'; uploadHash: string | null; uploadExpiresAt: number | null; data: Buffer | null; createdAt: number }): Promise<void> {
    await this.db
      .insertInto('payments_paylink_attachments')
      .values({
        token_seq: a.tokenSeq,
        name: a.name,
        mime_type: a.mimeType,
        status: a.status,
        upload_hash: a.uploadHash,
        upload_expires_at: a.uploadExpiresAt,
        data: a.data,
        size: a.data ? a.data.length : null,
        created_at: a.createdAt,
      })
      .execute();
  }

  async attachments(seq: number): Promise<AttachmentRecord[]> {
    const rows = await this.db
      .selectFrom('payments_paylink_attachments')
      .select(['id', 'token_seq', 'name', 'mime_type', 'status', 'upload_expires_at', 'size'])
      .where('token_seq', '=', seq)
      .orderBy('id')
      .execute();
    return rows.map(toAttachment);
  }

  async attachmentByUpload(uploadHash: string): Promise<AttachmentRecord | undefined> {
    const row = await this.db
      .selectFrom('payments_paylink_attachments')
      .select(['id', 'token_seq', 'name', 'mime_type', 'status', 'upload_expires_at', 'size'])
      .where('upload_hash', '=', uploadHash)
      .executeTakeFirst();
    return row ? toAttachment(row) : undefined;
  }

  /** Stores an uploaded file once, while its address is valid. */
  async completeUpload(id: number, data: Buffer, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('payments_paylink_attachments')
      .set({ status: 'OK', data, size: data.length, upload_hash: null, upload_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'UPLOAD')
      .where('upload_expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async attachmentData(id: number): Promise<Buffer | undefined> {
    const row = await this.db.selectFrom('payments_paylink_attachments').select('data').where('id', '=', id).executeTakeFirst();
    return row?.data ? Buffer.from(row.data) : undefined;
  }

  /** Erases every attachment's content (GDPR purge); resolves with how many still held data or an upload address. */
  async purgeAttachments(seq: number): Promise<number> {
    const res = await this.db
      .updateTable('payments_paylink_attachments')
      .set({ status: 'PURGED', data: null, size: null, upload_hash: null, upload_expires_at: null })
      .where('token_seq', '=', seq)
      .where('status', '!=', 'PURGED')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}

async function insertTokenRow(db: Kysely<any>, t: Omit<TokenRecord, 'seq'>): Promise<number> {
  const row = await db
    .insertInto('payments_paylink_tokens')
    .values({
      token: t.token,
      usc: t.usc,
      merchantid: t.merchantid,
      clientid: t.clientid,
      identifier: t.identifier,
      amount: t.amount,
      currency: t.currency,
      state: t.state,
      paid: t.paid ? 1 : 0,
      expires_at: t.expiresAt,
      request: JSON.stringify(t.request),
      bill: t.bill ? JSON.stringify(t.bill) : null,
      guards_enc: t.guardsEnc,
      payment: null,
      payment_attempts: 0,
      email_resends: 0,
      sms_resends: 0,
      last_sms_at: null,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    })
    .returning('seq')
    .executeTakeFirstOrThrow();
  return Number(row.seq);
}

function toToken(r: any): TokenRecord {
  return {
    seq: Number(r.seq),
    token: r.token,
    usc: r.usc,
    merchantid: Number(r.merchantid),
    clientid: r.clientid,
    identifier: r.identifier,
    amount: Number(r.amount),
    currency: r.currency,
    state: r.state,
    paid: Number(r.paid) === 1,
    expiresAt: r.expires_at == null ? null : Number(r.expires_at),
    request: JSON.parse(r.request),
    bill: r.bill ? JSON.parse(r.bill) : null,
    guardsEnc: r.guards_enc ?? null,
    payment: r.payment ? JSON.parse(r.payment) : null,
    customValues: r.custom_values ? JSON.parse(r.custom_values) : {},
    paymentAttempts: Number(r.payment_attempts),
    emailResends: Number(r.email_resends),
    smsResends: Number(r.sms_resends),
    lastSmsAt: r.last_sms_at == null ? null : Number(r.last_sms_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toAttachment(r: any): AttachmentRecord {
  return {
    id: Number(r.id),
    tokenSeq: Number(r.token_seq),
    name: r.name,
    mimeType: r.mime_type,
    status: r.status,
    uploadExpiresAt: r.upload_expires_at == null ? null : Number(r.upload_expires_at),
    size: r.size == null ? null : Number(r.size),
  };
}
