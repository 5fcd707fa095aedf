// Admin routes under /services/catalog/: accounts outside any MCA (the admin creates the roots of the hierarchy) and
// the performance simulator.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service.ts';
import { catalogOf } from './catalog.ts';
import { randomNumericId } from './ids.ts';
import { simulatePerformance } from './performance.ts';
import type { AccountRow } from './store.ts';

interface AccountInput {
  id?: string;
  name?: string;
  aggregatorId?: string;
  mca?: boolean;
  websiteUrl?: string;
  users?: Array<{ emailAddress: string; admin?: boolean }>;
}

export async function catalogAdmin(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const cat = catalogOf(ctx);

  app.get('/accounts', async () => {
    const rows = await ctx.kysely.selectFrom('catalog_accounts').select(['id', 'aggregator_id', 'is_mca', 'name']).orderBy('id').execute();
    return { accounts: rows.map((r) => ({ id: r.id, aggregatorId: r.aggregator_id ?? undefined, mca: Number(r.is_mca) === 1, name: r.name })) };
  });

  app.post('/accounts', async (req) => {
    const input = (req.body ?? {}) as AccountInput;
    if (typeof input.name !== 'string' || input.name.trim() === '') throw new ApiError(400, 'name is required');
    if (input.id !== undefined && !/^\d{1,20}$/.test(String(input.id))) throw new ApiError(400, 'id must be numeric');
    if (input.users !== undefined && (!Array.isArray(input.users) || input.users.some((u) => typeof u?.emailAddress !== 'string'))) {
      throw new ApiError(400, 'users must be a list of {emailAddress, admin}');
    }
    const id = input.id === undefined ? randomNumericId() : String(input.id);
    const now = cat.now();
    const row: AccountRow = {
      id,
      aggregatorId: input.aggregatorId ?? null,
      isMca: input.mca === true,
      name: input.name,
      doc: { websiteUrl: input.websiteUrl, adultContent: false, users: (input.users ?? []).map((u) => ({ emailAddress: u.emailAddress, admin: u.admin === true })) },
      createdAt: now,
      updatedAt: now,
    };
    if (row.doc.websiteUrl === undefined) delete row.doc.websiteUrl;
    await cat.write(async (s) => {
      if (await s.account(id)) throw new ApiError(409, `account ${id} already exists`);
      if (row.aggregatorId !== null) {
        const parent = await s.account(row.aggregatorId);
        if (!parent?.isMca) throw new ApiError(400, `aggregator ${row.aggregatorId} is not a multi-client account`);
      }
      await s.saveAccount(row);
    });
    return { id, aggregatorId: row.aggregatorId ?? undefined, mca: row.isMca, name: row.name };
  });

  app.post('/simulate', async (req) => {
    const body = (req.body ?? {}) as { merchantId?: unknown; days?: unknown; seed?: unknown; end?: unknown };
    if (typeof body.merchantId !== 'string' || !(await cat.store.account(body.merchantId))) throw new ApiError(400, 'merchantId must name an existing account');
    const days = body.days ?? 30;
    if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > 366) throw new ApiError(400, 'days must be a whole number from 1 to 366');
    if (body.end !== undefined && (typeof body.end !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.end))) throw new ApiError(400, 'end must be a YYYY-MM-DD date');
    return simulatePerformance(cat, body.merchantId, { days: days as number, seed: String(body.seed ?? '1'), end: body.end as string | undefined });
  });
}
