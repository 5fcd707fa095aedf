// POST /direct/auth: a customer's browser posts card data straight to us (form-encoded, or JSON/XML by XHR),
// authenticated by the merchant's domain key (checked against Origin/Referer) or an API key, and priced by a MAC the
// merchant computed with its licence key. A form post is answered by a 303 to redirect_success (authorised) or
// redirect_failure (declined or refused); a post without redirect addresses gets the AuthResponse itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { autoPostPage, sendHtml } from '../../../../core/http/html.ts';
import { uuid } from '../../../../core/ids.ts';
import { isoMs } from '../../../../core/time.ts';
import { PaymentsError, payError, type AuthResponse, type Merchant, type PaymentsDeps } from '../../contract.ts';
import { callingHost, hostAllowed } from '../domain/domain-key.ts';
import { isNonce, macMatches } from '../domain/mac.ts';
import { redirectTarget, redirectWithResult } from '../redirect.ts';
import type { DirectStore } from '../store.ts';

/** AuthRequest fields a direct post may carry (everything else in the body is ignored). */
const AUTH_FIELDS = [
  'amount', 'cardnumber', 'expmonth', 'expyear', 'identifier', 'csc', 'currency', 'avs_postcode_policy', 'csc_policy',
  'duplicate_policy', 'match_avsa', 'bill_to', 'ship_to', 'name_on_card', 'trans_info', 'tag', 'threedsecure',
];

interface Redirects {
  success?: string;
  failure?: string;
}

export function registerDirectAuthRoutes(app: FastifyInstance, deps: PaymentsDeps, store: DirectStore): void {
  app.post('/direct/auth', async (req, reply) => {
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
  app.post('/direct/cres/auth/:id', async (req, reply) => {
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

function answerResult(req: FastifyRequest, reply: FastifyReply, deps: PaymentsDeps, result: AuthResponse, redirects: Redirects): FastifyReply {
  const target = result.authorised ? redirects.success : redirects.failure;
  if (target) return redirectWithResult(reply, target, result as unknown as Record<string, unknown>);
  return deps.send(req, reply, 'AuthResponse', result);
}

function errorFields(req: FastifyRequest, deps: PaymentsDeps, err: PaymentsError): Record<string, unknown> {
  return { code: err.code, message: err.message, context: req.id, identifier: err.identifier, response_dt: isoMs(deps.ctx.clock.now()) };
}

/** Form posts must say where to send the browser; JSON and XML posts may leave both out to get the result back. */
function readRedirects(req: FastifyRequest, raw: Record<string, unknown>): Redirects {
  const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const out: Redirects = {};
  for (const [key, names] of [['success', ['redirect_success', 'redirectSuccess']], ['failure', ['redirect_failure', 'redirectFailure']]] as const) {
    const given = names.map((n) => raw[n]).find((v) => v !== undefined && v !== '');
    if (given === undefined) {
      if (isForm) throw payError(400, 'P044', `${names[0]} is required for a form post.`);
      continue;
    }
    const target = redirectTarget(given);
    if (!target) throw payError(400, 'P045', `${names[0]} must be an absolute http or https URL.`);
    out[key] = target;
  }
  if (Boolean(out.success) !== Boolean(out.failure)) throw payError(400, 'P044', 'redirect_success and redirect_failure go together.');
  return out;
}

/** Finds the merchant the post is for: by API key (server to server) or by domain key (a browser on a registered host). */
async function callerMerchant(req: FastifyRequest, raw: Record<string, unknown>, deps: PaymentsDeps, store: DirectStore): Promise<{ merchant: Merchant; licenceKey: string }> {
  if (req.headers['pay-api-key'] !== undefined || req.headers['cp-api-key'] !== undefined) {
    const caller = await deps.authenticate(req);
    return { merchant: await deps.merchantFor(caller, raw.merchantid), licenceKey: caller.licenceKey };
  }
  const domainKey = domainKeyOf(req, raw);
  if (!domainKey) throw payError(401, 'S007', 'Authentication required: send pay-domain-key (or pay-api-key).');
  const record = await store.findDomainKey(domainKey);
  if (!record) throw payError(403, 'S004', 'The domain key is not valid.');
  const host = callingHost(header(req, 'origin'), header(req, 'referer'));
  if (!host || !hostAllowed(host, record.domains)) throw payError(403, 'S005', 'The domain key is not registered for the calling page.');
  if (raw.merchantid !== undefined && raw.merchantid !== '' && String(raw.merchantid) !== String(record.merchantid)) {
    throw payError(403, 'S002', 'The domain key belongs to another merchant.');
  }
  const merchant = await deps.findMerchant(record.merchantid);
  const licenceKey = merchant && merchant.status === 'A' ? await deps.licenceKeyOf(merchant.clientid) : undefined;
  if (!merchant || !licenceKey) throw payError(403, 'S002', 'The merchant of this domain key cannot process.');
  return { merchant, licenceKey };
}

function checkMac(raw: Record<string, unknown>, licenceKey: string, amount: number, identifier: string): void {
  if (typeof raw.nonce !== 'string' || raw.nonce === '') throw payError(400, 'P044', 'nonce is required.', identifier);
  if (!isNonce(raw.nonce)) throw payError(400, 'P045', 'nonce must be 8 to 128 hexadecimal characters.', identifier);
  if (typeof raw.mac !== 'string' || raw.mac === '') throw payError(400, 'P044', 'mac is required.', identifier);
  if (!macMatches(raw.mac, licenceKey, raw.nonce, amount, identifier)) throw payError(403, 'S010', 'Invalid MAC', identifier);
}

function domainKeyOf(req: FastifyRequest, raw: Record<string, unknown>): string | undefined {
  const query = req.query as Record<string, unknown>;
  for (const v of [header(req, 'pay-domain-key'), header(req, 'cp-domain-key'), query['pay-domain-key'], query['cp-domain-key'], raw['pay-domain-key'], raw['cp-domain-key']]) {
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

function pick(raw: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return withMarkers(raw, Object.fromEntries(names.filter((n) => raw[n] !== undefined && raw[n] !== '').map((n) => [n, raw[n]])));
}

/** Keeps the parser's markers (symbol keys, such as "these values are text") on a reshaped body. */
function withMarkers(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> {
  for (const s of Object.getOwnPropertySymbols(from)) (to as any)[s] = (from as any)[s];
  return to;
}

/** A form has no objects: `bill_to.postcode` or `bill_to[postcode]` fields become `bill_to: { postcode }`. */
function withNestedFormFields(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const m = /^(bill_to|ship_to|threedsecure)(?:\.|\[)([a-z_0-9]+)\]?$/i.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const parent = (out[m[1]] ??= {}) as Record<string, unknown>;
    if (typeof parent === 'object') parent[m[2]] = value;
  }
  return withMarkers(raw, out);
}
