// Conversion sources: delete archives (restorable by undelete until the grace period ends), a durable job removes
// them for good at `expireTime`.
import { Type } from '@sinclair/typebox';
import { GoogleError, notFound } from '../../../core/google/index.ts';
import type { Job } from '../../../core/jobs.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { catalogOf } from '../catalog.ts';
import type { Operation } from '../layer/operation.ts';
import { defineResource, type ResourceSpec } from '../layer/resource.ts';
import { badRequest, inRange, oneOf, requireValue } from '../wire/rules.ts';
import { WIRE_TYPES } from '../wire/types.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { wireBody } from '../schemas/wire.ts';

export const EXPIRY_JOB = 'conversionsource-expiry';
const ATTRIBUTION_MODELS = ['CROSS_CHANNEL_LAST_CLICK', 'ADS_PREFERRED_LAST_CLICK', 'CROSS_CHANNEL_DATA_DRIVEN', 'CROSS_CHANNEL_FIRST_CLICK', 'CROSS_CHANNEL_LINEAR', 'CROSS_CHANNEL_POSITION_BASED', 'CROSS_CHANNEL_TIME_DECAY'];

/** Rules derive() enforces on attribution settings, wherever they appear. */
const attributionDocs = (path: string) => ({
  [`${path}.attributionLookbackWindowInDays`]: { minimum: 1, maximum: 90, description: 'Days a conversion is attributed back (1 to 90); required.' },
  [`${path}.attributionModel`]: { enum: ATTRIBUTION_MODELS, description: 'How credit is shared among clicks; required.' },
});

const jobKey = (merchantId: string, id: string) => `catalog:${EXPIRY_JOB}:${merchantId}:${id}`;

function checkAttribution(settings: Record<string, any> | undefined, path: string): void {
  if (!settings) return;
  requireValue(settings.attributionLookbackWindowInDays, `${path}.attributionLookbackWindowInDays`);
  inRange(settings.attributionLookbackWindowInDays, 1, 90, `${path}.attributionLookbackWindowInDays`);
  requireValue(settings.attributionModel, `${path}.attributionModel`);
  oneOf(settings.attributionModel, ATTRIBUTION_MODELS, `${path}.attributionModel`);
}

export const conversionSources: ResourceSpec = {
  name: 'conversionsources',
  idParam: 'conversionSourceId',
  idField: 'conversionSourceId',
  wire: 'ConversionSource',
  methods: ['create', 'get', 'list', 'patch', 'delete'],
  id: { from: 'generated' },
  list: { field: 'conversionSources', paging: 'pageSize' },
  maxLengths: { 'merchantCenterDestination.displayName': 64 },
  docs: {
    rules: {
      googleAnalyticsLink: { description: 'A Google Analytics property as the source; exactly one of this and merchantCenterDestination.' },
      merchantCenterDestination: { description: 'A Merchant Center destination as the source: displayName, currencyCode and attributionSettings required.' },
      'googleAnalyticsLink.propertyId': { pattern: '^\\d+$', description: 'Numeric id of the Analytics property; required.' },
      'merchantCenterDestination.currencyCode': { pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency of the conversions.' },
      ...attributionDocs('googleAnalyticsLink.attributionSettings'),
      ...attributionDocs('merchantCenterDestination.attributionSettings'),
      state: { description: 'Output only: ACTIVE, ARCHIVED or PENDING.' },
    },
    query: { list: { showDeleted: Type.Optional(Type.Boolean({ description: 'Also list archived sources.' })) } },
  },
  state: {
    of: (doc) => doc.state,
    // Archived sources are read by get and by list with showDeleted; they cannot be changed or archived again.
    visible: (state, query, method) => state !== 'ARCHIVED' || method === 'get' || (method === 'list' && String(query.showDeleted) === 'true'),
  },
  derive(doc, w) {
    if ((doc.googleAnalyticsLink === undefined) === (doc.merchantCenterDestination === undefined)) {
      throw badRequest('A conversion source is exactly one of googleAnalyticsLink and merchantCenterDestination.');
    }
    if (doc.googleAnalyticsLink) {
      const link = doc.googleAnalyticsLink;
      requireValue(link.propertyId, 'conversionSource.googleAnalyticsLink.propertyId');
      if (!/^\d+$/.test(String(link.propertyId))) throw badRequest('conversionSource.googleAnalyticsLink.propertyId must be numeric.');
      link.propertyName = `properties/${link.propertyId}`;
      checkAttribution(link.attributionSettings, 'conversionSource.googleAnalyticsLink.attributionSettings');
    } else {
      const dest = doc.merchantCenterDestination;
      requireValue(dest.displayName, 'conversionSource.merchantCenterDestination.displayName');
      requireValue(dest.currencyCode, 'conversionSource.merchantCenterDestination.currencyCode');
      if (!/^[A-Z]{3}$/.test(dest.currencyCode)) throw badRequest('conversionSource.merchantCenterDestination.currencyCode must be an ISO 4217 code.');
      requireValue(dest.attributionSettings, 'conversionSource.merchantCenterDestination.attributionSettings');
      checkAttribution(dest.attributionSettings, 'conversionSource.merchantCenterDestination.attributionSettings');
      dest.destinationId ??= `MC-${w.merchantId}-${doc.conversionSourceId}`;
    }
    doc.state ??= 'ACTIVE';
  },
  async remove(existing, w) {
    const expireAt = w.now + catalogOf(w.cat.ctx).settings.conversionSourceGraceDays * 86_400_000;
    const doc = { ...existing, state: 'ARCHIVED', expireTime: new Date(expireAt).toISOString() };
    await w.store.putResource(w.merchantId, 'conversionsources', existing.conversionSourceId, doc, w.now, 'ARCHIVED');
    await w.cat.ctx.jobs.schedule(
      { service: 'catalog', kind: EXPIRY_JOB, runAt: expireAt, payload: { merchantId: w.merchantId, id: existing.conversionSourceId }, key: jobKey(w.merchantId, existing.conversionSourceId) },
      w.tx,
    );
    return undefined;
  },
};

export function conversionSourceOperations(): Operation[] {
  const ops = defineResource(
    {
      ...conversionSources,
      // Output-only fields sent by a client are ignored rather than stored.
      validate(doc) {
        if (doc.state !== 'ACTIVE' && doc.state !== 'ARCHIVED' && doc.state !== 'PENDING') throw badRequest('conversionSource.state is output only.');
      },
    },
    WIRE_TYPES,
  );
  const undelete: Operation = {
    method: 'conversionsources.undelete',
    verb: 'POST',
    path: '/{merchantId}/conversionsources/{conversionSourceId}:undelete',
    scope: 'merchant',
    request: { body: wireBody('UndeleteConversionSourceRequest') },
    async run(cat, call) {
      checkWire(bodyObject(call.body), 'UndeleteConversionSourceRequest', 'request');
      const id = call.params.conversionSourceId;
      await cat.write(async (s, tx) => {
        const row = await s.resource(call.merchant.id, 'conversionsources', id);
        if (!row) throw notFound(`ConversionSource ${id} not found in merchant.`);
        if (row.state !== 'ARCHIVED') throw new GoogleError(400, `ConversionSource ${id} is not archived.`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
        const { expireTime: _expired, ...doc } = row.doc;
        await s.putResource(call.merchant.id, 'conversionsources', id, { ...doc, state: 'ACTIVE' }, cat.now(), 'ACTIVE');
        await cat.ctx.jobs.cancel(jobKey(call.merchant.id, id), tx);
      });
      return {};
    },
  };
  return [...ops, undelete];
}

/** Removes an archived source whose grace period has ended (unless it was restored meanwhile). */
export async function expireConversionSource(job: Job, ctx: ServiceContext): Promise<void> {
  const cat = catalogOf(ctx);
  const { merchantId, id } = job.payload as { merchantId: string; id: string };
  await cat.write(async (s) => {
    const row = await s.resource(merchantId, 'conversionsources', id);
    if (row?.state === 'ARCHIVED' && Date.parse(row.doc.expireTime) <= cat.now()) await s.deleteResource(merchantId, 'conversionsources', id);
  });
}

