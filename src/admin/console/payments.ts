// The payments browser's data: recent transactions each with a timeline of its states, batches, and Paylink tokens
// with their own recorded timeline. Read-only; card data appears only as the stored masked number.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';

const Query = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false });

/** trans_status letters as the API documents them. */
const STATES: Record<string, string> = {
  H: 'awaiting 3-D Secure',
  P: 'pre-authorised',
  O: 'open for settlement',
  A: 'assigned to a batch',
  S: 'settled',
  C: 'cancelled',
  D: 'declined',
  R: 'rejected',
  E: 'expired',
};
const TYPES: Record<string, string> = { S: 'sale', P: 'pre-authorisation', R: 'refund' };

interface Step {
  at: string;
  state: string;
  label: string;
  detail?: string;
}

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();

export function paymentsRoutes(app: FastifyInstance, rt: Runtime): void {
  const db = () => {
    if (!rt.services.has('payments')) throw adminError(404, 'service payments is not running');
    return rt.db.kysely;
  };

  app.get('/console/api/payments/transactions', { schema: { querystring: Query } }, async (req) => {
    const { limit = 100 } = req.query as Static<typeof Query>;
    const rows = await db()
      .selectFrom('payments_transactions')
      .select(['id', 'merchantid', 'transno', 'identifier', 'source', 'trans_type', 'trans_status', 'amount', 'original_amount', 'refunded', 'currency', 'maskedpan', 'authcode', 'result_code', 'result_message', 'batch_no', 'refund_ref', 'threeds_id', 'created_at', 'updated_at'])
      .orderBy('created_at', 'desc')
      .orderBy('transno', 'desc')
      .limit(limit)
      .execute();
    const batches = await db().selectFrom('payments_batches').select(['merchantid', 'batch_no', 'batch_closed', 'status_code']).execute();
    const batchOf = new Map(batches.map((b) => [`${b.merchantid}/${b.batch_no}`, b]));
    const refunds = rows.filter((r) => r.trans_type === 'R' && r.refund_ref != null);
    return {
      transactions: rows.map((r) => ({
        id: r.id,
        merchantid: r.merchantid,
        transno: r.transno,
        identifier: r.identifier,
        source: r.source,
        type: TYPES[r.trans_type] ?? r.trans_type,
        status: r.trans_status,
        statusLabel: STATES[r.trans_status] ?? r.trans_status,
        amount: Number(r.amount),
        originalAmount: Number(r.original_amount),
        refunded: Number(r.refunded),
        currency: r.currency,
        maskedpan: r.maskedpan,
        authcode: r.authcode,
        result: `${r.result_code} ${r.result_message}`,
        batchNo: r.batch_no,
        createdAt: iso(r.created_at),
        timeline: timeline(r, r.batch_no != null ? batchOf.get(`${r.merchantid}/${r.batch_no}`) : undefined, refunds.filter((f) => f.merchantid === r.merchantid && f.refund_ref === r.transno)),
      })),
    };
  });

  app.get('/console/api/payments/batches', { schema: { querystring: Query } }, async (req) => {
    const { limit = 100 } = req.query as Static<typeof Query>;
    const rows = await db().selectFrom('payments_batches').selectAll().orderBy('batch_closed', 'desc').limit(limit).execute();
    return { batches: rows.map((b) => ({ ...b, batch_closed: iso(b.batch_closed) })) };
  });

  app.get('/console/api/payments/paylinks', { schema: { querystring: Query } }, async (req) => {
    const { limit = 100 } = req.query as Static<typeof Query>;
    const tokens = await db()
      .selectFrom('payments_paylink_tokens')
      .select(['seq', 'token', 'merchantid', 'identifier', 'amount', 'currency', 'state', 'paid', 'expires_at', 'created_at'])
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    const events = tokens.length
      ? await db().selectFrom('payments_paylink_events').select(['token_seq', 'at', 'state', 'message']).where('token_seq', 'in', tokens.map((t) => t.seq)).orderBy('id').execute()
      : [];
    const base = rt.services.get('payments')!.url;
    return {
      paylinks: tokens.map((t) => ({
        token: t.token,
        merchantid: Number(t.merchantid),
        identifier: t.identifier,
        amount: Number(t.amount),
        currency: t.currency,
        state: t.state,
        paid: !!Number(t.paid),
        expiresAt: t.expires_at != null ? iso(t.expires_at) : null,
        createdAt: iso(t.created_at),
        hostedPage: `${base}/pay/${t.token}`,
        timeline: events.filter((e) => Number(e.token_seq) === Number(t.seq)).map((e) => ({ at: iso(e.at), state: e.state, message: e.message })),
      })),
    };
  });
}

/**
 * The states a transaction went through, from what is stored: its authorisation (after a 3-D Secure challenge when it
 * had one), the batch that took it, refunds against it, and the state it is in now.
 */
function timeline(r: any, batch: any, refunds: any[]): Step[] {
  const steps: Step[] = [];
  if (r.threeds_id) steps.push({ at: iso(r.created_at), state: 'H', label: STATES.H });
  const first = r.trans_type === 'P' ? 'P' : ['D', 'R', 'H'].includes(r.trans_status) ? r.trans_status : 'O';
  if (!(r.trans_status === 'H' && r.threeds_id)) {
    steps.push({ at: iso(r.created_at), state: first, label: STATES[first], detail: `${TYPES[r.trans_type] ?? r.trans_type} ${r.result_code} ${r.result_message}` });
  }
  if (r.trans_type === 'P' && ['O', 'A', 'S'].includes(r.trans_status)) steps.push({ at: iso(r.updated_at), state: 'O', label: 'captured: open for settlement' });
  if (batch) {
    steps.push({ at: iso(batch.batch_closed), state: 'A', label: `${STATES.A} ${r.batch_no}` });
    if (r.trans_status === 'S') steps.push({ at: iso(r.updated_at), state: 'S', label: STATES.S });
  }
  for (const f of refunds) steps.push({ at: iso(f.created_at), state: 'refund', label: `refunded ${f.amount} ${f.currency}`, detail: `transno ${f.transno}` });
  const last = steps[steps.length - 1];
  if (!last || (last.state !== r.trans_status && ['C', 'E'].includes(r.trans_status))) {
    steps.push({ at: iso(r.updated_at), state: r.trans_status, label: STATES[r.trans_status] ?? r.trans_status });
  }
  return steps;
}
