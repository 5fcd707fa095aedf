// The seam between the gateway core (index.ts, processing, accounts, batches) and the front ends built on it
// (direct post under direct/, Paylink under paylink/). Front ends import only this file; the core implements it.
//
// How a front end plugs in:
//   - `src/services/payments/direct/index.ts` and `src/services/payments/paylink/index.ts` each export, by name,
//     `register`, `migrations`, `tables` and optionally `jobs` and `start`: the module namespace is a `PaymentsModule`.
//   - The core's index.ts calls `register(app, deps)` on the payments Fastify instance after it has installed
//     the body parsers (JSON, text/xml and application/xml, application/x-www-form-urlencoded) and the error handler.
//     Front ends must not add their own parsers for those types nor replace the error handler.
//   - Migration names must start with the module name (`direct_001_...`, `paylink_001_...`); they run in the
//     `payments` namespace after the core's (`001_...`). Tables start with `payments_direct_` / `payments_paylink_`.
//   - Throw `PaymentsError` (via `payError`) for every refusal: the core renders it as the `Error` model in JSON or XML
//     with the status given. Anything else thrown becomes a logged 500.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Migration } from 'kysely';
import { ApiError } from '../../core/errors.ts';
import type { JobHandler } from '../../core/jobs.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { AcquirerOutcome } from './domain/sandbox.ts';

// ---------------------------------------------------------------------------------------------------------------
// Parties

/** A payment client: owns merchants, holds the licence key its API keys (and direct-post MACs) are made with. */
export interface Client {
  clientid: string;
  name: string;
  /** Addresses and CIDR ranges its API-key requests may come from; empty accepts every source. */
  acceptedSources: readonly string[];
}

/** Policy value: '0' account default, '1' enforced, '2' bypass, '3' ignore. */
export type PolicyValue = '0' | '1' | '2' | '3';

/** A merchant account and its configuration (set by the operator through config or the admin API). */
export interface Merchant {
  merchantid: number;
  clientid: string;
  name: string;
  /** ISO 4217 alpha code, e.g. GBP. */
  currency: string;
  /** IANA zone: batches close at 00:00 here. */
  timeZone: string;
  /** Duplicate detection window (seconds). */
  duplicateWindowSeconds: number;
  /** Account defaults used when a request's policy field is absent or '0' (each '1', '2' or '3'). */
  policies: { avs_postcode: PolicyValue; csc: PolicyValue; duplicate: PolicyValue; match_avsa: PolicyValue };
  /** Whether 3-D Secure v2 applies to e-commerce authorisations (the sandbox 3DS CSC table). */
  threeDSecure: boolean;
  /** 'A' active, 'S' suspended (suspended merchants answer 403). */
  status: 'A' | 'S';
}

/** Who is calling, once the API key checked out. */
export interface Caller {
  client: Client;
  /** The licence key in clear (for MACs and digests). Never log it. */
  licenceKey: string;
  /** Set when the key was issued by /v6/authenticate for one merchant: it may act for that merchant only. */
  subject?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Wire models (field names are the real API's snake_case)

export interface Acknowledgement {
  code: string;
  context: string;
  identifier?: string;
  message: string;
}

export interface ErrorModel extends Acknowledgement {
  response_dt: string;
}

export interface ContactDetails {
  address1?: string;
  address2?: string;
  address3?: string;
  area?: string;
  company?: string;
  country?: string;
  email?: string;
  firstname?: string;
  lastname?: string;
  mobile_no?: string;
  postcode?: string;
  telephone_no?: string;
  title?: string;
}

export interface AuthResponse {
  amount: number;
  atrn: string;
  atsd: string;
  authcode: string;
  authen_result: string;
  authorised: boolean;
  avs_result: string;
  csc_result: string;
  bin_commercial: boolean;
  bin_debit: boolean;
  bin_description: string;
  cavv: string;
  context: string;
  currency: string;
  datetime: string;
  eci: string;
  identifier: string;
  live: boolean;
  maskedpan: string;
  merchantid: number;
  result: number;
  result_code: string;
  result_message: string;
  scheme: string;
  scheme_id: string;
  sha256: string;
  trans_status: string;
  transno: number;
}

export interface RequestChallenged {
  acs_url: string;
  creq: string;
  merchantid: number;
  threedserver_trans_id: string;
  transno: number;
}

/** What /v6/authorise and /v6/charge answer: exactly one key. */
export type Decision = { AuthResponse: AuthResponse } | { RequestChallenged: RequestChallenged };

/** Validated authorisation input (what AuthRequest becomes after `parseAuthRequest`). */
export interface AuthInput {
  amount: number;
  /** Digits only (non-digits already stripped). */
  cardnumber: string;
  expmonth: number;
  expyear: number;
  identifier: string;
  merchantid: number;
  csc?: string;
  currency?: string;
  avs_postcode_policy?: PolicyValue;
  csc_policy?: PolicyValue;
  duplicate_policy?: PolicyValue;
  match_avsa?: PolicyValue;
  bill_to?: ContactDetails;
  ship_to?: ContactDetails;
  name_on_card?: string;
  trans_info?: string;
  /** Passed to the acquirer as given; 'P' also asks for a pre-authorisation. */
  trans_type?: string;
  /** A pre-authorisation: approved as trans_status P, settled only once captured. */
  pre_auth?: boolean;
  tag?: string[];
  threedsecure?: { merchant_termurl?: string; tds_policy?: '0' | '1' | '2'; [k: string]: unknown };
}

/** The result of 3-D Secure authentication carried into an authorisation. */
export interface CardAuthentication {
  authen_result: string;
  eci: string;
  cavv: string;
}

/**
 * A payment checked and decided before its authorisation (the direct-post tokenisation flow): the acquirer's answer
 * was decided from the CSC, which is not kept. Holds the card number: store it only encrypted.
 */
export interface PreparedPayment {
  input: Omit<AuthInput, 'csc' | 'threedsecure'>;
  currency: string;
  /** What may be shown of the card. */
  card: { maskedpan: string; scheme: string; bin_commercial: boolean; bin_debit: boolean; bin_description: string };
  outcome: AcquirerOutcome;
  authentication?: CardAuthentication;
}

/** A challenge that belongs to no transaction: the browser posts `creq` (and the id as threeDSSessionData) to `acs_url`. */
export interface TokenisedChallenge {
  acs_url: string;
  creq: string;
  threedserver_trans_id: string;
}

/** Where a payment came from: recorded on the transaction and shown in reporting. */
export type PaymentSource = 'api' | 'direct' | 'paylink';

// ---------------------------------------------------------------------------------------------------------------
// What the core hands to a front end

export interface PaymentsDeps {
  ctx: ServiceContext;

  /**
   * Checks `pay-api-key` (alias `cp-api-key`): 401 (Error) without a key, 403 when wrong, stale or replayed.
   * Each key is accepted once (nonces are remembered).
   */
  authenticate(req: FastifyRequest): Promise<Caller>;
  /** The merchant if it exists and belongs to the caller's client; otherwise 403 (Error). */
  merchantFor(caller: Caller, merchantid: unknown): Promise<Merchant>;
  /** A merchant by id regardless of client (for unauthenticated browser flows such as a hosted page); undefined if unknown. */
  findMerchant(merchantid: number): Promise<Merchant | undefined>;
  /** The licence key of a client (for MACs on flows where no API key is sent). */
  licenceKeyOf(clientid: string): Promise<string | undefined>;

  /** The request body as a plain object: JSON, XML (root element unwrapped) or form fields. 400 when not an object. */
  bodyOf(req: FastifyRequest, model: string): Record<string, unknown>;
  /** Sends `body` as the model `model`: XML with root `<model>` when the client asked for XML (Accept, else Content-Type), else JSON. */
  send(req: FastifyRequest, reply: FastifyReply, model: string, body: unknown, status?: number): FastifyReply;
  /** Sends a Decision (`{AuthResponse:...}` / `{RequestChallenged:...}`; XML root `<Decision>`). */
  sendDecision(req: FastifyRequest, reply: FastifyReply, decision: Decision): FastifyReply;
  /** Builds an Acknowledgement (context = request id). */
  ack(req: FastifyRequest, code: string, message: string, identifier?: string): Acknowledgement;

  /** Validates an AuthRequest-shaped object with every rule of the spec; throws `PaymentsError` (400/422). */
  parseAuthRequest(raw: Record<string, unknown>): AuthInput;
  /**
   * THE processing entry point: duplicate check, sandbox acquirer, AVS/CSC policies, 3-D Secure, transno, storage.
   * Declines come back as a Decision (never thrown); invalid requests throw `PaymentsError`.
   * `input.merchantid` must equal `merchant.merchantid`.
   */
  authorise(merchant: Merchant, input: AuthInput, options: { source: PaymentSource; requestId: string }): Promise<Decision>;
  /**
   * Completes a challenged authorisation with the `cres` the ACS handed back (what /v6/cres does).
   * Rejects a cres for another merchant's transaction with 403.
   */
  completeChallenge(merchant: Merchant, cres: string, options: { requestId: string }): Promise<AuthResponse>;
  /**
   * Checks a card (Luhn, BIN, expiry, CSC length, currency) and decides the acquirer's answer and any frictionless
   * 3-D Secure result now, without authorising. `challenge` says the card holder must complete a challenge first.
   * 3-D Secure refusals throw (`D047`, `098`).
   */
  preparePayment(merchant: Merchant, input: AuthInput): { payment: PreparedPayment; challenge: boolean };
  /** Authorises a prepared payment; `within` runs first inside the authorisation's unit of work (throw to abandon it). */
  authorisePrepared(merchant: Merchant, payment: PreparedPayment, options: { source: PaymentSource; requestId: string; within?: (tx: Kysely<any>) => Promise<void> }): Promise<AuthResponse>;
  /** Starts a challenge with no transaction, inside the caller's unit `tx`; the ACS returns the browser to `termurl`. */
  startAuthentication(tx: Kysely<any>, merchant: Merchant, a: { id: string; amount: number; currency: string; maskedpan: string; termurl: string }): Promise<TokenisedChallenge>;
  /** Reads the ACS result from the cres of authentication `id`, once, inside the caller's unit `tx` (P030 otherwise). */
  completeAuthentication(tx: Kysely<any>, merchant: Merchant, cres: unknown, id: string): Promise<CardAuthentication & { proceed: boolean }>;
  /** The challenged transaction behind a 3DS server transaction id (for front ends that route the cres themselves). */
  challengeOf(threedserverTransId: string): Promise<{ merchantid: number; transno: number; identifier: string; source: PaymentSource } | undefined>;

  /** `Base64(SHA-256(authcode + amount + result_code + merchantid + transno + identifier + licenceKey))`. */
  digest(parts: { authcode: string; amount: number; result_code: string; merchantid: number; transno: number; identifier: string }, licenceKey: string): string;
  /** `400000******0002` style mask. */
  maskPan(cardnumber: string): string;
}

/** What a front-end module exports (named exports; `import * as m` gives this shape). */
export interface PaymentsModule {
  migrations: Record<string, Migration>;
  /** Tables to empty on reset, children first. */
  tables: string[];
  /** Job kinds, named `<module>_<kind>` (they join the service's job handlers). */
  jobs?: Record<string, JobHandler>;
  register(app: FastifyInstance, deps: PaymentsDeps): Promise<void>;
  start?(deps: PaymentsDeps): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** A refusal rendered as the `Error` model: `code` is the API's result code (e.g. P026, D023, T001). */
export class PaymentsError extends ApiError {
  readonly code: string;
  readonly identifier?: string;
  constructor(status: number, code: string, message: string, identifier?: string) {
    super(status, message, { code });
    this.name = 'PaymentsError';
    this.code = code;
    this.identifier = identifier;
  }
}

export const payError = (status: number, code: string, message: string, identifier?: string): PaymentsError =>
  new PaymentsError(status, code, message, identifier);
