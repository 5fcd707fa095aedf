// The direct-post tokenisation flow. A browser form posts card data to /direct/tokenise (the MAC and domain-key rules
// of /direct/auth) and gets a short-lived token instead of an authorisation; a 3-D Secure challenge, when the card
// needs one, completes through /direct/cres/tokenise/{id}. The merchant's server then turns the token into an
// authorisation with /direct/token. A token is used once, expires, and works only for the merchant it was made for.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { autoPostPage, sendHtml } from '../../../../core/http/html.ts';
import { base58, unbase58, uuid } from '../../../../core/ids.ts';
import { PaymentsError, payError, type PaymentsDeps, type PreparedPayment } from '../../contract.ts';
import { issueCardToken, readCardToken } from '../../domain/card-token.ts';
import { isNonce } from '../domain/mac.ts';
import { answerResult, AUTH_FIELDS, authenticatePost, callerMerchant, checkMac, errorFields, pick, readRedirects, withNestedFormFields, type Redirects } from '../post-input.ts';
import { redirectWithResult } from '../redirect.ts';
import { DirectStore } from '../store.ts';
import { DirectTokenStore } from '../token-store.ts';
import { DIRECT_SCHEMAS } from './schemas.ts';

/** How long a token (and a challenge awaiting its cres) lives. */
export const DIRECT_TOKEN_TTL_MS = 10 * 60_000;

const replayedNonce = (identifier?: string) => payError(403, 'S010', 'The nonce has already been used: compute a new mac with a fresh nonce.', identifier);

export function registerTokenisationRoutes(app: FastifyInstance, deps: PaymentsDeps, store: DirectStore): void {
  const { ctx } = deps;
  const tokenKey = Buffer.from(ctx.vault.lookupHash('payments-direct-token-key'), 'hex');
  const tokens = new DirectTokenStore(ctx.kysely, ctx.vault);

  /** Sends the token: to redirect_success when the post gave addresses, else as the TokenisationResponseModel body. */
  const answerToken = (req: FastifyRequest, reply: FastifyReply, id: string, nonce: string, payment: PreparedPayment, expiresAt: number, redirects: Redirects) => {
    const token = issueCardToken(tokenKey, id, expiresAt - DIRECT_TOKEN_TTL_MS, DIRECT_TOKEN_TTL_MS);
    const body = tokenisationResponse(token, nonce, payment);
    if (redirects.success) return redirectWithResult(reply, redirects.success, body);
    return deps.send(req, reply, 'TokenisationResponseModel', body);
  };
  const refusedTo = (req: FastifyRequest, reply: FastifyReply, err: unknown, failure: string | undefined) => {
    if (err instanceof PaymentsError && failure) return redirectWithResult(reply, failure, errorFields(req, deps, err));
    throw err;
  };

  app.post('/direct/tokenise', DIRECT_SCHEMAS.tokenise, async (req, reply) => {
    const raw = withNestedFormFields(deps.bodyOf(req, 'DirectPostRequest'));
    const redirects = readRedirects(req, raw);
    const { merchant, licenceKey } = await callerMerchant(req, raw, deps, store);
    try {
      const input = deps.parseAuthRequest({ ...pick(raw, AUTH_FIELDS), merchantid: merchant.merchantid });
      checkMac(raw, licenceKey, input.amount, input.identifier);
      const nonce = String(raw.nonce).toUpperCase();
      // Everything the CSC decides is decided here: it is not kept.
      const { payment, challenge } = deps.preparePayment(merchant, input);
      const id = uuid();
      const now = ctx.clock.now();
      const ownTermurl = input.threedsecure?.merchant_termurl;
      const started = await ctx.db.write(async (tx) => {
        if (!(await new DirectStore(tx, ctx.vault).claimNonce(merchant.merchantid, nonce, now))) throw replayedNonce(input.identifier);
        const held = new DirectTokenStore(tx, ctx.vault);
        await held.purgeExpired(now);
        await held.insert(
          {
            id,
            merchantid: merchant.merchantid,
            identifier: input.identifier,
            state: challenge ? 'challenge' : 'issued',
            nonce,
            redirectSuccess: redirects.success ?? null,
            redirectFailure: redirects.failure ?? null,
            createdAt: now,
            expiresAt: now + DIRECT_TOKEN_TTL_MS,
          },
          payment,
        );
        if (!challenge) return undefined;
        const termurl = ownTermurl ?? `${ctx.baseUrl}/direct/cres/tokenise/${id}`;
        return deps.startAuthentication(tx, merchant, { id, amount: input.amount, currency: payment.currency, maskedpan: payment.card.maskedpan, termurl });
      });
      if (!started) return answerToken(req, reply, id, nonce, payment, now + DIRECT_TOKEN_TTL_MS, redirects);
      // A form post is handed to the ACS at once; an XHR post (or a merchant with its own termurl) gets the challenge.
      if (redirects.success && !ownTermurl) return sendHtml(reply, autoPostPage('Card verification', started.acs_url, { creq: started.creq, threeDSSessionData: id }));
      return deps.sendDecision(req, reply, { RequestChallenged: { ...started, merchantid: merchant.merchantid, transno: -1 } });
    } catch (err) {
      return refusedTo(req, reply, err, redirects.failure);
    }
  });

  // The ACS hands the browser back here (or the merchant forwards the cres) once the card holder answered the challenge.
  app.post('/direct/cres/tokenise/:id', DIRECT_SCHEMAS.cres, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = deps.bodyOf(req, 'CResDirect');
    const held = await tokens.byId(id);
    if (!held || held.token.state !== 'challenge' || !held.payment) throw payError(422, 'D101', 'Data is not found');
    const { token, payment } = held;
    const redirects: Redirects = { success: token.redirectSuccess ?? undefined, failure: token.redirectFailure ?? undefined };
    try {
      if (typeof body.cres !== 'string' || body.cres === '') throw payError(400, 'P044', 'cres is required.', token.identifier);
      const now = ctx.clock.now();
      if (token.expiresAt <= now) throw payError(422, 'P051', 'Token expired: the challenge was not completed in time.', token.identifier);
      const merchant = await deps.findMerchant(token.merchantid);
      if (!merchant) throw payError(422, 'D013', 'Merchant not found', token.identifier);
      const expiresAt = now + DIRECT_TOKEN_TTL_MS;
      const outcome = await ctx.db.write(async (tx) => {
        const auth = await deps.completeAuthentication(tx, merchant, body.cres, id);
        const store = new DirectTokenStore(tx, ctx.vault);
        if (!auth.proceed) {
          await store.refuse(id);
          return { refused: auth.authen_result };
        }
        const authenticated: PreparedPayment = { ...payment, authentication: { authen_result: auth.authen_result, eci: auth.eci, cavv: auth.cavv } };
        if (!(await store.issue(id, authenticated, expiresAt, now))) throw payError(422, 'D101', 'Data is not found', token.identifier);
        return { authenticated };
      });
      if (!outcome.authenticated) throw payError(422, '098', `Authentication failure: the card holder was not authenticated (${outcome.refused}).`, token.identifier);
      return answerToken(req, reply, id, token.nonce, outcome.authenticated, expiresAt, redirects);
    } catch (err) {
      return refusedTo(req, reply, err, redirects.failure);
    }
  });

  // The merchant's server (API key) or page (domain key) authorises a token: once, before it expires, for its merchant.
  app.post('/direct/token', DIRECT_SCHEMAS.token, async (req, reply) => {
    const raw = deps.bodyOf(req, 'DirectTokenAuthRequest');
    const redirects = readRedirects(req, raw);
    const merchantOf = await authenticatePost(req, raw, deps, store);
    try {
      if (raw.token === undefined || raw.token === '' || raw.token === null) throw payError(400, 'P044', 'token is required.');
      const now = ctx.clock.now();
      const check = typeof raw.token === 'string' ? readCardToken(tokenKey, raw.token, now) : ({ ok: false, reason: 'invalid' } as const);
      if (!check.ok) throw check.reason === 'expired' ? payError(422, 'P051', 'Token expired') : payError(422, 'P052', 'Token invalid');
      const held = await tokens.byId(check.cardId);
      if (!held) throw payError(422, 'P052', 'Token invalid');
      // The token names its merchant; the caller must be allowed to act for it.
      const { merchant } = await merchantOf(held.token.merchantid);
      const identifier = held.token.identifier;
      if (held.token.state !== 'issued' || !held.payment) throw payError(422, 'P052', 'Token invalid: it has already been used.', identifier);
      let nonce: string | undefined;
      if (raw.nonce !== undefined && raw.nonce !== '') {
        if (typeof raw.nonce !== 'string' || !isNonce(raw.nonce)) throw payError(400, 'P045', 'nonce must be 8 to 128 hexadecimal characters.', identifier);
        nonce = raw.nonce.toUpperCase();
      }
      const result = await deps.authorisePrepared(merchant, held.payment, {
        source: 'direct',
        requestId: req.id,
        within: async (tx) => {
          if (nonce !== undefined && !(await new DirectStore(tx, ctx.vault).claimNonce(merchant.merchantid, nonce, now))) throw replayedNonce(identifier);
          if (!(await new DirectTokenStore(tx, ctx.vault).use(held.token.id, now))) throw payError(422, 'P052', 'Token invalid: it has already been used.', identifier);
        },
      });
      return answerResult(req, reply, deps, result, redirects);
    } catch (err) {
      return refusedTo(req, reply, err, redirects.failure);
    }
  });
}

/** TokenisationResponseModel; `sig_id` = Base58(SHA-256(base58-decoded token ‖ UTF-8 nonce)) lets the merchant tie the token to its post. */
function tokenisationResponse(token: string, nonce: string, payment: PreparedPayment) {
  const sig = createHash('sha256').update(Buffer.concat([unbase58(token) ?? Buffer.alloc(0), Buffer.from(nonce, 'utf8')])).digest();
  return {
    authen_result: payment.authentication?.authen_result ?? '',
    bin_commercial: payment.card.bin_commercial,
    bin_debit: payment.card.bin_debit,
    bin_description: payment.card.bin_description,
    eci: payment.authentication?.eci ?? '',
    identifier: payment.input.identifier,
    maskedpan: payment.card.maskedpan,
    scheme: payment.card.scheme,
    sig_id: base58(sig),
    token,
  };
}
