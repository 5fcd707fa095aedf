// Wires the gateway's parts together once per service context, and offers them to the front ends as PaymentsDeps.
import type { ServiceContext } from '../../core/service.ts';
import { Access } from './access.ts';
import { Accounts } from './accounts.ts';
import { Batches } from './batches.ts';
import { Clients } from './clients.ts';
import type { PaymentsDeps } from './contract.ts';
import { maskPan } from './domain/card.ts';
import { responseDigest } from './domain/digest.ts';
import { parseAuthRequest } from './domain/requests.ts';
import { ack, bodyOf, send, sendDecision } from './http.ts';
import { Processor } from './processing.ts';
import { DEFAULT_KEY_TTL_MINUTES, parseSettings, type PaymentsSettings } from './settings.ts';
import { AccountStore } from './store/accounts.ts';
import { BatchStore } from './store/batches.ts';
import { MerchantStore } from './store/merchants.ts';
import { KeySubjectStore } from './store/key-subjects.ts';
import { NonceStore } from './store/nonces.ts';
import { DuplicateGuard, TransactionStore } from './store/transactions.ts';
import { onePerContext } from '../../core/per-context.ts';

export class Gateway {
  readonly ctx: ServiceContext;
  readonly settings: PaymentsSettings;
  readonly clients: Clients;
  readonly merchants: MerchantStore;
  readonly transactions: TransactionStore;
  readonly access: Access;
  readonly processor: Processor;
  readonly accounts: Accounts;
  readonly batches: Batches;

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
    this.settings = parseSettings(ctx.settings);
    const db = ctx.kysely;
    this.clients = new Clients(ctx.identity, ctx.clock, this.settings.client_cache_budget);
    this.merchants = new MerchantStore(ctx.db, this.settings.merchant_cache_budget);
    this.transactions = new TransactionStore(db);
    this.access = new Access({
      clients: this.clients,
      merchants: this.merchants,
      nonces: new NonceStore(ctx.db, this.settings.nonce_cache_budget),
      subjects: new KeySubjectStore(db, ctx.db.dialect === 'postgres'),
      clock: ctx.clock,
      ttlMinutes: this.settings.key_ttl_minutes ?? DEFAULT_KEY_TTL_MINUTES,
    });
    this.processor = new Processor({
      db: ctx.db,
      merchants: this.merchants,
      transactions: this.transactions,
      duplicates: new DuplicateGuard(db),
      clients: this.clients,
      vault: ctx.vault,
      clock: ctx.clock,
      baseUrl: () => ctx.baseUrl,
    });
    this.accounts = new Accounts({ store: new AccountStore(db), vault: ctx.vault, clock: ctx.clock });
    this.batches = new Batches({ batches: new BatchStore(db), transactions: this.transactions, merchants: this.merchants, clock: ctx.clock, jobs: ctx.jobs });
  }

  /** What direct post and Paylink build on. */
  deps(): PaymentsDeps {
    return {
      ctx: this.ctx,
      authenticate: (req) => this.access.authenticate(req),
      merchantFor: (caller, merchantid) => this.access.merchantFor(caller, merchantid),
      findMerchant: (merchantid) => this.merchants.get(merchantid),
      licenceKeyOf: (clientid) => this.clients.licenceKeyOf(clientid),
      bodyOf,
      send,
      sendDecision,
      ack,
      parseAuthRequest,
      authorise: (merchant, input, options) => this.processor.authorise(merchant, input, options),
      preparePayment: (merchant, input) => this.processor.prepare(merchant, input),
      authorisePrepared: (merchant, payment, options) =>
        this.processor.authorisePrepared(merchant, payment, { source: options.source, requestId: options.requestId, claimNonce: options.within }),
      startAuthentication: (tx, merchant, a) => this.processor.startAuthentication(tx, merchant, a),
      completeAuthentication: (tx, merchant, cres, id) => this.processor.completeAuthentication(tx, merchant, cres, id),
      completeChallenge: (merchant, cres, options) => this.processor.completeChallenge(merchant, cres, options.requestId),
      challengeOf: async (id) => {
        const tx = await this.transactions.byThreeDs(id);
        return tx ? { merchantid: tx.merchantid, transno: tx.transno, identifier: tx.identifier, source: tx.source } : undefined;
      },
      digest: responseDigest,
      maskPan,
    };
  }
}

/** The gateway of a service context (made on first use; register, start, admin and jobs share it). */
export const gatewayOf = onePerContext((ctx) => new Gateway(ctx));
