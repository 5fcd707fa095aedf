// Card-holder accounts: the account life cycle, registered cards and the short-lived tokens a charge is made with.
import type { Clock } from '../../core/clock.ts';
import type { Vault } from '../../core/crypto.ts';
import { isUniqueViolation } from '../../core/db/dialect.ts';
import { uuid } from '../../core/ids.ts';
import { payError, type AuthInput, type ContactDetails, type Merchant } from './contract.ts';
import { binInfo, cardLabel, isExpired, luhnValid, maskPan } from './domain/card.ts';
import { issueCardToken, readCardToken } from './domain/card-token.ts';
import type { ChargeInput } from './domain/requests.ts';
import type { AccountRow, AccountStore, CardRow } from './store/accounts.ts';

export const ACCOUNT_ID = /^[A-Za-z0-9\-_.~]{5,50}$/;
const MAX_CARDS = 25;

export interface RegisterCardInput {
  cardnumber: string;
  expmonth: number;
  expyear: number;
  default?: boolean;
  name_on_card?: string;
}

/** The API's outcome of a status request: 001 changed (or already so), 000 not a valid change. */
export type StatusOutcome = '001' | '000';

export class Accounts {
  readonly #store: AccountStore;
  readonly #vault: Vault;
  readonly #clock: Clock;
  readonly #tokenKey: Buffer;

  constructor(deps: { store: AccountStore; vault: Vault; clock: Clock }) {
    this.#store = deps.store;
    this.#vault = deps.vault;
    this.#clock = deps.clock;
    this.#tokenKey = Buffer.from(deps.vault.lookupHash('payments-card-token-key'), 'hex');
  }

  async create(clientid: string, accountId: string, contact: ContactDetails): Promise<AccountRow> {
    const now = this.#clock.now();
    const row: AccountRow = { clientid, account_id: accountId, unique_id: uuid(), status: 'ACTIVE', contact, default_card_id: null, created_at: now, last_modified: now };
    try {
      await this.#store.insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw payError(422, 'D049', `Account ${accountId} already exists`);
      throw err;
    }
    return row;
  }

  async get(clientid: string, accountId: string): Promise<AccountRow> {
    const account = await this.#store.get(clientid, accountId);
    if (!account) throw payError(422, 'P043', `Account ${accountId} not found`);
    return account;
  }

  async exists(clientid: string, accountId: string): Promise<AccountRow | undefined> {
    return this.#store.get(clientid, accountId);
  }

  async delete(clientid: string, accountId: string): Promise<void> {
    if (!(await this.#store.delete(clientid, accountId))) throw payError(422, 'P043', `Account ${accountId} not found`);
  }

  async changeContact(clientid: string, accountId: string, contact: ContactDetails): Promise<void> {
    const account = await this.get(clientid, accountId);
    await this.#store.update(clientid, accountId, { contact: { ...account.contact, ...contact } }, this.#clock.now());
  }

  async setStatus(clientid: string, accountId: string, status: unknown): Promise<StatusOutcome> {
    await this.get(clientid, accountId);
    if (status !== 'ACTIVE' && status !== 'DISABLED') return '000';
    await this.#store.update(clientid, accountId, { status }, this.#clock.now());
    return '001';
  }

  /** Registers a card (Luhn, expiry and BIN checked); the same card again updates its expiry and name. */
  async registerCard(clientid: string, accountId: string, input: RegisterCardInput): Promise<void> {
    const now = this.#clock.now();
    const account = await this.get(clientid, accountId);
    const pan = input.cardnumber;
    if (!luhnValid(pan)) throw payError(422, 'C002', 'Card number failed the Luhn check');
    const bin = binInfo(pan);
    if (!bin) throw payError(422, 'C022', 'Card BIN not found');
    if (isExpired(input.expmonth, input.expyear, now)) throw payError(422, 'C006', 'Card has expired');
    const panHash = this.#vault.lookupHash(`payments-pan:${clientid}:${pan}`);
    const cards = await this.#store.cards(clientid, accountId);
    let card = cards.find((c) => c.pan_hash === panHash);
    if (card) {
      await this.#store.updateCard(card.card_id, { expmonth: input.expmonth, expyear: input.expyear, name_on_card: input.name_on_card ?? card.name_on_card, card_status: 'ACTIVE' });
    } else {
      if (cards.length >= MAX_CARDS) throw payError(422, 'P045', `An account holds at most ${MAX_CARDS} cards`);
      const cardId = uuid();
      card = {
        card_id: cardId,
        clientid,
        account_id: accountId,
        pan_enc: this.#vault.encrypt(pan, `payments-card:${cardId}`),
        pan_hash: panHash,
        maskedpan: maskPan(pan),
        last4: pan.slice(-4),
        scheme: bin.scheme,
        expmonth: input.expmonth,
        expyear: input.expyear,
        name_on_card: input.name_on_card ?? null,
        card_status: 'ACTIVE',
        created_at: now,
        position: cards.reduce((max, c) => Math.max(max, c.position), 0) + 1,
      };
      await this.#store.insertCard(card);
    }
    const makeDefault = input.default === true || account.default_card_id === null;
    await this.#store.update(clientid, accountId, makeDefault ? { default_card_id: card.card_id } : {}, now);
  }

  async setCardStatus(clientid: string, accountId: string, cardId: string, change: { card_status?: unknown; default?: boolean }): Promise<StatusOutcome> {
    const now = this.#clock.now();
    await this.get(clientid, accountId);
    const card = await this.#cardOf(clientid, accountId, cardId);
    if (change.card_status === undefined && change.default === undefined) return '000';
    if (change.card_status !== undefined) {
      if (change.card_status !== 'ACTIVE' && change.card_status !== 'INACTIVE') return '000';
      // An expired card cannot be made active again: a new registration is needed.
      if (change.card_status === 'ACTIVE' && isExpired(card.expmonth, card.expyear, now)) return '000';
      await this.#store.updateCard(cardId, { card_status: change.card_status });
    }
    await this.#store.update(clientid, accountId, change.default === true ? { default_card_id: cardId } : {}, now);
    return '001';
  }

  async deleteCard(clientid: string, accountId: string, cardId: string): Promise<void> {
    const account = await this.get(clientid, accountId);
    await this.#cardOf(clientid, accountId, cardId);
    await this.#store.deleteCard(cardId);
    if (account.default_card_id === cardId) {
      const next = (await this.#store.cards(clientid, accountId))[0];
      await this.#store.update(clientid, accountId, { default_card_id: next?.card_id ?? null }, this.#clock.now());
    } else {
      await this.#store.update(clientid, accountId, {}, this.#clock.now());
    }
  }

  async #cardOf(clientid: string, accountId: string, cardId: string): Promise<CardRow> {
    const card = /^[0-9a-f-]{36}$/.test(cardId) ? await this.#store.card(cardId) : undefined;
    if (!card || card.clientid !== clientid || card.account_id !== accountId) throw payError(422, 'D101', `Card ${cardId} not found on account ${accountId}`);
    return card;
  }

  /** The CardHolderAccount model; every card gets a fresh token. */
  async view(clientid: string, accountId: string) {
    const account = await this.get(clientid, accountId);
    const cards = await this.#store.cards(clientid, accountId);
    const now = this.#clock.now();
    const defaultIndex = cards.findIndex((c) => c.card_id === account.default_card_id);
    return {
      account_id: account.account_id,
      contact: account.contact,
      cards: cards.map((c) => {
        const bin = binInfo(this.#vault.decrypt(c.pan_enc, `payments-card:${c.card_id}`));
        return {
          card_id: c.card_id,
          card_status: isExpired(c.expmonth, c.expyear, now) ? 'EXPIRED' : c.card_status,
          date_created: new Date(c.created_at).toISOString(),
          default: c.card_id === account.default_card_id,
          expmonth: c.expmonth,
          expyear: c.expyear,
          label: cardLabel(c.scheme, c.last4),
          label2: `${cardLabel(c.scheme, c.last4)},Exp:${String(c.expyear % 100).padStart(2, '0')}${String(c.expmonth).padStart(2, '0')}`,
          last4digits: c.last4,
          maskedpan: c.maskedpan,
          name_on_card: c.name_on_card ?? undefined,
          scheme: c.scheme,
          token: issueCardToken(this.#tokenKey, c.card_id, now),
          bin_commercial: bin?.bin_commercial ?? false,
          bin_debit: bin?.bin_debit ?? false,
          bin_description: bin?.bin_description ?? '',
          bin_country_issued: bin?.bin_country_issued ?? '',
        };
      }),
      date_created: new Date(account.created_at).toISOString(),
      default_card_id: account.default_card_id ?? undefined,
      default_card_index: defaultIndex >= 0 ? defaultIndex : undefined,
      last_modified: new Date(account.last_modified).toISOString(),
      status: account.status,
      unique_id: account.unique_id,
    };
  }

  /** Turns a charge into an authorisation of the stored card the token stands for. */
  async chargeInput(merchant: Merchant, input: ChargeInput): Promise<AuthInput> {
    const check = readCardToken(this.#tokenKey, input.token, this.#clock.now());
    if (!check.ok) {
      throw check.reason === 'expired'
        ? payError(422, 'P051', 'Token expired: retrieve the account for a new token', input.identifier)
        : payError(422, 'P052', 'Token invalid', input.identifier);
    }
    const card = await this.#store.card(check.cardId);
    if (!card || card.clientid !== merchant.clientid) throw payError(422, 'P052', 'Token invalid', input.identifier);
    const account = await this.#store.get(card.clientid, card.account_id);
    if (!account) throw payError(422, 'P052', 'Token invalid', input.identifier);
    if (account.status !== 'ACTIVE') throw payError(422, 'P049', 'Card holder account is not active', input.identifier);
    if (card.card_status !== 'ACTIVE') throw payError(422, 'P053', 'No active card for the token', input.identifier);
    const { token: _token, initiation: _initiation, cardholder_agreement: _agreement, ...rest } = input;
    return {
      ...rest,
      // Stored-card charges usually carry no CSC: unless asked otherwise, its check is skipped.
      csc_policy: input.csc_policy ?? (input.csc === undefined ? '3' : undefined),
      cardnumber: this.#vault.decrypt(card.pan_enc, `payments-card:${card.card_id}`),
      expmonth: card.expmonth,
      expyear: card.expyear,
      name_on_card: card.name_on_card ?? undefined,
      bill_to: account.contact,
    };
  }
}
