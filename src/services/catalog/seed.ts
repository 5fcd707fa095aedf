// Default accounts: a multi-client account administered by the development user, with one sub-account.
import { DEV_PRINCIPAL_ID } from '../../core/runtime.ts';
import type { Catalog } from './catalog.ts';

export async function seedAccounts(cat: Catalog): Promise<void> {
  const { mcaId, subAccountId } = cat.settings.seed;
  const dev = await cat.ctx.identity.getPrincipal(DEV_PRINCIPAL_ID);
  const devEmail = typeof dev?.attrs.email === 'string' ? dev.attrs.email : 'developer@twinstack.local';
  const now = cat.now();
  await cat.write(async (s) => {
    if (!(await s.account(mcaId))) {
      await s.saveAccount({
        id: mcaId,
        aggregatorId: null,
        isMca: true,
        name: 'Twinstack MCA',
        doc: { websiteUrl: 'https://mca.example.com', adultContent: false, users: [{ emailAddress: devEmail, admin: true }] },
        createdAt: now,
        updatedAt: now,
      });
    }
    if (!(await s.account(subAccountId))) {
      await s.saveAccount({
        id: subAccountId,
        aggregatorId: mcaId,
        isMca: false,
        name: 'Twinstack shop',
        doc: { websiteUrl: 'https://shop.example.com', adultContent: false, users: [] },
        createdAt: now,
        updatedAt: now,
      });
    }
  });
}
