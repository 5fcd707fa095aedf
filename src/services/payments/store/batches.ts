// Settlement batches: one row per merchant per closed business day, with its totals.
import type { Kysely } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';

export interface BatchRow {
  merchantid: number;
  batch_no: number;
  /** The business day (merchant time zone), YYYY-MM-DD. */
  batch_date: string;
  batch_closed: number;
  /** O open for settlement, S settled and remitted. */
  status_code: 'O' | 'S';
  currency: string;
  credit_count: number;
  credit_value: number;
  debit_count: number;
  debit_value: number;
  net_amount: number;
  total_count: number;
}

export type BatchOrder = 'merchant_id' | 'batch_no' | 'net_amount';

export class BatchStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async insert(b: BatchRow): Promise<void> {
    await this.#db.insertInto('payments_batches').values(b).execute();
  }

  async get(merchantid: number, batchNo: number): Promise<BatchRow | undefined> {
    const row = await this.#db.selectFrom('payments_batches').selectAll().where('merchantid', '=', merchantid).where('batch_no', '=', batchNo).executeTakeFirst();
    return row ? toBatch(row) : undefined;
  }

  async open(merchantid: number): Promise<BatchRow[]> {
    const rows = await this.#db.selectFrom('payments_batches').selectAll().where('merchantid', '=', merchantid).where('status_code', '=', 'O').execute();
    return rows.map(toBatch);
  }

  async markSettled(merchantid: number, batchNo: number): Promise<void> {
    await this.#db.updateTable('payments_batches').set({ status_code: 'S' }).where('merchantid', '=', merchantid).where('batch_no', '=', batchNo).execute();
  }

  async report(
    filter: { merchantids: number[]; from: string; until: string },
    order: Array<{ field: BatchOrder; desc: boolean }>,
    offset: number,
    limit: number,
  ): Promise<{ items: BatchRow[]; total: number }> {
    if (filter.merchantids.length === 0) return { items: [], total: 0 };
    const base = this.#db
      .selectFrom('payments_batches')
      .where(inList(this.#db, 'merchantid', filter.merchantids))
      .where('batch_date', '>=', filter.from)
      .where('batch_date', '<=', filter.until);
    let q = base.selectAll();
    for (const o of order) q = q.orderBy(o.field === 'merchant_id' ? 'merchantid' : o.field, o.desc ? 'desc' : 'asc');
    q = q.orderBy('merchantid').orderBy('batch_no');
    const rows = await q.offset(offset).limit(limit).execute();
    const count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { items: rows.map(toBatch), total: Number(count.n) };
  }
}

function toBatch(r: any): BatchRow {
  return {
    merchantid: Number(r.merchantid),
    batch_no: Number(r.batch_no),
    batch_date: r.batch_date,
    batch_closed: Number(r.batch_closed),
    status_code: r.status_code,
    currency: r.currency,
    credit_count: Number(r.credit_count),
    credit_value: Number(r.credit_value),
    debit_count: Number(r.debit_count),
    debit_value: Number(r.debit_value),
    net_amount: Number(r.net_amount),
    total_count: Number(r.total_count),
  };
}
