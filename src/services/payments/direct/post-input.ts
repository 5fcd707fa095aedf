// What every direct post shares (/direct/auth, /direct/tokenise, /direct/token): who is posting (API key or domain
// key against Origin/Referer), the MAC and nonce, the redirect addresses, and form fields reshaped into objects.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isoMs } from '../../../core/time.ts';
import { payError, type AuthResponse, type Merchant, type PaymentsDeps, type PaymentsError } from '../contract.ts';
import { callingHost, hostAllowed } from './domain/domain-key.ts';
import { isNonce, macMatches } from './domain/mac.ts';
import { redirectTarget, redirectWithResult } from './redirect.ts';
import type { DirectStore } from './store.ts';

/** AuthRequest fields a direct post may carry (everything else in the body is ignored). */
export const AUTH_FIELDS = [
  'amount', 'cardnumber', 'expmonth', 'expyear', 'identifier', 'csc', 'currency', 'avs_postcode_policy', 'csc_policy',
  'duplicate_policy', 'match_avsa', 'bill_to', 'ship_to', 'name_on_card', 'trans_info', 'tag', 'threedsecure',
];

export interface Redirects {
  success?: string;
  failure?: string;
}

/** Sends an authorisation's result: a redirect when the post gave addresses (authorised to success), else the AuthResponse. */
export function answerResult(req: FastifyRequest, reply: FastifyReply, deps: PaymentsDeps, result: AuthResponse, redirects: Redirects): FastifyReply {
  const target = result.authorised ? redirects.success : redirects.failure;
  if (target) return redirectWithResult(reply, target, result as unknown as Record<string, unknown>);
  return deps.send(req, reply, 'AuthResponse', result);
}

/** The Error model's fields, for a refusal sent to redirect_failure. */
export function errorFields(req: FastifyRequest, deps: PaymentsDeps, err: PaymentsError): Record<string, unknown> {
  return { code: err.code, message: err.message, context: req.id, identifier: err.identifier, response_dt: isoMs(deps.ctx.clock.now()) };
}

/** Form posts must say where to send the browser; JSON and XML posts may leave both out to get the result back. */
export function readRedirects(req: FastifyRequest, raw: Record<string, unknown>): Redirects {
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

/** Names the merchant an authenticated post acts for; refuses one the caller may not act for (403). */
export type PostCaller = (merchantid: unknown) => Promise<{ merchant: Merchant; licenceKey: string }>;

/**
 * Checks who is posting: an API key (server to server; the merchant must be one of the caller's) or a domain key (a
 * browser on a registered host; the merchant must be the key's, which is also the default).
 */
export async function authenticatePost(req: FastifyRequest, raw: Record<string, unknown>, deps: PaymentsDeps, store: DirectStore): Promise<PostCaller> {
  if (req.headers['pay-api-key'] !== undefined || req.headers['cp-api-key'] !== undefined) {
    const caller = await deps.authenticate(req);
    return async (merchantid) => ({ merchant: await deps.merchantFor(caller, merchantid), licenceKey: caller.licenceKey });
  }
  const domainKey = domainKeyOf(req, raw);
  if (!domainKey) throw payError(401, 'S007', 'Authentication required: send pay-domain-key (or pay-api-key).');
  const record = await store.findDomainKey(domainKey);
  if (!record) throw payError(403, 'S004', 'The domain key is not valid.');
  const host = callingHost(header(req, 'origin'), header(req, 'referer'));
  if (!host || !hostAllowed(host, record.domains)) throw payError(403, 'S005', 'The domain key is not registered for the calling page.');
  return async (merchantid) => {
    if (merchantid !== undefined && merchantid !== '' && String(merchantid) !== String(record.merchantid)) {
      throw payError(403, 'S002', 'The domain key belongs to another merchant.');
    }
    const merchant = await deps.findMerchant(record.merchantid);
    const licenceKey = merchant && merchant.status === 'A' ? await deps.licenceKeyOf(merchant.clientid) : undefined;
    if (!merchant || !licenceKey) throw payError(403, 'S002', 'The merchant of this domain key cannot process.');
    return { merchant, licenceKey };
  };
}

/** The merchant a card post (which names its merchant, or leaves it to the domain key) is for. */
export async function callerMerchant(req: FastifyRequest, raw: Record<string, unknown>, deps: PaymentsDeps, store: DirectStore): Promise<{ merchant: Merchant; licenceKey: string }> {
  return (await authenticatePost(req, raw, deps, store))(raw.merchantid);
}

export function checkMac(raw: Record<string, unknown>, licenceKey: string, amount: number, identifier: string): void {
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

export function pick(raw: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return withMarkers(raw, Object.fromEntries(names.filter((n) => raw[n] !== undefined && raw[n] !== '').map((n) => [n, raw[n]])));
}

/** Keeps the parser's markers (symbol keys, such as "these values are text") on a reshaped body. */
function withMarkers(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> {
  for (const s of Object.getOwnPropertySymbols(from)) (to as any)[s] = (from as any)[s];
  return to;
}

/** A form has no objects: `bill_to.postcode` or `bill_to[postcode]` fields become `bill_to: { postcode }`. */
export function withNestedFormFields(raw: Record<string, unknown>): Record<string, unknown> {
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
