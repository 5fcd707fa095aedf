// Who may call: the `pay-api-key` header (alias `cp-api-key`), verified against the client's licence key within the
// TTL window, from one of the client's accepted sources, each nonce accepted once; and whether the caller owns the
// merchant named in the request.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { nameCaller } from '../../core/http/caller-name.ts';
import type { Clock } from '../../core/clock.ts';
import { payError, PaymentsError, type Caller, type Client, type Merchant } from './contract.ts';
import type { Clients } from './clients.ts';
import { sourceAccepted } from './domain/accepted-sources.ts';
import { decodeApiKey, verifyApiKey } from './domain/api-key.ts';
import type { KeySubjectStore } from './store/key-subjects.ts';
import type { MerchantStore } from './store/merchants.ts';
import type { NonceStore } from './store/nonces.ts';

const MINUTE = 60_000;
const REPLAYED_MESSAGE = 'The API key has already been used: make a new key for each request';
const replayed = () => payError(403, 'S004', REPLAYED_MESSAGE);

/** A verified key's nonce, to be marked used. */
export interface NonceClaim {
  clientid: string;
  nonce: string;
  expiresAt: number;
}

export class Access {
  readonly #clients: Clients;
  readonly #merchants: MerchantStore;
  readonly #nonces: NonceStore;
  readonly #subjects: KeySubjectStore;
  readonly #clock: Clock;
  readonly #ttlMinutes: number;

  constructor(deps: { clients: Clients; merchants: MerchantStore; nonces: NonceStore; subjects: KeySubjectStore; clock: Clock; ttlMinutes: number }) {
    this.#clients = deps.clients;
    this.#merchants = deps.merchants;
    this.#nonces = deps.nonces;
    this.#subjects = deps.subjects;
    this.#clock = deps.clock;
    this.#ttlMinutes = deps.ttlMinutes;
  }

  /** Checks the key and marks its nonce used (a separate commit). */
  async authenticate(req: FastifyRequest): Promise<Caller> {
    const { caller, nonce } = await this.verify(req);
    await this.claim(nonce);
    return caller;
  }

  /** Checks the key without marking its nonce used: the caller must `claim` it, or hand it to a write that does. */
  async verify(req: FastifyRequest): Promise<{ caller: Caller; nonce: NonceClaim }> {
    const header = req.headers['pay-api-key'] ?? req.headers['cp-api-key'];
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) throw payError(401, 'S007', 'Authentication required: send the pay-api-key header');
    const key = decodeApiKey(value.trim());
    if (!key) throw payError(403, 'S004', 'The API key could not be read');
    const licenceKey = await this.#clients.licenceKeyOf(key.clientid);
    if (licenceKey === undefined) throw payError(403, 'S001', 'Invalid client id');
    const minute = verifyApiKey(key, licenceKey, this.#clock.now(), this.#ttlMinutes);
    if (minute === undefined) throw payError(403, 'S004', 'The API key is invalid or has expired');
    const client = (await this.#clients.get(key.clientid))!;
    nameCaller(req.raw, `client ${key.clientid}`);
    // Before the nonce is claimed: a refused source spends nothing, and the key may still be used from an accepted one.
    this.checkSource(client, req);
    const subject = await this.#subjects.subjectOf(key.clientid, key.nonceHex);
    const caller: Caller = subject === undefined ? { client, licenceKey } : { client, licenceKey, subject };
    // The nonce is remembered until the key could no longer verify (its minute + TTL, plus the minute itself).
    return { caller, nonce: { clientid: key.clientid, nonce: key.nonceHex, expiresAt: minute + (this.#ttlMinutes + 2) * MINUTE } };
  }

  /**
   * Refuses (403 P007) a request whose connection does not come from one of the client's accepted sources. The
   * socket's peer decides: X-Forwarded-For is never read, as any caller could write it.
   */
  checkSource(client: Client, req: FastifyRequest): void {
    if (!sourceAccepted(client.acceptedSources, req.socket.remoteAddress)) throw payError(403, 'P007', 'Request is not from an accepted source');
  }

  /** Marks a nonce used, on `db` (a transaction) when given; 403 when it was used already. */
  async claim(n: NonceClaim, db?: Kysely<any>): Promise<void> {
    if (!(await this.#nonces.claim(n.clientid, n.nonce, n.expiresAt, this.#clock.now(), db))) throw replayed();
  }

  /**
   * Runs a write whose transaction claims `nonce` first (one commit for both). When it fails before committing, the
   * nonce is claimed on its own, so a failed request cannot be replayed either.
   */
  async withNonce<T>(nonce: NonceClaim, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof PaymentsError && err.message === REPLAYED_MESSAGE)) await this.claim(nonce);
      throw err;
    }
  }

  /** The merchant if the caller owns it; unknown and foreign merchants look the same (403). */
  async merchantFor(caller: Caller, merchantid: unknown): Promise<Merchant> {
    const id = typeof merchantid === 'string' && /^\d{1,10}$/.test(merchantid) ? Number(merchantid) : merchantid;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw payError(400, 'P003', 'Merchant id is invalid');
    const merchant = await this.#merchants.get(id);
    // A key issued for a subject acts for that merchant only.
    if (!merchant || merchant.clientid !== caller.client.clientid || (caller.subject !== undefined && caller.subject !== id)) {
      throw payError(403, 'S002', `No permission for merchant ${id}`);
    }
    if (merchant.status !== 'A') throw payError(403, 'Z002', `Merchant ${id} is not active`);
    return merchant;
  }

  /** The merchants the caller may act for: every merchant of its client, or the one a key issued for a subject names. */
  async merchantsOf(caller: Caller): Promise<Merchant[]> {
    return (await this.#merchants.list(caller.client.clientid)).filter((m) => caller.subject === undefined || m.merchantid === caller.subject);
  }

  get ttlMinutes(): number {
    return this.#ttlMinutes;
  }
}
