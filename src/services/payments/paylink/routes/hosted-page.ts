// The payer's side: GET /pay/{token} shows the field-guard form (when the token has guards and the browser holds no
// access cookie) or the card form; POST /pay/{token}/guard logs in; POST /pay/{token} pays; POST /pay/{token}/3ds
// receives the 3-D Secure result. /u/{usc} is the short link an SMS carries. Answers are HTML pages.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { autoPostPage, sendHtml } from '../../../../core/http/html.ts';
import { PaymentsError, type AuthResponse, type Merchant, type PaymentsDeps } from '../../contract.ts';
import { accessCookie, hasAccess } from '../access-cookie.ts';
import type { PaylinkCheckout } from '../checkout.ts';
import { isOpenForPayment, refusalReason } from '../domain/token-state.ts';
import { guardPage, messagePage, paymentPage } from '../hosted/pages.ts';
import { money } from '../notifications.ts';
import type { PaylinkStore, TokenRecord } from '../store.ts';
import type { PaylinkTokens } from '../tokens.ts';
import { PAYLINK_SCHEMAS } from './schemas.ts';

export function registerHostedPage(app: FastifyInstance, deps: PaymentsDeps, store: PaylinkStore, tokens: PaylinkTokens, checkout: PaylinkCheckout): void {
  const now = () => deps.ctx.clock.now();

  const closedPage = (reply: FastifyReply, t: TokenRecord) =>
    t.paid
      ? sendHtml(reply, messagePage('Payment complete', 'This payment request has already been paid. Thank you.', { Reference: t.identifier, Amount: money(t.payment?.amount ?? t.amount, t.currency) }))
      : sendHtml(reply, messagePage('Payment not available', refusalReason(t, now())), 410);

  /** The token and merchant behind a page (still open for payment when `payable`), or an HTML answer already sent. */
  const load = async (req: FastifyRequest, reply: FastifyReply, payable = true): Promise<{ t: TokenRecord; merchant: Merchant } | undefined> => {
    const t = await store.byToken((req.params as { token: string }).token);
    const merchant = t ? await deps.findMerchant(t.merchantid) : undefined;
    if (!t || !merchant) {
      sendHtml(reply, messagePage('Payment request not found', 'This payment link is not valid. Please check the link you were sent.'), 404);
      return undefined;
    }
    if (!sameBrowser(req, t.request.cardholder ?? {})) {
      sendHtml(reply, messagePage('Payment not available', 'This payment link is locked to another browser session.'), 403);
      return undefined;
    }
    if (payable && !isOpenForPayment(t, now())) {
      closedPage(reply, t);
      return undefined;
    }
    return { t, merchant };
  };

  /** True when the page may go past the guards; otherwise the guard form (or a lock notice) has been sent. */
  const passGuards = async (req: FastifyRequest, reply: FastifyReply, t: TokenRecord, merchant: Merchant, error?: string): Promise<boolean> => {
    const guards = tokens.guardsOf(t);
    if (guards.length === 0 || hasAccess(deps.ctx.vault, req.headers.cookie, t.merchantid, t.token, now())) return true;
    const lock = await checkout.lockState(t);
    if (lock.locked) {
      sendHtml(reply, messagePage('Access locked', lock.permanent ? 'Too many incorrect attempts. Please contact the merchant.' : `Too many incorrect attempts. Please try again after ${new Date(lock.until).toISOString()}.`), 403);
    } else {
      sendHtml(reply, guardPage(t, merchant.name, guards, error), error ? 403 : 200);
    }
    return false;
  };

  app.get('/pay/:token', PAYLINK_SCHEMAS.page, async (req, reply) => {
    const found = await load(req, reply);
    if (!found) return reply;
    const { t, merchant } = found;
    if (!(await passGuards(req, reply, t, merchant))) return reply;
    await checkout.viewed(t);
    return sendHtml(reply, paymentPage(t, merchant.name));
  });

  app.get('/u/:usc', PAYLINK_SCHEMAS.shortLink, async (req, reply) => {
    const t = await store.byUsc((req.params as { usc: string }).usc);
    if (!t) return sendHtml(reply, messagePage('Payment request not found', 'This payment link is not valid.'), 404);
    return reply.code(302).header('location', `/pay/${t.token}`).send();
  });

  app.post('/pay/:token/guard', PAYLINK_SCHEMAS.guard, async (req, reply) => {
    const found = await load(req, reply);
    if (!found) return reply;
    const { t, merchant } = found;
    const outcome = await checkout.guardLogin(t, formOf(req));
    if (outcome === 'validated') {
      const secure = deps.ctx.baseUrl.startsWith('https:');
      return reply.code(303).header('set-cookie', accessCookie(deps.ctx.vault, t.merchantid, t.token, now(), secure)).header('location', `/pay/${t.token}`).send();
    }
    await passGuards(req, reply, t, merchant, 'The details you entered do not match. Please try again.');
    return reply;
  });

  app.post('/pay/:token', PAYLINK_SCHEMAS.pay, async (req, reply) => {
    const found = await load(req, reply);
    if (!found) return reply;
    const { t, merchant } = found;
    if (!(await passGuards(req, reply, t, merchant))) return reply;
    const outcome = await checkout.attempt(t, merchant, formOf(req), req.id);
    if (outcome.kind === 'refused') return sendHtml(reply, paymentPage(t, merchant.name, outcome.message), 422);
    if (outcome.kind === 'challenge') {
      return sendHtml(reply, autoPostPage('Card verification', outcome.acsUrl, { creq: outcome.creq, threeDSSessionData: outcome.sessionData }));
    }
    return answerOutcome(reply, t, merchant, outcome.response);
  });

  app.post('/pay/:token/3ds', PAYLINK_SCHEMAS.threeDs, async (req, reply) => {
    // Not `payable`: the attempt that started the challenge holds the token until the result arrives.
    const found = await load(req, reply, false);
    if (!found) return reply;
    const { t, merchant } = found;
    const form = formOf(req);
    try {
      const cres = typeof form.cres === 'string' ? form.cres : '';
      const session = typeof form.threeDSSessionData === 'string' ? form.threeDSSessionData : '';
      return answerOutcome(reply, t, merchant, await checkout.completeChallenge(t, merchant, cres, session, req.id));
    } catch (err) {
      if (!(err instanceof PaymentsError)) throw err;
      return sendHtml(reply, messagePage('Payment not completed', err.message), err.status);
    }
  });

  /** After an attempt: back to the form on a decline, else the merchant's redirect or our own outcome page. */
  const answerOutcome = (reply: FastifyReply, t: TokenRecord, merchant: Merchant, r: AuthResponse) => {
    const config = t.request.config ?? {};
    const target: string | undefined = r.authorised ? config.redirectSuccess : config.redirectFailure;
    if (target) {
      const fields: Record<string, string> = config.returnParams
        ? { amount: String(r.amount), authcode: r.authcode ?? '', authorised: String(r.authorised), currency: r.currency, identifier: t.identifier, result: String(r.result), result_code: r.result_code, result_message: r.result_message, transno: String(r.transno), token: t.token }
        : { identifier: t.identifier, token: t.token };
      if (target.startsWith('GET:')) {
        const url = new URL(target.slice(4));
        for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
        return reply.code(303).header('location', url.toString()).send();
      }
      return sendHtml(reply, autoPostPage('Returning to the merchant', target, fields));
    }
    if (!r.authorised) return sendHtml(reply, paymentPage({ ...t, paymentAttempts: t.paymentAttempts + 1 }, merchant.name, `Payment declined: ${r.result_message}. You may try another card.`), 200);
    return sendHtml(reply, messagePage('Payment complete', `Thank you. Your payment to ${merchant.name} has been authorised.`, { Reference: t.identifier, Amount: money(r.amount, r.currency || t.currency), 'Auth code': r.authcode, Transaction: r.transno }));
  };
}

/** `cardholder.remote_addr` / `user_agent` lock a token to the browser the merchant saw (a mismatch is refused). */
function sameBrowser(req: FastifyRequest, cardholder: Record<string, unknown>): boolean {
  if (typeof cardholder.remote_addr === 'string' && cardholder.remote_addr !== '' && cardholder.remote_addr !== req.ip) return false;
  if (typeof cardholder.user_agent === 'string' && cardholder.user_agent !== '' && cardholder.user_agent !== req.headers['user-agent']) return false;
  return true;
}

function formOf(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
