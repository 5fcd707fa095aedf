// The merchant side of Paylink (pay-api-key): create tokens and bill payments, read status and changes, and move
// tokens through their life cycle. Answers are the API's models in JSON or XML.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { payError, type Caller, type PaymentsDeps } from '../../contract.ts';
import { encodeNextToken, parseChangesPage } from '../domain/changes-page.ts';
import type { MerchantAction } from '../domain/token-state.ts';
import { parseBillPaymentRequest, parseTokenRequest, unwrap } from '../request.ts';
import type { PaylinkStore, TokenRecord } from '../store.ts';
import type { PaylinkTokens } from '../tokens.ts';
import { PAYLINK_SCHEMAS } from './schemas.ts';

const ACTIONS: Array<{ path: string; action: MerchantAction; message: string }> = [
  { path: 'cancel', action: 'cancel', message: 'Token cancelled' },
  { path: 'close', action: 'close', message: 'Token closed' },
  { path: 'reopen', action: 'reopen', message: 'Token reopened' },
  { path: 'reconciled', action: 'reconcile', message: 'Token reconciled' },
];

export function registerMerchantApi(app: FastifyInstance, deps: PaymentsDeps, tokens: PaylinkTokens, store: PaylinkStore): void {
  const now = () => deps.ctx.clock.now();

  /** Authenticates the caller and loads a token of one of its merchants. */
  const callerToken = async (req: FastifyRequest): Promise<{ caller: Caller; token: TokenRecord }> => {
    const caller = await deps.authenticate(req);
    const token = await tokens.forCaller((req.params as { token: string }).token, caller);
    return { caller, token };
  };

  app.post('/paylink/create', PAYLINK_SCHEMAS.create, async (req, reply) => {
    const caller = await deps.authenticate(req);
    const request = parseTokenRequest(unwrap(deps.bodyOf(req, 'PaylinkTokenRequestModel'), 'PaylinkTokenRequestModel'), now());
    const merchant = await deps.merchantFor(caller, request.merchantid);
    return deps.send(req, reply, 'PaylinkTokenCreated', await tokens.create(merchant, request, undefined, req.ip, wireFormat(req)));
  });

  app.post('/paylink/bill-payment', PAYLINK_SCHEMAS.billPayment, async (req, reply) => {
    const caller = await deps.authenticate(req);
    const bill = parseBillPaymentRequest(unwrap(deps.bodyOf(req, 'PaylinkBillPaymentTokenRequest'), 'PaylinkBillPaymentTokenRequest'), now());
    const merchant = await deps.merchantFor(caller, bill.request.merchantid);
    return deps.send(req, reply, 'PaylinkTokenCreated', await tokens.create(merchant, bill.request, bill, req.ip, wireFormat(req)));
  });

  app.get('/paylink/:token/status', PAYLINK_SCHEMAS.token, async (req, reply) => {
    const { token } = await callerToken(req);
    // A closed token no longer appears in status calls.
    if (token.state === 'closed') throw payError(422, 'D101', 'Data is not found');
    return deps.send(req, reply, 'PaylinkTokenStatus', await tokens.status(token));
  });

  app.post('/paylink/token/changes', PAYLINK_SCHEMAS.changes, async (req, reply) => {
    const caller = await deps.authenticate(req);
    const body = unwrap(deps.bodyOf(req, 'PaylinkTokenStatusChangeRequest'), 'PaylinkTokenStatusChangeRequest');
    if (body.after === undefined || body.after === '') throw payError(400, 'P044', 'after (date-time) is required.');
    const after = typeof body.after === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(body.after) ? Date.parse(body.after) : NaN;
    if (Number.isNaN(after)) throw payError(400, 'P045', 'after must be an RFC 3339 date-time.');
    if (body.merchantid === undefined || body.merchantid === '') throw payError(400, 'P002', 'Merchant id not supplied');
    const merchant = await deps.merchantFor(caller, typeof body.merchantid === 'string' && /^\d+$/.test(body.merchantid) ? Number(body.merchantid) : body.merchantid);
    const maxResults = typeof body.maxResults === 'string' && /^\d+$/.test(body.maxResults) ? Number(body.maxResults) : body.maxResults;
    const queryKey = `${merchant.merchantid}|${after}`;
    const page = parseChangesPage({ maxResults, nextToken: body.nextToken, orderBy: body.orderBy }, queryKey);
    if ('field' in page) throw payError(400, 'P045', page.message);
    const rows = await store.changes({ merchantid: merchant.merchantid, after, descending: page.descending, afterSeq: page.afterSeq, limit: page.limit + 1 });
    const more = rows.length > page.limit;
    const shown = rows.slice(0, page.limit);
    const statuses = [];
    for (const t of shown) statuses.push(await tokens.status(t));
    return deps.send(req, reply, 'PaylinkTokenStatusChangeResponse', {
      tokens: statuses,
      count: await store.countChanges(merchant.merchantid, after),
      maxResults: page.limit,
      ...(more ? { nextToken: encodeNextToken(shown.at(-1)!.seq, queryKey, page.descending) } : {}),
    });
  });

  app.post('/paylink/:token/adjustment', PAYLINK_SCHEMAS.adjustment, async (req, reply) => {
    const { token } = await callerToken(req);
    await tokens.adjust(token, unwrap(deps.bodyOf(req, 'PaylinkAdjustmentRequest'), 'PaylinkAdjustmentRequest'));
    return deps.send(req, reply, 'Acknowledgement', deps.ack(req, '001', 'Token adjusted', token.identifier));
  });

  for (const { path, action, message } of ACTIONS) {
    app.put(`/paylink/:token/${path}`, PAYLINK_SCHEMAS.token, async (req, reply) => {
      const { token } = await callerToken(req);
      await tokens.act(token, action);
      return deps.send(req, reply, 'Acknowledgement', deps.ack(req, '001', message, token.identifier));
    });
  }

  app.put('/paylink/:token/purge-attachments', PAYLINK_SCHEMAS.token, async (req, reply) => {
    const { token } = await callerToken(req);
    const purged = await tokens.purgeAttachments(token);
    return deps.send(req, reply, 'Acknowledgement', deps.ack(req, '001', purged ? `${purged} attachment(s) purged` : 'No attachments to purge', token.identifier));
  });

  app.post('/paylink/:token/resend-notification', PAYLINK_SCHEMAS.resend, async (req, reply) => {
    const { caller, token } = await callerToken(req);
    const merchant = await deps.merchantFor(caller, token.merchantid);
    await tokens.resend(token, merchant, unwrap(deps.bodyOf(req, 'PaylinkResendNotificationRequest'), 'PaylinkResendNotificationRequest'));
    return deps.send(req, reply, 'Acknowledgement', deps.ack(req, '001', 'Notification resent', token.identifier));
  });
}

/** The format of a request body: a postback answers in the format of the create call. */
function wireFormat(req: FastifyRequest): 'json' | 'xml' {
  return /xml/i.test(String(req.headers['content-type'] ?? '')) ? 'xml' : 'json';
}
