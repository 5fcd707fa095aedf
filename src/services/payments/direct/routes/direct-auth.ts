// POST /direct/auth: a customer's browser posts card data straight to us (form-encoded, or JSON/XML by XHR),
// authenticated by the merchant's domain key (checked against Origin/Referer) or an API key, and priced by a MAC the
// merchant computed with its licence key. A form post is answered by a 303 to redirect_success (authorised) or
// redirect_failure (declined or refused); a post without redirect addresses gets the AuthResponse itself.
import type { FastifyInstance } from 'fastify';
import { autoPostPage, sendHtml } from '../../../../core/http/html.ts';
import { uuid } from '../../../../core/ids.ts';
import { PaymentsError, payError, type PaymentsDeps } from '../../contract.ts';
import { answerResult, AUTH_FIELDS, callerMerchant, checkMac, errorFields, pick, readRedirects, withNestedFormFields } from '../post-input.ts';
import { redirectWithResult } from '../redirect.ts';
import type { DirectStore } from '../store.ts';
import { DIRECT_SCHEMAS } from './schemas.ts';

export function registerDirectAuthRoutes(app: FastifyInstance, deps: PaymentsDeps, store: DirectStore): void {
  app.post('/direct/auth', DIRECT_SCHEMAS.auth, async (req, reply) => {
    const raw = withNestedFormFields(deps.bodyOf(req, 'DirectPostRequest'));
    const redirects = readRedirects(req, raw);
    const { merchant, licenceKey } = await callerMerchant(req, raw, deps, store);
    try {
      const input = deps.parseAuthRequest({ ...pick(raw, AUTH_FIELDS), merchantid: merchant.merchantid });
      checkMac(raw, licenceKey, input.amount, input.identifier);
      if (!(await store.claimNonce(merchant.merchantid, String(raw.nonce), deps.ctx.clock.now()))) {
        throw payError(403, 'S010', 'The nonce has already been used: compute a new mac with a fresh nonce.', input.identifier);
      }
      // When the page posts a form, we route the 3-D Secure return ourselves and then redirect the browser.
      const challengeId = uuid();
      const routeChallenge = Boolean(redirects.success) && !input.threedsecure?.merchant_termurl;
      if (routeChallenge) input.threedsecure = { ...input.threedsecure, merchant_termurl: `${deps.ctx.baseUrl}/direct/cres/auth/${challengeId}` };
      const decision = await deps.authorise(merchant, input, { source: 'direct', requestId: req.id });
      if ('RequestChallenged' in decision) {
        if (!routeChallenge) return deps.sendDecision(req, reply, decision);
        const challenge = decision.RequestChallenged;
        await store.saveChallenge({ id: challengeId, merchantid: merchant.merchantid, redirectSuccess: redirects.success!, redirectFailure: redirects.failure! }, deps.ctx.clock.now());
        return sendHtml(reply, autoPostPage('Card verification', challenge.acs_url, { creq: challenge.creq, threeDSSessionData: challenge.threedserver_trans_id }));
      }
      return answerResult(req, reply, deps, decision.AuthResponse, redirects);
    } catch (err) {
      if (err instanceof PaymentsError && redirects.failure) return redirectWithResult(reply, redirects.failure, errorFields(req, deps, err));
      throw err;
    }
  });

  // The ACS hands the browser back here (merchant_termurl) with `cres`; one use per challenge.
  app.post('/direct/cres/auth/:id', DIRECT_SCHEMAS.cres, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = deps.bodyOf(req, 'CResDirect');
    const challenge = await store.completeChallenge(id, deps.ctx.clock.now());
    if (!challenge) throw payError(422, 'D101', 'Data is not found');
    const failure = challenge.redirectFailure ?? undefined;
    try {
      if (typeof body.cres !== 'string' || body.cres === '') throw payError(400, 'P044', 'cres is required.');
      const merchant = await deps.findMerchant(challenge.merchantid);
      if (!merchant) throw payError(422, 'D013', 'Merchant not found');
      const result = await deps.completeChallenge(merchant, body.cres, { requestId: req.id });
      return answerResult(req, reply, deps, result, { success: challenge.redirectSuccess ?? undefined, failure });
    } catch (err) {
      if (err instanceof PaymentsError && failure) return redirectWithResult(reply, failure, errorFields(req, deps, err));
      throw err;
    }
  });
}
