// Transactions. State changes are conditional updates (`WHERE trans_status IN (...)`) whose row count decides who won,
// so two racing captures, voids or refunds cannot both succeed.
import { sql, type Kysely } from 'kysely';
import type { PaymentSource } from '../contract.ts';
import type { AcquirerOutcome } from '../domain/sandbox.ts';
import type { TransStatus, TransType } from '../domain/transaction-states.ts';
import { prepared, preparedInsert, type PreparedQuery } from '../../../core/db/prepared.ts';
import { expiringSlotClaim, type SlotClaim } from './slots.ts';

/** Card facts kept with a transaction: never the number itself. */
export interface TxCard {
  scheme: string;
  scheme_id: string;
  bin_description: string;
  bin_commercial: boolean;
  bin_debit: boolean;
}

/** Results of the checks made for a transaction. */
export interface TxChecks {
  avs_result: string;
  csc_result: string;
  authen_result: string;
  eci: string;
  cavv: string;
}

/** A challenged authorisation waiting for its cres: what the ACS said, and the acquirer outcome decided beforehand. */
export interface PendingChallenge {
  termurl?: string;
  acsTransId: string;
  /** The duplicate-detection slot held while the challenge is open (a keyed hash, never card data). */
  dupKey?: string;
  /** transStatus delivered by the ACS (RReq); absent until the cardholder completed the challenge. */
  acsResult?: string;
  outcome: AcquirerOutcome;
}

export interface Tx {
  id: string;
  merchantid: number;
  transno: number;
  identifier: string;
  source: PaymentSource;
  trans_type: TransType;
  trans_status: TransStatus;
  amount: number;
  original_amount: number;
  refunded: number;
  currency: string;
  maskedpan: string;
  card: TxCard;
  authcode: string;
  result: number;
  result_code: string;
  result_message: string;
  checks: TxChecks;
  trans_info: string | null;
  batch_no: number | null;
  refund_ref: number | null;
  threeds_id: string | null;
  threeds: PendingChallenge | null;
  created_at: number;
  updated_at: number;
}

export type TxOrder = 'trans_no' | 'date_when' | 'amount';

/** The table's columns: one for each field of a Tx (the type checks that none is missing). */
const TX_COLUMNS = Object.keys({
  id: true,
  merchantid: true,
  transno: true,
  identifier: true,
  source: true,
  trans_type: true,
  trans_status: true,
  amount: true,
  original_amount: true,
  refunded: true,
  currency: true,
  maskedpan: true,
  card: true,
  authcode: true,
  result: true,
  result_code: true,
  result_message: true,
  checks: true,
  trans_info: true,
  batch_no: true,
  refund_ref: true,
  threeds_id: true,
  threeds: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof Tx, true>);

export class TransactionStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Stores a new transaction, on `db` (a unit of work's transaction) when given. */
  async insert(tx: Tx, db: Kysely<any> = this.#db): Promise<void> {
    await this.#insert(db, toRow(tx));
  }

  // Every authorisation, charge and refund writes one: compiled once.
  readonly #insert = preparedInsert(() => this.#db, 'payments_transactions', TX_COLUMNS);

  async byTransno(merchantid: number, transno: number): Promise<Tx | undefined> {
    const row = await this.#db.selectFrom('payments_transactions').selectAll().where('merchantid', '=', merchantid).where('transno', '=', transno).executeTakeFirst();
    return row ? toTx(row) : undefined;
  }

  /**
   * The sale or pre-authorisation that an identifier names (refunds carry their own identifiers): the latest one that
   * was approved, since a declined, rejected or unfinished (3-D Secure) attempt with the same identifier is not the
   * order's payment; without an approved one, the latest attempt, whose state then tells why nothing can be done.
   */
  async byIdentifier(merchantid: number, identifier: string): Promise<Tx | undefined> {
    const row = await this.#db
      .selectFrom('payments_transactions')
      .selectAll()
      .where('merchantid', '=', merchantid)
      .where('identifier', '=', identifier)
      .where('trans_type', '!=', 'R')
      .orderBy(sql`case when trans_status in ('D', 'R', 'H') then 1 else 0 end`)
      .orderBy('transno', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toTx(row) : undefined;
  }

  async byThreeDs(threedsId: string): Promise<Tx | undefined> {
    const row = await this.#db.selectFrom('payments_transactions').selectAll().where('threeds_id', '=', threedsId).executeTakeFirst();
    return row ? toTx(row) : undefined;
  }

  /** Up to `limit` transactions matching an identifier or a transno since `sinceMs`, newest first. */
  async search(merchantid: number, match: { identifier?: string; transno?: number }, sinceMs: number, limit: number): Promise<Tx[]> {
    const byIdentifier = match.identifier !== undefined;
    const byTransno = match.transno !== undefined;
    // A retrieve runs this on every request: each shape (the fields matched, the limit) is compiled once.
    const shape = `${byIdentifier}/${byTransno}/${limit}`;
    let query = this.#searches.get(shape);
    if (!query) {
      query = prepared<Record<string, unknown>>(() => {
        let q = this.#db.selectFrom('payments_transactions').selectAll().where('merchantid', '=', 0).where('created_at', '>=', 0);
        if (byIdentifier) q = q.where('identifier', '=', '');
        if (byTransno) q = q.where('transno', '=', 0);
        // A literal limit: a bound one would be one more parameter on PostgreSQL, and SQLite re-plans a bound one.
        return q.orderBy('created_at', 'desc').orderBy('transno', 'desc').limit(sql.lit(limit));
      });
      this.#searches.set(shape, query);
    }
    const parameters: unknown[] = [merchantid, sinceMs];
    if (byIdentifier) parameters.push(match.identifier);
    if (byTransno) parameters.push(match.transno);
    return (await query(this.#db, ...parameters)).rows.map(toTx);
  }

  readonly #searches = new Map<string, PreparedQuery<Record<string, unknown>>>();

  /** Moves a transaction on if it is still in one of `from`; true when this call made the change. */
  async transition(id: string, from: TransStatus[], set: Partial<Pick<Tx, 'trans_status' | 'amount' | 'authcode' | 'result' | 'result_code' | 'result_message' | 'checks' | 'threeds'>>, nowMs: number): Promise<boolean> {
    const values: Record<string, unknown> = { ...set, updated_at: nowMs };
    if (set.checks) values.checks = JSON.stringify(set.checks);
    if (set.threeds !== undefined) values.threeds = set.threeds === null ? null : JSON.stringify(set.threeds);
    const res = await this.#db.updateTable('payments_transactions').set(values).where('id', '=', id).where('trans_status', 'in', from).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Voids an open sale or pre-authorisation that has no refund against it; true when this call made the change. */
  async cancel(id: string, nowMs: number): Promise<boolean> {
    const res = await this.#db
      .updateTable('payments_transactions')
      .set({ trans_status: 'C', updated_at: nowMs })
      .where('id', '=', id)
      .where('trans_status', 'in', ['O', 'P'])
      .where('refunded', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Records the ACS result of a pending challenge once (a second delivery changes nothing). */
  async recordAcsResult(id: string, threeds: PendingChallenge, nowMs: number): Promise<boolean> {
    const res = await this.#db
      .updateTable('payments_transactions')
      .set({ threeds: JSON.stringify(threeds), updated_at: nowMs })
      .where('id', '=', id)
      .where('trans_status', '=', 'H')
      .where('threeds', 'not like', '%"acsResult"%')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Adds a refund to the original if it still fits in what remains; the condition is the guard against racing refunds. */
  async addRefund(id: string, amount: number, nowMs: number): Promise<boolean> {
    const res = await this.#db
      .updateTable('payments_transactions')
      .set((eb) => ({ refunded: eb('refunded', '+', amount), updated_at: nowMs }))
      .where('id', '=', id)
      .where('trans_status', 'in', ['O', 'A', 'S'])
      .where((eb) => eb(eb('refunded', '+', amount), '<=', eb.ref('amount')))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  // ---- batches

  /** Assigns every open transaction created before `cutoff` to batch `batchNo`; answers how many moved. */
  async assignToBatch(merchantid: number, batchNo: number, cutoff: number, nowMs: number): Promise<number> {
    const res = await this.#db
      .updateTable('payments_transactions')
      .set({ trans_status: 'A', batch_no: batchNo, updated_at: nowMs })
      .where('merchantid', '=', merchantid)
      .where('trans_status', '=', 'O')
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Pre-authorisations created before `before` and never captured expire. */
  async expirePreAuths(merchantid: number, before: number, nowMs: number): Promise<number> {
    const res = await this.#db
      .updateTable('payments_transactions')
      .set({ trans_status: 'E', updated_at: nowMs })
      .where('merchantid', '=', merchantid)
      .where('trans_status', '=', 'P')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  async countOpen(merchantid: number, cutoff: number): Promise<number> {
    const row = await this.#db
      .selectFrom('payments_transactions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('merchantid', '=', merchantid)
      .where('trans_status', '=', 'O')
      .where('created_at', '<', cutoff)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sales (debits) and refunds (credits) of a batch. */
  async batchTotals(merchantid: number, batchNo: number): Promise<{ debitCount: number; debitValue: number; creditCount: number; creditValue: number }> {
    const rows = await this.#db
      .selectFrom('payments_transactions')
      .select(['trans_type', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.sum('amount').as('total')])
      .where('merchantid', '=', merchantid)
      .where('batch_no', '=', batchNo)
      .groupBy('trans_type')
      .execute();
    const out = { debitCount: 0, debitValue: 0, creditCount: 0, creditValue: 0 };
    for (const r of rows) {
      if (r.trans_type === 'R') {
        out.creditCount += Number(r.n);
        out.creditValue += Number(r.total);
      } else {
        out.debitCount += Number(r.n);
        out.debitValue += Number(r.total);
      }
    }
    return out;
  }

  async settleBatch(merchantid: number, batchNo: number, nowMs: number): Promise<void> {
    await this.#db
      .updateTable('payments_transactions')
      .set({ trans_status: 'S', updated_at: nowMs })
      .where('merchantid', '=', merchantid)
      .where('batch_no', '=', batchNo)
      .where('trans_status', '=', 'A')
      .execute();
  }

  async inBatch(merchantid: number, batchNo: number, order: { field: TxOrder; desc: boolean }, offset: number, limit: number): Promise<{ items: Tx[]; total: number }> {
    const column = order.field === 'trans_no' ? 'transno' : order.field === 'date_when' ? 'created_at' : 'amount';
    const dir = order.desc ? 'desc' : 'asc';
    const base = this.#db.selectFrom('payments_transactions').where('merchantid', '=', merchantid).where('batch_no', '=', batchNo);
    const rows = await base.selectAll().orderBy(column, dir).orderBy('transno', dir).offset(offset).limit(limit).execute();
    const count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { items: rows.map(toTx), total: Number(count.n) };
  }
}

/** One approval per identifier and card inside the merchant's window: a keyed slot claimed atomically. */
export class DuplicateGuard {
  readonly #db: Kysely<any>;
  readonly #claim: SlotClaim;
  constructor(db: Kysely<any>, claim?: SlotClaim) {
    this.#db = db;
    this.#claim = claim ?? expiringSlotClaim(db, 'payments_duplicates', ['merchantid', 'dup_key']);
  }

  /** The same guard on a transaction, sharing the claim compiled once. */
  within(tx: Kysely<any>): DuplicateGuard {
    return new DuplicateGuard(tx, this.#claim);
  }

  /** True when the slot was free (or its window had passed) and is now held until `expiresAt`. */
  claim(merchantid: number, key: string, expiresAt: number, nowMs: number): Promise<boolean> {
    return this.#claim(this.#db, [merchantid, key], expiresAt, nowMs);
  }

  /** True while someone holds the slot. */
  async held(merchantid: number, key: string, nowMs: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('payments_duplicates')
      .select('expires_at')
      .where('merchantid', '=', merchantid)
      .where('dup_key', '=', key)
      .where('expires_at', '>', nowMs)
      .executeTakeFirst();
    return row !== undefined;
  }

  async release(merchantid: number, key: string): Promise<void> {
    await this.#db.deleteFrom('payments_duplicates').where('merchantid', '=', merchantid).where('dup_key', '=', key).execute();
  }
}

function toRow(tx: Tx): Record<string, unknown> {
  return {
    ...tx,
    card: JSON.stringify(tx.card),
    checks: JSON.stringify(tx.checks),
    threeds: tx.threeds ? JSON.stringify(tx.threeds) : null,
  };
}

function toTx(r: any): Tx {
  return {
    id: r.id,
    merchantid: Number(r.merchantid),
    transno: Number(r.transno),
    identifier: r.identifier,
    source: r.source,
    trans_type: r.trans_type,
    trans_status: r.trans_status,
    amount: Number(r.amount),
    original_amount: Number(r.original_amount),
    refunded: Number(r.refunded),
    currency: r.currency,
    maskedpan: r.maskedpan,
    card: JSON.parse(r.card),
    authcode: r.authcode,
    result: Number(r.result),
    result_code: r.result_code,
    result_message: r.result_message,
    checks: JSON.parse(r.checks),
    trans_info: r.trans_info ?? null,
    batch_no: r.batch_no == null ? null : Number(r.batch_no),
    refund_ref: r.refund_ref == null ? null : Number(r.refund_ref),
    threeds_id: r.threeds_id ?? null,
    threeds: r.threeds ? JSON.parse(r.threeds) : null,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}
