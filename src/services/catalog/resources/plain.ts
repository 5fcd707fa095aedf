// The plain resources of a merchant: each is a declaration (id, wire type, methods, rules); special behaviour is a hook.
import { Type } from '@sinclair/typebox';
import type { Operation } from '../layer/operation.ts';
import { defineResource, type ResourceSpec } from '../layer/resource.ts';
import { checkPromotionDestinations } from '../rules/destinations.ts';
import { badRequest, country, httpUrl, language, maxLength, oneOf, price, requireValue } from '../wire/rules.ts';
import { WIRE_TYPES } from '../wire/types.ts';

const ITEM_CONDITIONS = ['NEW', 'USED'];
const RETURN_METHODS = ['BY_MAIL', 'IN_STORE', 'AT_A_KIOSK'];
const RETURN_POLICY_TYPES = ['numberOfDaysAfterDelivery', 'noReturns', 'lifetimeReturns'];
const ONLINE_POLICY_TYPES = ['NUMBER_OF_DAYS_AFTER_DELIVERY', 'NO_RETURNS', 'LIFETIME_RETURNS'];
const REDEMPTION_CHANNELS = ['IN_STORE', 'ONLINE'];
const PRODUCT_APPLICABILITIES = ['ALL_PRODUCTS', 'SPECIFIC_PRODUCTS'];
const OFFER_TYPES = ['NO_CODE', 'GENERIC_CODE'];
const SHIPPING_STATUSES = ['SHIPPED', 'DELIVERED'];

/** A CLDR country code, as country() checks it. */
const COUNTRY = { pattern: '^[A-Z]{2}$' };
const LANGUAGE = { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' };

export const regions: ResourceSpec = {
  name: 'regions',
  idParam: 'regionId',
  idField: 'regionId',
  wire: 'Region',
  methods: ['create', 'get', 'list', 'patch', 'delete'],
  id: { from: 'query', param: 'regionId' },
  unique: true,
  list: { field: 'regions', paging: 'pageSize' },
  maxLengths: { displayName: 100 },
  docs: {
    rules: {
      regionId: { pattern: '^[A-Za-z0-9_-]{1,64}$' },
      postalCodeArea: { description: 'The region as postal code ranges of one country; exactly one of this and geotargetArea.' },
      'postalCodeArea.regionCode': { ...COUNTRY, description: 'Country of the postal codes; required.' },
      geotargetArea: { description: 'The region as geotarget criteria ids (numeric); exactly one of this and postalCodeArea.' },
    },
  },
  derive(doc, w) {
    doc.merchantId = w.merchantId;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(doc.regionId)) throw badRequest(`Invalid regionId ${JSON.stringify(doc.regionId)}: 1 to 64 letters, digits, - or _.`);
    const postal = doc.postalCodeArea;
    const geo = doc.geotargetArea;
    if ((postal === undefined) === (geo === undefined)) throw badRequest('A region is defined by exactly one of postalCodeArea and geotargetArea.');
    if (postal) {
      country(postal.regionCode, 'region.postalCodeArea.regionCode', true);
      requireValue(postal.postalCodes, 'region.postalCodeArea.postalCodes');
      postal.postalCodes.forEach((r: { begin?: string; end?: string }, i: number) => {
        requireValue(r.begin, `region.postalCodeArea.postalCodes[${i}].begin`);
        if (r.end !== undefined && r.end < r.begin!) throw badRequest(`region.postalCodeArea.postalCodes[${i}]: end comes before begin.`);
      });
    } else {
      requireValue(geo.geotargetCriteriaIds, 'region.geotargetArea.geotargetCriteriaIds');
      if (!geo.geotargetCriteriaIds.every((id: string) => /^\d+$/.test(id))) throw badRequest('region.geotargetArea.geotargetCriteriaIds must be numeric criteria ids.');
    }
    // Output-only eligibility: postal areas serve both; geotargets are not usable for shipping.
    doc.regionalInventoryEligible = true;
    doc.shippingEligible = postal !== undefined;
  },
};

export const returnAddress: ResourceSpec = {
  name: 'returnaddress',
  idParam: 'returnAddressId',
  idField: 'returnAddressId',
  wire: 'ReturnAddress',
  kind: 'content#returnAddress',
  methods: ['insert', 'get', 'list', 'delete'],
  id: { from: 'generated' },
  required: ['label', 'country', 'phoneNumber', 'address', 'address.streetAddress', 'address.locality', 'address.postalCode', 'address.country'],
  maxLengths: { label: 100, phoneNumber: 32, 'address.recipientName': 100, 'address.locality': 100, 'address.region': 100, 'address.postalCode': 32 },
  docs: { rules: { country: COUNTRY, 'address.country': COUNTRY }, query: { list: { country: Type.Optional(Type.String({ description: 'Only addresses of this country.' })) } } },
  list: { field: 'resources', kind: 'content#returnaddressListResponse', paging: 'maxResults', filter: (doc, q) => q.country === undefined || doc.country === q.country },
  validate(doc) {
    country(doc.country, 'returnAddress.country');
    country(doc.address.country, 'returnAddress.address.country');
  },
  batch: { body: 'returnAddress', methods: ['insert', 'get', 'delete'] },
};

export const returnPolicy: ResourceSpec = {
  name: 'returnpolicy',
  idParam: 'returnPolicyId',
  idField: 'returnPolicyId',
  wire: 'ReturnPolicy',
  kind: 'content#returnPolicy',
  methods: ['insert', 'get', 'list', 'delete'],
  id: { from: 'generated' },
  required: ['label', 'country', 'name', 'policy', 'policy.type'],
  maxLengths: { label: 50, name: 100 },
  docs: { rules: { country: COUNTRY, 'policy.type': { enum: RETURN_POLICY_TYPES }, 'policy.numberOfDays': { description: 'Whole days; required for numberOfDaysAfterDelivery.' } } },
  list: { field: 'resources', kind: 'content#returnpolicyListResponse', paging: 'none' },
  validate(doc) {
    country(doc.country, 'returnPolicy.country');
    oneOf(doc.policy.type, RETURN_POLICY_TYPES, 'returnPolicy.policy.type');
    if (doc.policy.type === 'numberOfDaysAfterDelivery') {
      requireValue(doc.policy.numberOfDays, 'returnPolicy.policy.numberOfDays');
      if (!/^\d+$/.test(String(doc.policy.numberOfDays))) throw badRequest('returnPolicy.policy.numberOfDays must be a whole number of days.');
    }
    price(doc.returnShippingFee, 'returnPolicy.returnShippingFee');
  },
  batch: { body: 'returnPolicy', methods: ['insert', 'get', 'delete'] },
};

export const returnPolicyOnline: ResourceSpec = {
  name: 'returnpolicyonline',
  idParam: 'returnPolicyId',
  idField: 'returnPolicyId',
  wire: 'ReturnPolicyOnline',
  methods: ['create', 'get', 'list', 'patch', 'delete'],
  id: { from: 'generated' },
  required: ['name', 'countries', 'returnPolicyUri'],
  maxLengths: { name: 100, label: 50, returnPolicyUri: 2000 },
  docs: {
    rules: {
      countries: COUNTRY,
      returnPolicyUri: { description: 'An http or https URL of the policy.' },
      itemConditions: { enum: ITEM_CONDITIONS },
      returnMethods: { enum: RETURN_METHODS },
      'policy.type': { enum: ONLINE_POLICY_TYPES },
    },
  },
  list: { field: 'returnPolicies', paging: 'none' },
  validate(doc) {
    (doc.countries as string[]).forEach((c, i) => country(c, `returnPolicyOnline.countries[${i}]`));
    httpUrl(doc.returnPolicyUri, 'returnPolicyOnline.returnPolicyUri');
    (doc.itemConditions ?? []).forEach((c: string, i: number) => oneOf(c, ITEM_CONDITIONS, `returnPolicyOnline.itemConditions[${i}]`));
    (doc.returnMethods ?? []).forEach((m: string, i: number) => oneOf(m, RETURN_METHODS, `returnPolicyOnline.returnMethods[${i}]`));
    if (doc.policy) {
      oneOf(doc.policy.type, ONLINE_POLICY_TYPES, 'returnPolicyOnline.policy.type');
      if (doc.policy.type === 'NUMBER_OF_DAYS_AFTER_DELIVERY') requireValue(doc.policy.days, 'returnPolicyOnline.policy.days');
    }
  },
};

const MAX_FEATURED_PRODUCTS = 100;

export const collections: ResourceSpec = {
  name: 'collections',
  idParam: 'collectionId',
  idField: 'id',
  wire: 'Collection',
  methods: ['create', 'get', 'list', 'delete'],
  id: { from: 'body' },
  list: { field: 'resources', paging: 'pageSize' },
  maxLengths: { id: 50, headline: 150, link: 2000, mobileLink: 2000, imageLink: 2000 },
  docs: { rules: { id: { pattern: '^[^\\s]{1,50}$', description: 'Id of the collection: 1 to 50 characters without spaces.' }, language: LANGUAGE, productCountry: COUNTRY } },
  validate(doc) {
    if (!/^[^\s]{1,50}$/.test(doc.id)) throw badRequest('collection.id must be 1 to 50 characters without spaces.');
    language(doc.language, 'collection.language');
    country(doc.productCountry, 'collection.productCountry');
    const featured: Array<{ offerId?: string }> = doc.featuredProduct ?? [];
    // The API's documented maximum; a collection's status looks every featured offer up at once.
    if (featured.length > MAX_FEATURED_PRODUCTS) throw badRequest(`collection.featuredProduct has ${featured.length} entries; at most ${MAX_FEATURED_PRODUCTS} are allowed.`);
    featured.forEach((f, i) => requireValue(f.offerId, `collection.featuredProduct[${i}].offerId`));
  },
};

export const promotions: ResourceSpec = {
  name: 'promotions',
  idParam: 'id',
  idField: 'id',
  wire: 'Promotion',
  methods: ['create', 'get', 'list'],
  id: { from: 'body' },
  list: {
    field: 'promotions',
    paging: 'pageSize',
    filter: (doc, q) => (q.countryCode === undefined || doc.targetCountry === q.countryCode) && (q.languageCode === undefined || doc.contentLanguage === q.languageCode),
  },
  required: ['promotionId', 'contentLanguage', 'targetCountry', 'redemptionChannel', 'productApplicability', 'offerType', 'longTitle'],
  computeId: (doc) => `${(doc.redemptionChannel as string[]).includes('ONLINE') ? 'online' : 'local'}:${doc.contentLanguage}:${doc.targetCountry}:${doc.promotionId}`,
  maxLengths: { promotionId: 50, longTitle: 60, genericRedemptionCode: 20, promotionUrl: 2000 },
  docs: {
    rules: {
      contentLanguage: LANGUAGE,
      targetCountry: COUNTRY,
      redemptionChannel: { enum: REDEMPTION_CHANNELS },
      productApplicability: { enum: PRODUCT_APPLICABILITIES },
      offerType: { enum: OFFER_TYPES, description: 'GENERIC_CODE needs genericRedemptionCode.' },
      promotionEffectiveTimePeriod: { description: 'RFC 3339 start and end times, the end after the start; required unless promotionEffectiveDates is given.' },
    },
    query: {
      list: {
        countryCode: Type.Optional(Type.String({ description: 'Only promotions of this target country.' })),
        languageCode: Type.Optional(Type.String({ description: 'Only promotions of this content language.' })),
      },
    },
  },
  derive(doc, w) {
    language(doc.contentLanguage, 'promotion.contentLanguage');
    country(doc.targetCountry, 'promotion.targetCountry');
    (doc.redemptionChannel as string[]).forEach((c, i) => oneOf(c, REDEMPTION_CHANNELS, `promotion.redemptionChannel[${i}]`));
    oneOf(doc.productApplicability, PRODUCT_APPLICABILITIES, 'promotion.productApplicability');
    oneOf(doc.offerType, OFFER_TYPES, 'promotion.offerType');
    checkPromotionDestinations(doc.promotionDestinationIds, 'promotion.promotionDestinationIds');
    if (doc.offerType === 'GENERIC_CODE') requireValue(doc.genericRedemptionCode, 'promotion.genericRedemptionCode');
    const period = doc.promotionEffectiveTimePeriod;
    if (!period && !doc.promotionEffectiveDates) throw badRequest('Required field missing: promotion.promotionEffectiveTimePeriod', 'required');
    if (period) {
      requireValue(period.startTime, 'promotion.promotionEffectiveTimePeriod.startTime');
      requireValue(period.endTime, 'promotion.promotionEffectiveTimePeriod.endTime');
      if (Number.isNaN(Date.parse(period.startTime)) || Number.isNaN(Date.parse(period.endTime)) || Date.parse(period.endTime) <= Date.parse(period.startTime)) {
        throw badRequest('promotion.promotionEffectiveTimePeriod must be two RFC 3339 times, the end after the start.');
      }
    }
    doc.promotionStatus = { creationDate: new Date(w.now).toISOString(), lastUpdateDate: new Date(w.now).toISOString() };
  },
  present(doc, cat) {
    // Destination state follows the clock: pending before the effective period, live during it, expired after.
    const now = cat.now();
    const period = doc.promotionEffectiveTimePeriod;
    const start = period ? Date.parse(period.startTime) : -Infinity;
    const end = period ? Date.parse(period.endTime) : Infinity;
    const status = now < start ? 'PENDING' : now >= end ? 'EXPIRED' : 'LIVE';
    return { ...doc, promotionStatus: { ...doc.promotionStatus, destinationStatuses: [{ destination: 'SHOPPING_ADS', status }, { destination: 'FREE_LISTINGS', status }] } };
  },
};

export const orderTrackingSignals: ResourceSpec = {
  name: 'ordertrackingsignals',
  idParam: 'orderTrackingSignalId',
  idField: 'orderTrackingSignalId',
  wire: 'OrderTrackingSignal',
  methods: ['create'],
  id: { from: 'generated' },
  required: ['orderId', 'orderCreatedTime', 'deliveryPostalCode', 'deliveryRegionCode', 'lineItems', 'shippingInfo'],
  maxLengths: { orderId: 100, deliveryPostalCode: 32 },
  docs: { rules: { deliveryRegionCode: COUNTRY, 'shippingInfo.shippingStatus': { enum: SHIPPING_STATUSES }, 'shippingInfo.trackingId': { maxLength: 100 } } },
  derive(doc, w) {
    doc.merchantId = w.merchantId;
    country(doc.deliveryRegionCode, 'orderTrackingSignal.deliveryRegionCode');
    (doc.lineItems as Array<Record<string, unknown>>).forEach((li, i) => {
      requireValue(li.lineItemId, `orderTrackingSignal.lineItems[${i}].lineItemId`);
      requireValue(li.productId, `orderTrackingSignal.lineItems[${i}].productId`);
      requireValue(li.quantity, `orderTrackingSignal.lineItems[${i}].quantity`);
    });
    (doc.shippingInfo as Array<Record<string, unknown>>).forEach((s, i) => {
      requireValue(s.shipmentId, `orderTrackingSignal.shippingInfo[${i}].shipmentId`);
      oneOf(s.shippingStatus, SHIPPING_STATUSES, `orderTrackingSignal.shippingInfo[${i}].shippingStatus`);
      maxLength(s.trackingId, 100, `orderTrackingSignal.shippingInfo[${i}].trackingId`);
    });
  },
};

export const productDeliveryTime: ResourceSpec = {
  name: 'productdeliverytime',
  idParam: 'productId',
  idField: 'productKey',
  wire: 'ProductDeliveryTime',
  methods: ['create', 'get', 'delete'],
  id: { from: 'body' },
  required: ['productId.productId', 'areaDeliveryTimes'],
  computeId: (doc) => doc.productId.productId,
  docs: { rules: { productId: { description: 'The product (its REST id in productId.productId); it must exist.' } } },
  present: (doc) => {
    const { productKey: _key, ...rest } = doc;
    return rest;
  },
  async derive(doc, w) {
    (doc.areaDeliveryTimes as Array<Record<string, any>>).forEach((a, i) => {
      country(a.deliveryArea?.countryCode, `productDeliveryTime.areaDeliveryTimes[${i}].deliveryArea.countryCode`, true);
      const t = a.deliveryTime ?? {};
      for (const f of ['minHandlingTimeDays', 'maxHandlingTimeDays', 'minTransitTimeDays', 'maxTransitTimeDays']) requireValue(t[f], `productDeliveryTime.areaDeliveryTimes[${i}].deliveryTime.${f}`);
      if (t.minHandlingTimeDays > t.maxHandlingTimeDays || t.minTransitTimeDays > t.maxTransitTimeDays) {
        throw badRequest(`productDeliveryTime.areaDeliveryTimes[${i}].deliveryTime: a minimum exceeds its maximum.`);
      }
    });
    if (!(await w.store.product(w.merchantId, doc.productId.productId))) throw badRequest(`Product ${doc.productId.productId} does not exist.`);
  },
};

export function plainOperations(): Operation[] {
  return [regions, returnAddress, returnPolicy, returnPolicyOnline, collections, promotions, orderTrackingSignals, productDeliveryTime].flatMap((spec) => defineResource(spec, WIRE_TYPES));
}
