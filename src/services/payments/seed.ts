// At start (and after a reset): clients and merchants from the configuration, the development client and merchant,
// and each merchant's daily batch close.
import { merchantFromConfig, DEV_CLIENT_ID, DEV_MERCHANT_ID } from './settings.ts';
import type { Gateway } from './gateway.ts';

export async function seed(g: Gateway): Promise<void> {
  g.clients.forget();
  const now = g.ctx.clock.now();
  if (g.settings.dev_client !== false) {
    await g.clients.upsert({ clientid: DEV_CLIENT_ID, name: 'Development client', licenceKey: g.settings.dev_licence_key });
    const previous = await g.merchants.get(DEV_MERCHANT_ID);
    if (!previous) {
      await g.merchants.upsert(merchantFromConfig({ merchantid: DEV_MERCHANT_ID, clientid: DEV_CLIENT_ID, name: 'Development merchant' }), now);
    }
  }
  for (const c of g.settings.clients ?? []) {
    const existing = await g.clients.get(c.clientid);
    await g.clients.upsert({ clientid: c.clientid, name: c.name ?? existing?.name ?? c.clientid, licenceKey: c.licence_key, acceptedSources: c.accepted_sources });
  }
  for (const m of g.settings.merchants ?? []) {
    if (!(await g.clients.get(m.clientid))) throw new Error(`services.payments settings: merchant ${m.merchantid} names unknown client ${m.clientid}`);
    await g.merchants.upsert(merchantFromConfig(m, await g.merchants.get(m.merchantid)), now);
  }
  for (const m of await g.merchants.list()) await g.batches.schedule(m);
}
