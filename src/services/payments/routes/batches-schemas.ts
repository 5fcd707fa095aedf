// Documented requests of the reporting operations (routes/batches.ts checks them itself).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../core/http/documented.ts';
import { model, paging } from './shapes.ts';

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' } as const;

const MerchantBatchReportRequest = model(
  'MerchantBatchReportRequest',
  {},
  {
    date_from: Type.String({ ...DATE, description: 'First day (inclusive), not older than 3 years; 3 years ago when absent.' }),
    date_until: Type.String({ ...DATE, description: 'Last day (inclusive), not before date_from; today when absent.' }),
    merchant_id: Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), { maxItems: 1000, description: "Merchants to report on; every merchant of the client when absent." }),
    ...paging(['merchant_id', 'batch_no', 'net_amount']),
  },
  'Batches of daily processing (generated at 00:00 each day); ordered by merchant_id then batch_no unless orderBy says otherwise.',
);

const BatchTransactionReportRequest = model('BatchTransactionReportRequest', {}, paging(['trans_no', 'date_when', 'amount']), 'The transactions of one batch, by trans_no unless orderBy says otherwise.');

const PathNumber = (description: string) => Type.String({ pattern: '^\\d{1,10}$', description: `${description} (at most 2147483647).` });
const BatchParams = Type.Object({ merchantid: PathNumber('Merchant id'), batch_no: PathNumber('Batch number') });

export const BATCH_SCHEMAS = {
  report: documented({ body: MerchantBatchReportRequest }),
  batch: documented({ params: BatchParams }),
  transactions: documented({ params: BatchParams, body: BatchTransactionReportRequest }),
};
