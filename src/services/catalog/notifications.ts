// Product status change notifications. Content API publishes them to the Cloud Pub/Sub topic registered through
// pubsubnotificationsettings; here a webhook carrying a Pub/Sub push envelope stands in for the topic. The push
// target is the topic itself when it is an http(s) URL, otherwise the URL configured for it in
// `services.catalog.pubsubEndpoints`.
import type { Kysely } from 'kysely';
import type { Catalog } from './catalog.ts';
import type { CatalogStore } from './store.ts';

export const STATUS_EVENT = 'productStatusChangeEvent';

type Status = Record<string, any> | undefined;

/** Per destination and country, the status a product had and has ('approved', 'disapproved', 'pending' or absent). */
function countryStates(status: Status): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of status?.destinationStatuses ?? []) {
    for (const c of d.approvedCountries ?? []) out.set(`${d.destination}|${c}`, 'approved');
    for (const c of d.pendingCountries ?? []) out.set(`${d.destination}|${c}`, 'pending');
    for (const c of d.disapprovedCountries ?? []) out.set(`${d.destination}|${c}`, 'disapproved');
  }
  return out;
}

export function statusChanges(before: Status, after: Status): Array<{ reporting_context: string; region_code: string; old_value?: string; new_value?: string }> {
  const a = countryStates(before);
  const b = countryStates(after);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys
    .filter((k) => a.get(k) !== b.get(k))
    .map((k) => {
      const [destination, country] = k.split('|');
      const change: { reporting_context: string; region_code: string; old_value?: string; new_value?: string } = { reporting_context: destination, region_code: country };
      if (a.has(k)) change.old_value = a.get(k);
      if (b.has(k)) change.new_value = b.get(k);
      return change;
    });
}

export function pushTarget(cat: Catalog, topic: string): string | undefined {
  if (/^https?:\/\//i.test(topic)) return topic;
  const endpoints = (cat.ctx.settings.pubsubEndpoints ?? {}) as Record<string, string>;
  return endpoints[topic];
}

export async function notifyStatusChange(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, productId: string, before: Status, after: Status): Promise<void> {
  const settings = await store.resource(merchantId, 'pubsubnotificationsettings', 'settings');
  if (!settings || !(settings.doc.registeredEvents ?? []).includes(STATUS_EVENT) || !settings.doc.cloudTopicName) return;
  const target = pushTarget(cat, settings.doc.cloudTopicName);
  if (!target) return;
  const changes = statusChanges(before, after);
  if (changes.length === 0) return;
  const account = await store.account(merchantId);
  const now = cat.now();
  const data = {
    account_id: merchantId,
    managing_account_id: account?.aggregatorId ?? merchantId,
    resource_type: 'product',
    attribute: 'status',
    resource_id: productId,
    changes,
    event_time: new Date(now).toISOString(),
  };
  const messageId = `${merchantId}-${now}-${Math.random().toString(36).slice(2, 10)}`;
  const envelope = {
    message: {
      data: Buffer.from(JSON.stringify(data)).toString('base64'),
      attributes: { event: STATUS_EVENT, merchantId },
      messageId,
      publishTime: new Date(now).toISOString(),
    },
    subscription: settings.doc.cloudTopicName,
  };
  await cat.ctx.outbox.enqueue(
    { service: 'catalog', channel: 'webhook', recipient: target, body: JSON.stringify(envelope), headers: { 'content-type': 'application/json' }, correlation: `product:${merchantId}:${productId}` },
    tx,
  );
}
