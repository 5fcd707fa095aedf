// Who may call: the `pay-api-key` header (alias `cp-api-key`), verified against the client's licence key within the
// TTL window, each nonce accepted once; and whether the caller owns the merchant named in the request.
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.ts';
import { payError, type Caller, type Merchant } from './contract.ts';
import type { Clients } from './clients.ts';
import { decodeApiKey, verifyApiKey } from './domain/api-key.ts';
import type { MerchantStore } from './store/merchants.ts';
import type { NonceStore } from './store/nonces.ts';

const MINUTE = 60_000;

export class Access {
  readonly #clients: Clients;
  readonly #merchants: MerchantStore;
  readonly #nonces: NonceStore;
  readonly #clock: Clock;
  readonly #ttlMinutes: number;

  constructor(deps: { clients: Clients; merchants: MerchantStore; nonces: NonceStore; clock: Clock; ttlMinutes: number }) {
    this.#clients = deps.clients;
    this.#merchants = deps.merchants;
    this.#nonces = deps.nonces;
    this.#clock = deps.clock;
    this.#ttlMinutes = deps.ttlMinutes;
  }

  async authenticate(req: FastifyRequest): Promise<Caller> {
    const header = req.headers['pay-api-key'] ?? req.headers['cp-api-key'];
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) throw payError(401, 'S007', 'Authentication required: send the pay-api-key header');
    const key = decodeApiKey(value.trim());
    if (!key) throw payError(403, 'S004', 'The API key could not be read');
    const licenceKey = await this.#clients.licenceKeyOf(key.clientid);
    if (licenceKey === undefined) throw payError(403, 'S001', 'Invalid client id');
    const now = this.#clock.now();
    const minute = verifyApiKey(key, licenceKey, now, this.#ttlMinutes);
    if (minute === undefined) throw payError(403, 'S004', 'The API key is invalid or has expired');
    // Remember the nonce until the key could no longer verify (its minute + TTL, plus the minute itself).
    const fresh = await this.#nonces.claim(key.clientid, key.nonceHex, minute + (this.#ttlMinutes + 2) * MINUTE, now);
    if (!fresh) throw payError(403, 'S004', 'The API key has already been used: make a new key for each request');
    const client = (await this.#clients.get(key.clientid))!;
    return { client, licenceKey };
  }

  /** The merchant if the caller owns it; unknown and foreign merchants look the same (403). */
  async merchantFor(caller: Caller, merchantid: unknown): Promise<Merchant> {
    const id = typeof merchantid === 'string' && /^\d{1,10}$/.test(merchantid) ? Number(merchantid) : merchantid;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw payError(400, 'P003', 'Merchant id is invalid');
    const merchant = await this.#merchants.get(id);
    if (!merchant || merchant.clientid !== caller.client.clientid) throw payError(403, 'S002', `No permission for merchant ${id}`);
    if (merchant.status !== 'A') throw payError(403, 'Z002', `Merchant ${id} is not active`);
    return merchant;
  }
}
