// Account tax and shipping settings (per account), the supported carriers, holidays and pickup services they may
// name, and account statuses derived from the account's products and website claim.
import { Type } from '@sinclair/typebox';
import type { Catalog } from '../catalog.ts';
import { MAX_RESULTS_PAGING } from '../schemas/common.ts';
import type { FieldRules } from '../schemas/wire.ts';
import type { Operation } from '../layer/operation.ts';
import { listAnswer, pageRequest } from '../layer/paging.ts';
import { requireMca } from '../access.ts';
import { batchOperation } from '../layer/batch.ts';
import { destinationsParameter } from '../rules/destinations.ts';
import { SUPPORTED_CARRIERS, SUPPORTED_HOLIDAYS, SUPPORTED_PICKUP_SERVICES } from '../rules/reference-data.ts';
import type { AccountRow } from '../store.ts';
import { badRequest, country, inRange, oneOf, price, requireValue } from '../wire/rules.ts';
import { pageSubAccounts, websiteClaimed } from '../routes/accounts.ts';
import { defineAccountSetting } from './account-settings.ts';

function validateTax(doc: Record<string, any>): void {
  const seen = new Set<string>();
  (doc.rules ?? []).forEach((r: Record<string, any>, i: number) => {
    const path = `accountTax.rules[${i}]`;
    requireValue(r.country, `${path}.country`);
    // Account-level tax applies to the United States only.
    if (r.country !== 'US') throw badRequest(`${path}.country: account tax can be set for US only.`);
    requireValue(r.locationId, `${path}.locationId`);
    if (!/^\d+$/.test(String(r.locationId))) throw badRequest(`${path}.locationId must be a numeric location id.`);
    if (seen.has(String(r.locationId))) throw badRequest(`${path}: location ${r.locationId} appears twice.`);
    seen.add(String(r.locationId));
    if (r.useGlobalRate === true && r.ratePercent !== undefined) throw badRequest(`${path}: ratePercent and useGlobalRate exclude each other.`);
    if (r.useGlobalRate !== true) {
      requireValue(r.ratePercent, `${path}.ratePercent`);
      if (!/^\d+(\.\d+)?$/.test(String(r.ratePercent))) throw badRequest(`${path}.ratePercent must be a decimal number.`);
      inRange(r.ratePercent, 0, 100, `${path}.ratePercent`);
    }
  });
}

const SHIPMENT_TYPES = ['delivery', 'local_delivery', 'collection_point'];
const ELIGIBILITIES = ['All scenarios', 'All scenarios except Shopping Actions', 'Shopping Actions'];

const TAX_DOCS: FieldRules = {
  'rules.country': { enum: ['US'], description: 'Account-level tax applies to the United States only; required.' },
  'rules.locationId': { pattern: '^\\d+$', description: 'Numeric id of the state; required and unique among the rules.' },
  'rules.ratePercent': { pattern: '^\\d+(\\.\\d+)?$', description: 'Tax rate from 0 to 100; required unless useGlobalRate is true (and refused with it).' },
};

const SHIPPING_DOCS: FieldRules = {
  'postalCodeGroups.country': { pattern: '^[A-Z]{2}$' },
  'services.deliveryCountry': { pattern: '^[A-Z]{2}$', description: 'CLDR country code; required.' },
  'services.currency': { pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; required.' },
  'services.shipmentType': { enum: SHIPMENT_TYPES, description: 'collection_point services name a pickupService; others a deliveryTime.' },
  'services.eligibility': { enum: ELIGIBILITIES },
  'services.name': { description: 'Name of the service, unique in the settings; required.' },
};

const carrierNames = new Set(SUPPORTED_CARRIERS.map((c) => `${c.country}|${c.name}`));
const holidayIds = new Set(SUPPORTED_HOLIDAYS.map((h) => h.id));

function validateShipping(doc: Record<string, any>): void {
  const groups = new Set<string>();
  (doc.postalCodeGroups ?? []).forEach((g: Record<string, any>, i: number) => {
    requireValue(g.name, `shippingSettings.postalCodeGroups[${i}].name`);
    country(g.country, `shippingSettings.postalCodeGroups[${i}].country`, true);
    if (groups.has(g.name)) throw badRequest(`shippingSettings.postalCodeGroups[${i}]: the name ${g.name} is used twice.`);
    groups.add(g.name);
  });
  const names = new Set<string>();
  (doc.services ?? []).forEach((s: Record<string, any>, i: number) => {
    const path = `shippingSettings.services[${i}]`;
    requireValue(s.name, `${path}.name`);
    if (names.has(s.name)) throw badRequest(`${path}: the service name ${s.name} is used twice.`);
    names.add(s.name);
    requireValue(s.active, `${path}.active`);
    country(s.deliveryCountry, `${path}.deliveryCountry`, true);
    requireValue(s.currency, `${path}.currency`);
    if (!/^[A-Z]{3}$/.test(s.currency)) throw badRequest(`${path}.currency must be an ISO 4217 code.`);
    if (s.shipmentType !== undefined) oneOf(s.shipmentType, SHIPMENT_TYPES, `${path}.shipmentType`);
    if (s.eligibility !== undefined) oneOf(s.eligibility, ELIGIBILITIES, `${path}.eligibility`);
    price(s.minimumOrderValue, `${path}.minimumOrderValue`);
    if (s.shipmentType !== 'collection_point') {
      requireValue(s.deliveryTime, `${path}.deliveryTime`);
      const t = s.deliveryTime;
      for (const f of ['minTransitTimeInDays', 'maxTransitTimeInDays']) if (!t.transitTimeTable) requireValue(t[f], `${path}.deliveryTime.${f}`);
      if (t.minTransitTimeInDays > t.maxTransitTimeInDays) throw badRequest(`${path}.deliveryTime: minTransitTimeInDays exceeds maxTransitTimeInDays.`);
      if ((t.minHandlingTimeInDays ?? 0) > (t.maxHandlingTimeInDays ?? Infinity)) throw badRequest(`${path}.deliveryTime: minHandlingTimeInDays exceeds maxHandlingTimeInDays.`);
      (t.holidayCutoffs ?? []).forEach((h: Record<string, any>, j: number) => {
        requireValue(h.holidayId, `${path}.deliveryTime.holidayCutoffs[${j}].holidayId`);
        if (!holidayIds.has(h.holidayId)) throw badRequest(`${path}.deliveryTime.holidayCutoffs[${j}].holidayId ${h.holidayId} is not a supported holiday.`);
      });
      if (s.active && (s.rateGroups ?? []).length === 0) throw badRequest(`${path}.rateGroups: an active delivery service needs at least one rate group.`);
    } else {
      requireValue(s.pickupService, `${path}.pickupService`);
      const known = SUPPORTED_PICKUP_SERVICES.some((p) => p.carrierName === s.pickupService.carrierName && p.serviceName === s.pickupService.serviceName && p.country === s.deliveryCountry);
      if (!known) throw badRequest(`${path}.pickupService is not a supported pickup service for ${s.deliveryCountry}.`);
    }
    (s.rateGroups ?? []).forEach((g: Record<string, any>, j: number) => {
      const gp = `${path}.rateGroups[${j}]`;
      const defined = ['singleValue', 'mainTable', 'carrierRates'].filter((k) => g[k] !== undefined);
      if (defined.length === 0) throw badRequest(`${gp}: a rate group needs singleValue, mainTable or carrierRates.`);
      if (g.singleValue?.flatRate) price(g.singleValue.flatRate, `${gp}.singleValue.flatRate`);
      (g.carrierRates ?? []).forEach((r: Record<string, any>, k: number) => {
        requireValue(r.carrierName, `${gp}.carrierRates[${k}].carrierName`);
        if (!carrierNames.has(`${s.deliveryCountry}|${r.carrierName}`)) throw badRequest(`${gp}.carrierRates[${k}].carrierName ${r.carrierName} is not a supported carrier in ${s.deliveryCountry}.`);
        requireValue(r.originPostalCode, `${gp}.carrierRates[${k}].originPostalCode`);
      });
    });
  });
}

/** Account-level issues and product statistics per destination and country. */
export async function accountStatus(cat: Catalog, account: AccountRow, destinations?: string[]): Promise<Record<string, unknown>> {
  const rows = await cat.ctx.db.heavyRead(cat.ctx.kysely.selectFrom('catalog_products').select(['channel', 'status']).where('merchant_id', '=', account.id));
  const stats = new Map<string, { channel: string; destination: string; country: string; active: number; pending: number; disapproved: number; expiring: number }>();
  const issues = new Map<string, Record<string, any>>();
  const soon = cat.now() + 7 * 86_400_000;
  for (const r of rows as Array<{ channel: string; status: string }>) {
    const status = JSON.parse(r.status);
    const expiring = Date.parse(status.googleExpirationDate) < soon;
    for (const d of status.destinationStatuses ?? []) {
      if (destinations && !destinations.includes(d.destination)) continue;
      const tally = (country: string, field: 'active' | 'pending' | 'disapproved') => {
        const key = `${r.channel}|${d.destination}|${country}`;
        const s = stats.get(key) ?? { channel: r.channel, destination: d.destination, country, active: 0, pending: 0, disapproved: 0, expiring: 0 };
        s[field]++;
        if (expiring) s.expiring++;
        stats.set(key, s);
      };
      for (const c of d.approvedCountries ?? []) tally(c, 'active');
      for (const c of d.pendingCountries ?? []) tally(c, 'pending');
      for (const c of d.disapprovedCountries ?? []) tally(c, 'disapproved');
    }
    for (const issue of status.itemLevelIssues ?? []) {
      if (destinations && !destinations.includes(issue.destination)) continue;
      const key = `${issue.destination}|${issue.code}`;
      const agg = issues.get(key) ?? { ...issue, numItems: 0 };
      agg.numItems++;
      issues.set(key, agg);
    }
  }
  const products = [...stats.values()].map((s) => {
    const own = [...issues.values()].filter((i) => i.destination === s.destination && (i.applicableCountries ?? []).includes(s.country));
    return {
      channel: s.channel,
      destination: s.destination,
      country: s.country,
      statistics: { active: String(s.active), pending: String(s.pending), disapproved: String(s.disapproved), expiring: String(s.expiring) },
      itemLevelIssues: own.map((i) => ({ code: i.code, servability: i.servability, resolution: i.resolution, attributeName: i.attributeName, description: i.description, detail: i.detail, documentation: i.documentation, numItems: String(i.numItems) })),
    };
  });
  const claimed = await websiteClaimed(cat.store, account.id);
  const accountLevelIssues = [];
  if (!account.doc.websiteUrl) accountLevelIssues.push({ id: 'missing_website_url', title: 'Missing website URL', severity: 'critical', detail: 'Add the URL of your online store', documentation: 'https://support.google.com/merchants/answer/176793' });
  else if (!claimed) accountLevelIssues.push({ id: 'website_not_claimed', title: 'Website not claimed', severity: 'critical', detail: 'Verify and claim your website', documentation: 'https://support.google.com/merchants/answer/176793' });
  if (account.doc.businessInformation?.phoneVerificationStatus !== 'VERIFIED') {
    accountLevelIssues.push({ id: 'missing_phone_verification', title: 'Phone number not verified', severity: 'error', detail: 'Verify a phone number for your business', documentation: 'https://support.google.com/merchants/answer/9158778' });
  }
  return { kind: 'content#accountStatus', accountId: account.id, websiteClaimed: claimed, accountLevelIssues, products };
}

const DESTINATIONS = Type.Optional(Type.Array(Type.String(), { description: 'Only these destinations are reported (repeat the parameter for several); named as in a product\'s includedDestinations, others are refused.' }));

function accountStatusOperations(): Operation[] {
  const get: Operation = {
    method: 'accountstatuses.get',
    verb: 'GET',
    path: '/{merchantId}/accountstatuses/{accountId}',
    scope: 'managed',
    request: { query: { destinations: DESTINATIONS } },
    run: (cat, call) => accountStatus(cat, call.account, destinationsParameter(call.query)),
  };
  const list: Operation = {
    method: 'accountstatuses.list',
    verb: 'GET',
    path: '/{merchantId}/accountstatuses',
    scope: 'merchant',
    request: {
      query: { ...MAX_RESULTS_PAGING, destinations: DESTINATIONS, name: Type.Optional(Type.String({ description: 'Only sub-accounts whose name contains this text (case ignored).' })) },
    },
    async run(cat, call) {
      requireMca(call.merchant);
      const req = pageRequest(call.query, 'maxResults', `accountstatuses:${call.merchant.id}`);
      // accountstatuses.list takes `name` but not `label`.
      const destinations = destinationsParameter(call.query);
      const page = await pageSubAccounts(cat, call.merchant.id, { name: call.query.name }, req);
      const items = await Promise.all(page.items.map((a) => accountStatus(cat, a, destinations)));
      return listAnswer('resources', items, req.token(page), 'content#accountstatusesListResponse');
    },
  };
  const batch = batchOperation({
    path: '/accountstatuses/batch',
    method: 'accountstatuses.custombatch',
    wire: 'AccountstatusesCustomBatchRequest',
    kind: 'content#accountstatusesCustomBatchResponse',
    params: ['merchantId', 'accountId'],
    methods: { get: { op: get, result: 'accountStatus' } },
  });
  return [get, list, batch];
}

function supportedListOperations(): Operation[] {
  const fixed = (method: string, path: string, answer: Record<string, unknown>): Operation => ({ method, verb: 'GET', path, scope: 'merchant', run: async () => answer });
  return [
    fixed('shippingsettings.getsupportedcarriers', '/{merchantId}/supportedCarriers', { kind: 'content#shippingsettingsGetSupportedCarriersResponse', carriers: SUPPORTED_CARRIERS }),
    fixed('shippingsettings.getsupportedholidays', '/{merchantId}/supportedHolidays', { kind: 'content#shippingsettingsGetSupportedHolidaysResponse', holidays: SUPPORTED_HOLIDAYS }),
    fixed('shippingsettings.getsupportedpickupservices', '/{merchantId}/supportedPickupServices', { kind: 'content#shippingsettingsGetSupportedPickupServicesResponse', pickupServices: SUPPORTED_PICKUP_SERVICES }),
  ];
}

export function settingsOperations(): Operation[] {
  return [
    ...defineAccountSetting({
      name: 'accounttax',
      wire: 'AccountTax',
      kind: 'content#accountTax',
      field: 'accountTax',
      defaults: () => ({ rules: [] }),
      validate: validateTax,
      docs: TAX_DOCS,
    }),
    ...defineAccountSetting({
      name: 'shippingsettings',
      wire: 'ShippingSettings',
      field: 'shippingSettings',
      defaults: () => ({ services: [], postalCodeGroups: [] }),
      validate: validateShipping,
      docs: SHIPPING_DOCS,
    }),
    ...supportedListOperations(),
    ...accountStatusOperations(),
  ];
}
