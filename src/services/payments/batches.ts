// Settlement batches: at 00:00 in each merchant's time zone the day's open transactions close into a batch (they can
// no longer be voided); the batch closed the day before is then settled, and pre-authorisations older than 7 days
// expire. Reports page through them.
import type { Clock } from '../../core/clock.ts';
import type { Jobs } from '../../core/jobs.ts';
import { zoneOffsetMs } from '../../core/time.ts';
import { payError, type Merchant } from './contract.ts';
import { displayAmount } from './domain/money.ts';
import { CAPTURE_WINDOW_MS } from './domain/transaction-states.ts';
import type { BatchOrder, BatchRow, BatchStore } from './store/batches.ts';
import type { MerchantStore } from './store/merchants.ts';
import type { TransactionStore } from './store/transactions.ts';

export const BATCH_JOB = 'close_batch';

/** The calendar date (YYYY-MM-DD) in `timeZone` at instant `ms`. */
export function localDate(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMs(timeZone, ms)).toISOString().slice(0, 10);
}

export class Batches {
  readonly #batches: BatchStore;
  readonly #transactions: TransactionStore;
  readonly #merchants: MerchantStore;
  readonly #clock: Clock;
  readonly #jobs: Jobs;

  constructor(deps: { batches: BatchStore; transactions: TransactionStore; merchants: MerchantStore; clock: Clock; jobs: Jobs }) {
    this.#batches = deps.batches;
    this.#transactions = deps.transactions;
    this.#merchants = deps.merchants;
    this.#clock = deps.clock;
    this.#jobs = deps.jobs;
  }

  /** Arms (or re-arms after a time-zone change) the merchant's daily close. */
  schedule(merchant: Merchant): Promise<void> {
    return this.#jobs.daily({
      service: 'payments',
      kind: BATCH_JOB,
      key: `payments-batch-${merchant.merchantid}`,
      at: '00:00',
      timeZone: merchant.timeZone,
      payload: { merchantid: merchant.merchantid },
    });
  }

  async unschedule(merchantid: number): Promise<void> {
    await this.#jobs.cancel(`payments-batch-${merchantid}`);
  }

  /** Closes everything open before `cutoff` into a new batch; no batch for a day without transactions. */
  async close(merchantid: number, cutoff: number): Promise<BatchRow | undefined> {
    const merchant = await this.#merchants.get(merchantid);
    if (!merchant) return undefined;
    const now = this.#clock.now();
    for (const b of await this.#batches.open(merchantid)) {
      await this.#transactions.settleBatch(merchantid, b.batch_no, now);
      await this.#batches.markSettled(merchantid, b.batch_no);
    }
    await this.#transactions.expirePreAuths(merchantid, cutoff - CAPTURE_WINDOW_MS, now);
    if ((await this.#transactions.countOpen(merchantid, cutoff)) === 0) return undefined;
    const batchNo = await this.#merchants.nextBatchNo(merchantid);
    await this.#transactions.assignToBatch(merchantid, batchNo, cutoff, now);
    const t = await this.#transactions.batchTotals(merchantid, batchNo);
    const row: BatchRow = {
      merchantid,
      batch_no: batchNo,
      batch_date: localDate(cutoff - 1, merchant.timeZone),
      batch_closed: now,
      status_code: 'O',
      currency: merchant.currency,
      credit_count: t.creditCount,
      credit_value: t.creditValue,
      debit_count: t.debitCount,
      debit_value: t.debitValue,
      net_amount: t.debitValue - t.creditValue,
      total_count: t.creditCount + t.debitCount,
    };
    await this.#batches.insert(row);
    return row;
  }

  report(merchantids: number[], from: string, until: string, order: Array<{ field: BatchOrder; desc: boolean }>, offset: number, limit: number) {
    return this.#batches.report({ merchantids, from, until }, order, offset, limit);
  }

  async get(merchantid: number, batchNo: number): Promise<BatchRow> {
    const b = await this.#batches.get(merchantid, batchNo);
    if (!b) throw payError(422, 'B002', `Batch ${batchNo} does not exist for merchant ${merchantid}`);
    return b;
  }
}

/** MerchantBatchResponse. */
export function batchView(b: BatchRow) {
  return {
    batch_closed: new Date(b.batch_closed).toISOString(),
    batch_date: b.batch_date,
    batch_no: String(b.batch_no),
    batch_status: b.status_code === 'O' ? 'Open for settlement' : 'Settled and remitted',
    batch_status_code: b.status_code,
    currency: b.currency,
    merchantid: b.merchantid,
    net_summary: {
      credit_items_amount: displayAmount(b.credit_value, b.currency),
      credit_items_count: b.credit_count,
      credit_items_value: b.credit_value,
      debit_items_amount: displayAmount(b.debit_value, b.currency),
      debit_items_count: b.debit_count,
      debit_items_value: b.debit_value,
      net_amount: b.net_amount,
      total_count: b.total_count,
    },
  };
}
