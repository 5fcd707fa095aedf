// Free listings and Shopping ads programs: a status per region derived from the account and its products, reviews
// requested per region and decided by a durable job, and free listings checkout settings.
import { GoogleError, notFound } from '../../../core/google/index.ts';
import type { Job } from '../../../core/jobs.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { catalogOf, type Catalog } from '../catalog.ts';
import type { Operation } from '../layer/operation.ts';
import { websiteClaimed } from '../routes/accounts.ts';
import type { AccountRow } from '../store.ts';
import { badRequest, country } from '../wire/rules.ts';
import { bodyObject, checkWire, readBody } from '../wire/validate.ts';
import { wireBody } from '../schemas/wire.ts';

export const REVIEW_JOB = 'program-review';
/** How long a requested review takes, in domain time. */
const REVIEW_MS = 24 * 3600_000;

type Program = 'freelistingsprogram' | 'shoppingadsprogram';
const DESTINATION: Record<Program, string> = { freelistingsprogram: 'SurfacesAcrossGoogle', shoppingadsprogram: 'Shopping' };

/** Per country: how many of the account's products serve on the program's destination, and how many are disapproved. */
async function productTallies(cat: Catalog, merchantId: string, destination: string): Promise<Map<string, { approved: number; disapproved: number }>> {
  const rows = await cat.ctx.db.heavyRead(cat.ctx.kysely.selectFrom('catalog_products').select(['status']).where('merchant_id', '=', merchantId));
  const out = new Map<string, { approved: number; disapproved: number }>();
  for (const r of rows as Array<{ status: string }>) {
    for (const d of JSON.parse(r.status).destinationStatuses ?? []) {
      if (d.destination !== destination) continue;
      for (const c of d.approvedCountries ?? []) out.set(c, { ...(out.get(c) ?? { approved: 0, disapproved: 0 }), approved: (out.get(c)?.approved ?? 0) + 1 });
      for (const c of d.disapprovedCountries ?? []) out.set(c, { ...(out.get(c) ?? { approved: 0, disapproved: 0 }), disapproved: (out.get(c)?.disapproved ?? 0) + 1 });
    }
  }
  return out;
}

async function programStatus(cat: Catalog, program: Program, account: AccountRow) {
  const tallies = await productTallies(cat, account.id, DESTINATION[program]);
  const reviews = (await cat.store.resource(account.id, program, 'reviews'))?.doc ?? {};
  const claimed = await websiteClaimed(cat.store, account.id);
  const regionStatuses = [...tallies.keys()].sort().map((region) => {
    const t = tallies.get(region)!;
    const review = reviews[region] as { state: string; decidedAt?: string } | undefined;
    const status: Record<string, unknown> = { regionCodes: [region] };
    if (!claimed) {
      status.eligibilityStatus = 'ONBOARDING';
      status.onboardingIssues = ['website_not_claimed'];
      status.reviewEligibilityStatus = 'INELIGIBLE';
      status.reviewIneligibilityReason = 'ONBOARDING_ISSUES';
    } else if (review?.state === 'UNDER_REVIEW') {
      status.eligibilityStatus = 'UNDER_REVIEW';
      status.reviewEligibilityStatus = 'INELIGIBLE';
      status.reviewIneligibilityReason = 'IN_COOLDOWN_PERIOD';
    } else if (t.disapproved > t.approved || review?.state === 'DISAPPROVED') {
      status.eligibilityStatus = 'DISAPPROVED';
      status.reviewEligibilityStatus = 'ELIGIBLE';
      status.reviewIssues = ['too_many_disapproved_products'];
      if (review?.decidedAt) status.disapprovalDate = review.decidedAt.slice(0, 10);
    } else {
      status.eligibilityStatus = 'APPROVED';
      status.reviewEligibilityStatus = 'INELIGIBLE';
      status.reviewIneligibilityReason = 'REVIEW_NOT_NEEDED';
    }
    return status;
  });
  const globalState = regionStatuses.some((r) => r.eligibilityStatus === 'APPROVED') ? 'ENABLED' : regionStatuses.length > 0 ? 'NOT_ENABLED' : 'PROGRAM_STATE_UNSPECIFIED';
  return { globalState, regionStatuses };
}

function programOperations(program: Program): Operation[] {
  const get: Operation = { method: `${program}.get`, verb: 'GET', path: `/{merchantId}/${program}`, scope: 'merchant', run: (cat, call) => programStatus(cat, program, call.merchant) };
  const requestReview: Operation = {
    method: `${program}.requestreview`,
    verb: 'POST',
    path: `/{merchantId}/${program}/requestreview`,
    scope: 'merchant',
    request: {
      body: wireBody(program === 'freelistingsprogram' ? 'RequestReviewFreeListingsRequest' : 'RequestReviewShoppingAdsRequest', {
        rules: { regionCode: { pattern: '^[A-Z]{2}$', description: 'The region to review (CLDR code); it must be eligible.' } },
        required: ['regionCode'],
      }),
    },
    async run(cat, call) {
      const body = checkWire<{ regionCode?: string }>(bodyObject(call.body), program === 'freelistingsprogram' ? 'RequestReviewFreeListingsRequest' : 'RequestReviewShoppingAdsRequest', 'request');
      country(body.regionCode, 'regionCode', true);
      const status = await programStatus(cat, program, call.merchant);
      const region = status.regionStatuses.find((r) => (r.regionCodes as string[]).includes(body.regionCode!));
      if (!region || region.reviewEligibilityStatus !== 'ELIGIBLE') {
        throw new GoogleError(400, `Region ${body.regionCode} is not eligible for review (${region ? String(region.eligibilityStatus) : 'no products there'}).`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
      }
      const now = cat.now();
      await cat.write(async (s, tx) => {
        const reviews = (await s.resource(call.merchant.id, program, 'reviews'))?.doc ?? {};
        reviews[body.regionCode!] = { state: 'UNDER_REVIEW', requestedAt: new Date(now).toISOString() };
        await s.putResource(call.merchant.id, program, 'reviews', reviews, now);
        await cat.ctx.jobs.schedule(
          { service: 'catalog', kind: REVIEW_JOB, runAt: now + REVIEW_MS, payload: { merchantId: call.merchant.id, program, region: body.regionCode }, key: `catalog:${REVIEW_JOB}:${program}:${call.merchant.id}:${body.regionCode}` },
          tx,
        );
      });
      return {};
    },
  };
  return [get, requestReview];
}

/** Decides a review: approved when most of the region's products now serve, disapproved otherwise. */
export async function decideReview(job: Job, ctx: ServiceContext): Promise<void> {
  const cat = catalogOf(ctx);
  const { merchantId, program, region } = job.payload as { merchantId: string; program: Program; region: string };
  const tally = (await productTallies(cat, merchantId, DESTINATION[program])).get(region) ?? { approved: 0, disapproved: 0 };
  await cat.write(async (s) => {
    const reviews = (await s.resource(merchantId, program, 'reviews'))?.doc ?? {};
    if (reviews[region]?.state !== 'UNDER_REVIEW') return;
    reviews[region] = { state: tally.approved >= tally.disapproved && tally.approved > 0 ? 'APPROVED' : 'DISAPPROVED', decidedAt: new Date(cat.now()).toISOString() };
    await s.putResource(merchantId, program, 'reviews', reviews, cat.now());
  });
}

function checkoutOperations(): Operation[] {
  const path = '/{merchantId}/freelistingsprogram/checkoutsettings';
  const present = (merchantId: string, doc: Record<string, any>) => ({
    merchantId,
    uriSettings: doc.uriSettings,
    enrollmentState: 'ENROLLED',
    reviewState: doc.reviewState,
    effectiveUriSettings: doc.uriSettings,
    effectiveEnrollmentState: 'ENROLLED',
    effectiveReviewState: doc.reviewState,
  });
  const get: Operation = {
    method: 'freelistingsprogram.checkoutsettings.get',
    verb: 'GET',
    path,
    scope: 'merchant',
    async run(cat, call) {
      const row = await cat.store.resource(call.merchant.id, 'checkoutsettings', call.merchant.id);
      if (!row) throw notFound('The merchant is not enrolled in checkout on free listings.');
      return present(call.merchant.id, row.doc);
    },
  };
  const insert: Operation = {
    method: 'freelistingsprogram.checkoutsettings.insert',
    verb: 'POST',
    path,
    scope: 'merchant',
    request: {
      body: wireBody('InsertCheckoutSettingsRequest', {
        rules: { uriSettings: { description: 'Exactly one of checkoutUriTemplate and cartUriTemplate: an https:// URL containing {id}.' } },
        required: ['uriSettings'],
      }),
    },
    async run(cat, call) {
      const body = readBody(call.body, 'InsertCheckoutSettingsRequest', 'request', ['uriSettings']);
      const { checkoutUriTemplate, cartUriTemplate } = body.uriSettings;
      if ((checkoutUriTemplate === undefined) === (cartUriTemplate === undefined)) throw badRequest('uriSettings takes exactly one of checkoutUriTemplate and cartUriTemplate.');
      const template = String(checkoutUriTemplate ?? cartUriTemplate);
      if (!/^https:\/\//.test(template) || !template.includes('{id}')) throw badRequest('The URI template must be an https:// URL containing {id}.');
      const doc = { uriSettings: body.uriSettings, reviewState: 'IN_REVIEW' };
      await cat.write((s) => s.putResource(call.merchant.id, 'checkoutsettings', call.merchant.id, doc, cat.now()));
      return present(call.merchant.id, doc);
    },
  };
  const remove: Operation = {
    method: 'freelistingsprogram.checkoutsettings.delete',
    verb: 'DELETE',
    path,
    scope: 'merchant',
    async run(cat, call) {
      await cat.write(async (s) => {
        if (!(await s.deleteResource(call.merchant.id, 'checkoutsettings', call.merchant.id))) throw notFound('The merchant is not enrolled in checkout on free listings.');
      });
      return undefined;
    },
  };
  return [get, insert, remove];
}

export function programsOperations(): Operation[] {
  return [...programOperations('freelistingsprogram'), ...programOperations('shoppingadsprogram'), ...checkoutOperations()];
}
