// Reporting: merchant batches and the transactions in a batch.
import type { FastifyInstance } from 'fastify';
import { batchView, localDate } from '../batches.ts';
import { payError } from '../contract.ts';
import { Fields } from '../domain/fields.ts';
import { decodePageToken, DEFAULT_RESULTS, encodePageToken, MAX_RESULTS, MIN_RESULTS, parseOrderBy } from '../domain/pagination.ts';
import type { Gateway } from '../gateway.ts';
import { bodyOf, send } from '../http.ts';
import { authReference } from '../processing.ts';
import type { BatchOrder } from '../store/batches.ts';
import type { TxOrder } from '../store/transactions.ts';
import { BATCH_SCHEMAS } from './batches-schemas.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(f: Fields, name: string): string | undefined {
  const v = f.str(name, { pattern: DATE });
  if (v === undefined) return v;
  // Month 13 or day 45 make an invalid Date (whose toISOString throws), 2026-02-30 another day: neither is the date.
  const day = new Date(`${v}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== v) throw payError(400, 'P045', `Field invalid: ${name} is not a calendar date`);
  return v;
}

const shiftYears = (date: string, years: number): string => `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;

function paging(f: Fields) {
  return {
    maxResults: f.int('maxResults', { min: MIN_RESULTS, max: MAX_RESULTS }) ?? DEFAULT_RESULTS,
    nextToken: f.str('nextToken', { max: 500 }),
    orderBy: f.str('orderBy', { max: 200 }),
  };
}

function pathNumber(value: string | undefined, name: string, code: string): number {
  if (value === undefined || !/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647) throw payError(400, code, `Invalid ${name}`);
  return Number(value);
}

export function batchRoutes(app: FastifyInstance, g: Gateway): void {
  app.post('/v6/merchant-batch/report', BATCH_SCHEMAS.report, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'MerchantBatchReportRequest'));
    const today = localDate(g.ctx.clock.now(), 'UTC');
    const earliest = shiftYears(today, -3);
    const from = parseDate(f, 'date_from') ?? earliest;
    const until = parseDate(f, 'date_until') ?? today;
    if (from < earliest) throw payError(400, 'P045', 'Field invalid: date_from must not be older than 3 years');
    if (until < from) throw payError(400, 'P045', 'Field invalid: date_until is before date_from');
    const requested = f.intArray('merchant_id', { maxItems: 1000, min: 0, max: 2_147_483_647 });
    const page = paging(f);
    const order = parseOrderBy<BatchOrder>(page.orderBy, ['merchant_id', 'batch_no', 'net_amount']) ?? [
      { field: 'merchant_id', desc: false },
      { field: 'batch_no', desc: false },
    ];
    let merchantids: number[];
    if (requested) {
      for (const id of requested) await g.access.merchantFor(caller, id);
      merchantids = requested;
    } else {
      // A key issued for a subject reports on that merchant only.
      merchantids = (await g.access.merchantsOf(caller)).map((m) => m.merchantid);
    }
    const query = { from, until, merchantids, order, maxResults: page.maxResults };
    const offset = decodePageToken(page.nextToken, query);
    const { items, total } = await g.batches.report(merchantids, from, until, order, offset, page.maxResults);
    const next = offset + items.length < total ? encodePageToken(offset + items.length, query) : undefined;
    return send(req, reply, 'MerchantBatchReportResponse', { batches: items.map(batchView), count: total, maxResults: page.maxResults, ...(next ? { nextToken: next } : {}) });
  });

  app.get('/v6/merchant-batch/:merchantid/:batch_no', BATCH_SCHEMAS.batch, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const params = req.params as Record<string, string>;
    const merchant = await g.access.merchantFor(caller, pathNumber(params.merchantid, 'merchant id', 'P003'));
    const batch = await g.batches.get(merchant.merchantid, pathNumber(params.batch_no, 'batch number', 'B004'));
    return send(req, reply, 'MerchantBatchResponse', batchView(batch));
  });

  app.post('/v6/merchant-batch/:merchantid/:batch_no/transactions', BATCH_SCHEMAS.transactions, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const params = req.params as Record<string, string>;
    const merchant = await g.access.merchantFor(caller, pathNumber(params.merchantid, 'merchant id', 'P003'));
    const batchNo = pathNumber(params.batch_no, 'batch number', 'B004');
    const f = new Fields(bodyOf(req, 'BatchTransactionReportRequest'));
    const page = paging(f);
    const order = parseOrderBy<TxOrder>(page.orderBy, ['trans_no', 'date_when', 'amount'])?.[0] ?? { field: 'trans_no', desc: false };
    await g.batches.get(merchant.merchantid, batchNo);
    const query = { merchantid: merchant.merchantid, batchNo, order, maxResults: page.maxResults };
    const offset = decodePageToken(page.nextToken, query);
    const { items, total } = await g.transactions.inBatch(merchant.merchantid, batchNo, order, offset, page.maxResults);
    const next = offset + items.length < total ? encodePageToken(offset + items.length, query) : undefined;
    return send(req, reply, 'BatchTransactionReportResponse', { data: items.map(authReference), count: total, maxResults: page.maxResults, ...(next ? { nextToken: next } : {}) });
  });
}
