// Card-holder accounts and their cards. Card numbers are stored only encrypted (pan_enc) and as a keyed hash
// (pan_hash, to recognise a card registered twice).
import type { Kysely } from 'kysely';
import type { ContactDetails } from '../contract.ts';

export interface AccountRow {
  clientid: string;
  account_id: string;
  unique_id: string;
  status: 'ACTIVE' | 'DISABLED';
  contact: ContactDetails;
  default_card_id: string | null;
  created_at: number;
  last_modified: number;
}

export interface CardRow {
  card_id: string;
  clientid: string;
  account_id: string;
  pan_enc: string;
  pan_hash: string;
  maskedpan: string;
  last4: string;
  scheme: string;
  expmonth: number;
  expyear: number;
  name_on_card: string | null;
  card_status: 'ACTIVE' | 'INACTIVE';
  created_at: number;
  /** Registration order within the account. */
  position: number;
}

export class AccountStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async get(clientid: string, accountId: string): Promise<AccountRow | undefined> {
    const row = await this.#db.selectFrom('payments_accounts').selectAll().where('clientid', '=', clientid).where('account_id', '=', accountId).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  }

  /** Inserts a new account; throws a unique violation when it exists. */
  async insert(a: AccountRow): Promise<void> {
    await this.#db.insertInto('payments_accounts').values({ ...a, contact: JSON.stringify(a.contact) }).execute();
  }

  async update(clientid: string, accountId: string, set: Partial<Pick<AccountRow, 'status' | 'contact' | 'default_card_id'>>, nowMs: number): Promise<boolean> {
    const values: Record<string, unknown> = { ...set, last_modified: nowMs };
    if (set.contact) values.contact = JSON.stringify(set.contact);
    const res = await this.#db.updateTable('payments_accounts').set(values).where('clientid', '=', clientid).where('account_id', '=', accountId).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async delete(clientid: string, accountId: string): Promise<boolean> {
    await this.#db.deleteFrom('payments_cards').where('clientid', '=', clientid).where('account_id', '=', accountId).execute();
    const res = await this.#db.deleteFrom('payments_accounts').where('clientid', '=', clientid).where('account_id', '=', accountId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async cards(clientid: string, accountId: string): Promise<CardRow[]> {
    const rows = await this.#db
      .selectFrom('payments_cards')
      .selectAll()
      .where('clientid', '=', clientid)
      .where('account_id', '=', accountId)
      .orderBy('position')
      .orderBy('created_at')
      .execute();
    return rows.map(toCard);
  }

  async card(cardId: string): Promise<CardRow | undefined> {
    const row = await this.#db.selectFrom('payments_cards').selectAll().where('card_id', '=', cardId).executeTakeFirst();
    return row ? toCard(row) : undefined;
  }

  async insertCard(c: CardRow): Promise<void> {
    await this.#db.insertInto('payments_cards').values(c).execute();
  }

  async updateCard(cardId: string, set: Partial<Pick<CardRow, 'card_status' | 'expmonth' | 'expyear' | 'name_on_card'>>): Promise<void> {
    await this.#db.updateTable('payments_cards').set(set).where('card_id', '=', cardId).execute();
  }

  async deleteCard(cardId: string): Promise<boolean> {
    const res = await this.#db.deleteFrom('payments_cards').where('card_id', '=', cardId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}

function toAccount(r: any): AccountRow {
  return {
    clientid: r.clientid,
    account_id: r.account_id,
    unique_id: r.unique_id,
    status: r.status,
    contact: JSON.parse(r.contact),
    default_card_id: r.default_card_id ?? null,
    created_at: Number(r.created_at),
    last_modified: Number(r.last_modified),
  };
}

function toCard(r: any): CardRow {
  return { ...r, expmonth: Number(r.expmonth), expyear: Number(r.expyear), created_at: Number(r.created_at), position: Number(r.position), name_on_card: r.name_on_card ?? null };
}
