// Queries of the merchant catalog. A store wraps one executor: ctx.kysely for reads, the unit's tx inside db.write.
import type { Kysely } from 'kysely';
import { preparedOn } from '../../core/db/prepared.ts';

export interface AccountRow {
  id: string;
  aggregatorId: string | null;
  isMca: boolean;
  name: string;
  doc: Record<string, any>;
  createdAt: number;
  updatedAt: number;
}

export interface ResourceRow {
  id: string;
  state: string | null;
  doc: Record<string, any>;
  createdAt: number;
  updatedAt: number;
}

export interface ProductRow {
  merchantId: string;
  id: string;
  offerId: string;
  channel: string;
  contentLanguage: string;
  feedLabel: string;
  feedId: string | null;
  doc: Record<string, any>;
  status: Record<string, any>;
  approved: boolean;
  /** Stores whose local inventory has the product in stock. */
  localStores: number;
  createdAt: number;
  updatedAt: number;
}

export interface Page<T> {
  items: T[];
  /** The id to resume after, when there is more. */
  next?: string;
}

const toAccount = (r: any): AccountRow => ({
  id: r.id,
  aggregatorId: r.aggregator_id ?? null,
  isMca: Number(r.is_mca) === 1,
  name: r.name,
  doc: JSON.parse(r.doc),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});
/** A product stored with a target country only, before the label was always kept, gets the label of its row. */
function withFeedLabel(doc: Record<string, any>, label: string): Record<string, any> {
  if (doc.feedLabel === undefined && typeof label === 'string') doc.feedLabel = label;
  return doc;
}
const toResource = (r: any): ResourceRow => ({ id: r.id, state: r.state ?? null, doc: JSON.parse(r.doc), createdAt: Number(r.created_at), updatedAt: Number(r.updated_at) });
export const toProduct = (r: any): ProductRow => ({
  merchantId: r.merchant_id,
  id: r.id,
  offerId: r.offer_id,
  channel: r.channel,
  contentLanguage: r.content_language,
  feedLabel: r.feed_label,
  feedId: r.feed_id ?? null,
  doc: withFeedLabel(JSON.parse(r.doc), r.feed_label),
  status: r.status === undefined ? {} : JSON.parse(r.status),
  approved: Number(r.approved) === 1,
  localStores: Number(r.local_stores ?? 0),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

function paged<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: items[items.length - 1].id };
}

// The reads of every request on an account's products, compiled once (parameters in the order of their SQL).
/** An account, and whether a user (by lower-cased email; parameters: email, account id) may reach it. */
const accountWithReach = preparedOn<Record<string, any>>((db) =>
  db
    .selectFrom('catalog_accounts as a')
    .selectAll('a')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('catalog_account_users as u')
            .select('u.account_id')
            .where('u.email', '=', '')
            .where((w) => w.or([w('u.account_id', '=', w.ref('a.id')), w('u.account_id', '=', w.ref('a.aggregator_id'))])),
        )
        .as('reachable'),
    )
    .where('a.id', '=', ''),
);
const productById = preparedOn<Record<string, any>>((db) => db.selectFrom('catalog_products').selectAll().where('merchant_id', '=', '').where('id', '=', ''));
const productForUpdate = preparedOn<Record<string, any>>((db) => db.selectFrom('catalog_products').selectAll().where('merchant_id', '=', '').where('id', '=', '').forUpdate());

export class CatalogStore {
  readonly db: Kysely<any>;
  /**
   * Set for a unit of work on PostgreSQL, where units run at once: a product or resource it reads is locked until it
   * commits, so the unit's read-merge-write of it is not undone by another's (and a second delete finds it gone);
   * an account it reads is held shared (its settings are read by every write, changed by few).
   */
  readonly #lockRows: boolean;

  constructor(db: Kysely<any>, options: { lockRows?: boolean } = {}) {
    this.db = db;
    this.#lockRows = options.lockRows ?? false;
  }

  // ---- accounts

  async account(id: string): Promise<AccountRow | undefined> {
    const q = this.db.selectFrom('catalog_accounts').selectAll().where('id', '=', id);
    const r = await (this.#lockRows ? q.forShare() : q).executeTakeFirst();
    return r ? toAccount(r) : undefined;
  }

  async subAccounts(aggregatorId: string, after: string | undefined, limit: number): Promise<Page<AccountRow>> {
    let q = this.db.selectFrom('catalog_accounts').selectAll().where('aggregator_id', '=', aggregatorId).orderBy('id').limit(limit + 1);
    if (after !== undefined) q = q.where('id', '>', after);
    return paged((await q.execute()).map(toAccount), limit);
  }

  async allSubAccountIds(aggregatorId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('catalog_accounts').select('id').where('aggregator_id', '=', aggregatorId).orderBy('id').execute();
    return rows.map((r) => r.id as string);
  }

  async saveAccount(a: AccountRow): Promise<void> {
    const values = {
      id: a.id,
      aggregator_id: a.aggregatorId,
      is_mca: a.isMca ? 1 : 0,
      name: a.name,
      doc: JSON.stringify(a.doc),
      created_at: a.createdAt,
      updated_at: a.updatedAt,
    };
    await this.db
      .insertInto('catalog_accounts')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: values.name, doc: values.doc, is_mca: values.is_mca, updated_at: values.updated_at }))
      .execute();
    await this.db.deleteFrom('catalog_account_users').where('account_id', '=', a.id).execute();
    const users = Array.isArray(a.doc.users) ? a.doc.users : [];
    const seen = new Set<string>();
    for (const u of users) {
      const email = String(u.emailAddress ?? '').toLowerCase();
      if (!email || seen.has(email)) continue;
      seen.add(email);
      await this.db.insertInto('catalog_account_users').values({ email, account_id: a.id, admin: u.admin ? 1 : 0 }).execute();
    }
  }

  async deleteAccount(id: string): Promise<void> {
    await this.db.deleteFrom('catalog_account_users').where('account_id', '=', id).execute();
    await this.db.deleteFrom('catalog_resources').where('merchant_id', '=', id).execute();
    await this.db.deleteFrom('catalog_products').where('merchant_id', '=', id).execute();
    await this.db.deleteFrom('catalog_performance').where('merchant_id', '=', id).execute();
    await this.db.deleteFrom('catalog_accounts').where('id', '=', id).execute();
  }

  /** Accounts that list this e-mail address among their users. */
  async accountsOfUser(email: string): Promise<Array<{ id: string; aggregatorId: string | null; isMca: boolean }>> {
    const rows = await this.db
      .selectFrom('catalog_account_users as u')
      .innerJoin('catalog_accounts as a', 'a.id', 'u.account_id')
      .select(['a.id as id', 'a.aggregator_id as aggregator_id', 'a.is_mca as is_mca'])
      .where('u.email', '=', email.toLowerCase())
      .orderBy('a.id')
      .execute();
    return rows.map((r) => ({ id: r.id as string, aggregatorId: (r.aggregator_id as string) ?? null, isMca: Number(r.is_mca) === 1 }));
  }

  /** The account, and whether `email` is among the users of it or of its aggregator (one query: checked on every call). */
  async accountForUser(id: string, email: string | undefined): Promise<{ account: AccountRow; reachable: boolean } | undefined> {
    const r = (await accountWithReach(this.db, (email ?? '').toLowerCase(), id)).rows[0];
    if (!r) return undefined;
    return { account: toAccount(r), reachable: email !== undefined && (r.reachable === true || Number(r.reachable) === 1) };
  }

  // ---- generic resources

  async resource(merchantId: string, resource: string, id: string): Promise<ResourceRow | undefined> {
    const q = this.db.selectFrom('catalog_resources').selectAll().where('merchant_id', '=', merchantId).where('resource', '=', resource).where('id', '=', id);
    const r = await (this.#lockRows ? q.forUpdate() : q).executeTakeFirst();
    return r ? toResource(r) : undefined;
  }

  async resources(merchantId: string, resource: string, options: { after?: string; limit: number; states?: string[] }): Promise<Page<ResourceRow>> {
    let q = this.db
      .selectFrom('catalog_resources')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('resource', '=', resource)
      .orderBy('id')
      .limit(options.limit + 1);
    if (options.after !== undefined) q = q.where('id', '>', options.after);
    if (options.states) q = q.where('state', 'in', options.states);
    return paged((await q.execute()).map(toResource), options.limit);
  }

  /** Every row of one resource kind across merchants in a given state (used by label clean-up and expiry). */
  async resourcesInState(resource: string, state: string): Promise<Array<ResourceRow & { merchantId: string }>> {
    const rows = await this.db.selectFrom('catalog_resources').selectAll().where('resource', '=', resource).where('state', '=', state).execute();
    return rows.map((r) => ({ ...toResource(r), merchantId: r.merchant_id as string }));
  }

  async putResource(merchantId: string, resource: string, id: string, doc: Record<string, unknown>, now: number, state: string | null = null): Promise<void> {
    const json = JSON.stringify(doc);
    await this.db
      .insertInto('catalog_resources')
      .values({ merchant_id: merchantId, resource, id, state, doc: json, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'resource', 'id']).doUpdateSet({ doc: json, state, updated_at: now }))
      .execute();
  }

  async deleteResource(merchantId: string, resource: string, id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('catalog_resources')
      .where('merchant_id', '=', merchantId)
      .where('resource', '=', resource)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  // ---- products

  async product(merchantId: string, id: string): Promise<ProductRow | undefined> {
    const r = (await (this.#lockRows ? productForUpdate : productById)(this.db, merchantId, id)).rows[0];
    return r ? toProduct(r) : undefined;
  }

  /** A page of products by id. The stored status is left out (lists re-derive statuses at read time). */
  async products(merchantId: string, after: string | undefined, limit: number): Promise<Page<ProductRow>> {
    let q = this.db
      .selectFrom('catalog_products')
      .select(['merchant_id', 'id', 'offer_id', 'channel', 'content_language', 'feed_label', 'feed_id', 'doc', 'approved', 'local_stores', 'created_at', 'updated_at'])
      .where('merchant_id', '=', merchantId)
      .orderBy('id')
      .limit(limit + 1);
    if (after !== undefined) q = q.where('id', '>', after);
    return paged((await q.execute()).map(toProduct), limit);
  }

  async productsByOffer(merchantId: string, offerIds: string[]): Promise<ProductRow[]> {
    if (offerIds.length === 0) return [];
    const rows = await this.db.selectFrom('catalog_products').selectAll().where('merchant_id', '=', merchantId).where('offer_id', 'in', offerIds).execute();
    return rows.map(toProduct);
  }

  async productsOfFeed(merchantId: string, feedId: string): Promise<Array<{ id: string }>> {
    return (await this.db.selectFrom('catalog_products').select('id').where('merchant_id', '=', merchantId).where('feed_id', '=', feedId).execute()) as Array<{ id: string }>;
  }

  async saveProduct(p: ProductRow): Promise<void> {
    const values = {
      merchant_id: p.merchantId,
      id: p.id,
      offer_id: p.offerId,
      channel: p.channel,
      content_language: p.contentLanguage,
      feed_label: p.feedLabel,
      feed_id: p.feedId,
      doc: JSON.stringify(p.doc),
      status: JSON.stringify(p.status),
      approved: p.approved ? 1 : 0,
      local_stores: p.localStores,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
    };
    const { merchant_id: _m, id: _i, created_at: _c, ...update } = values;
    await this.db
      .insertInto('catalog_products')
      .values(values)
      .onConflict((oc) => oc.columns(['merchant_id', 'id']).doUpdateSet(update))
      .execute();
  }

  async deleteProduct(merchantId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('catalog_products').where('merchant_id', '=', merchantId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  // ---- quota usage

  async usage(merchantId: string, day: string): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('catalog_quota_usage').select(['method', 'calls']).where('merchant_id', '=', merchantId).where('day', '=', day).execute();
    return new Map(rows.map((r) => [r.method as string, Number(r.calls)]));
  }
}
