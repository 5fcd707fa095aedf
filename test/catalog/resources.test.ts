import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { MCA, OTHER, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

for (const database of DATABASES) {
  describe(`catalog resources (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
      await c.client().products.insert({ merchantId: SUB, requestBody: product('res-1') });
    });
    after(() => c.close());

    it('regions: create with regionId, patch with updateMask, list, delete; bad input changes nothing', async () => {
      const content = c.client();
      const created = await content.regions.create({ merchantId: SUB, regionId: 'west', requestBody: { displayName: 'West', postalCodeArea: { regionCode: 'US', postalCodes: [{ begin: '94000', end: '94999' }] } } });
      assert.equal(created.data.shippingEligible, true);
      assert.equal(created.data.merchantId, SUB);
      assert.equal((await c.api(`/${SUB}/regions?regionId=west`, { body: { displayName: 'Again', geotargetArea: { geotargetCriteriaIds: ['1'] } } })).status, 409);
      const patched = await content.regions.patch({ merchantId: SUB, regionId: 'west', updateMask: 'displayName', requestBody: { displayName: 'Far west' } });
      assert.equal(patched.data.displayName, 'Far west');
      assert.equal(patched.data.postalCodeArea!.regionCode, 'US');
      for (const [query, body] of [
        ['regionId=r2', { displayName: 'Both', postalCodeArea: { regionCode: 'US', postalCodes: [{ begin: '1' }] }, geotargetArea: { geotargetCriteriaIds: ['1'] } }],
        ['regionId=r2', { displayName: 'None' }],
        ['', { displayName: 'No id', geotargetArea: { geotargetCriteriaIds: ['1'] } }],
        ['regionId=bad%20id', { geotargetArea: { geotargetCriteriaIds: ['1'] } }],
        ['regionId=r2', { displayName: 'x'.repeat(101), geotargetArea: { geotargetCriteriaIds: ['1'] } }],
      ] as const) {
        assert.equal((await c.api(`/${SUB}/regions?${query}`, { body })).status, 400, JSON.stringify(body));
      }
      assert.deepEqual((await content.regions.list({ merchantId: SUB })).data.regions!.map((r) => r.regionId), ['west']);
      assert.equal((await c.api(`/${SUB}/regions/nowhere`, { method: 'PATCH', body: { displayName: 'x' } })).status, 404);
    });

    it('local and regional inventory need the product and (for regions) the region', async () => {
      const content = c.client();
      const local = await content.localinventory.insert({ merchantId: SUB, productId: 'online:en:US:res-1', requestBody: { storeCode: 'store-1', availability: 'in stock', quantity: 3, price: { value: '9.99', currency: 'USD' } } });
      assert.equal(local.data.kind, 'content#localInventory');
      assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:none')}/localinventory`, { body: { storeCode: 's' } })).status, 404);
      assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:res-1')}/localinventory`, { body: { availability: 'in stock' } })).status, 400);
      assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:res-1')}/regionalinventory`, { body: { regionId: 'unknown', availability: 'in stock' } })).status, 400);
      const batch = await content.regionalinventory.custombatch({
        requestBody: { entries: [{ batchId: 1, merchantId: SUB, productId: 'online:en:US:res-1', method: 'insert', regionalInventory: { regionId: 'west', availability: 'in stock', price: { value: '8.00', currency: 'USD' } } }] },
      });
      assert.equal(batch.data.entries![0].regionalInventory!.regionId, 'west');
    });

    it('inventory pickup comes as a method and an SLA together, a sale date with its sale price', async () => {
      const content = c.client();
      await content.products.insert({ merchantId: SUB, requestBody: product('pickup-1', { channel: 'local' }) });
      const path = `/${SUB}/products/${encodeURIComponent('local:en:US:pickup-1')}`;
      const stock = { storeCode: 'store-p', availability: 'in stock', quantity: 2 };
      const localPending = async () =>
        (await content.productstatuses.get({ merchantId: SUB, productId: 'local:en:US:pickup-1' })).data.destinationStatuses!.find((d) => d.destination === 'LocalInventoryAds')!.status;
      assert.equal(await localPending(), 'pending');
      for (const [body, missing] of [
        [{ ...stock, pickupMethod: 'buy' }, 'localInventory.pickupSla'],
        [{ ...stock, pickupSla: 'same day' }, 'localInventory.pickupMethod'],
        [{ ...stock, salePriceEffectiveDate: '2026-01-01T00:00:00Z/2026-02-01T00:00:00Z' }, 'localInventory.salePrice'],
      ] as const) {
        const res = await c.api(`${path}/localinventory`, { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body.error.errors[0], { domain: 'global', reason: 'required', message: `Required field missing: ${missing}` });
      }
      const regional = await c.api(`${path}/regionalinventory`, { body: { regionId: 'west', salePriceEffectiveDate: '2026-01-01T00:00:00Z/2026-02-01T00:00:00Z' } });
      assert.equal(regional.status, 400);
      assert.equal(regional.body.error.message, 'Required field missing: regionalInventory.salePrice');
      const pos = await c.api(`/${MCA}/pos/${SUB}/inventory`, {
        body: { storeCode: 'store-p', itemId: 'pickup-1', targetCountry: 'US', contentLanguage: 'en', price: { value: '5.00', currency: 'USD' }, quantity: '3', timestamp: '2026-01-01T10:00:00Z', pickupMethod: 'reserve' },
      });
      assert.equal(pos.status, 400);
      assert.equal(pos.body.error.message, 'Required field missing: inventory.pickupSla');
      // Nothing refused was stored: the product still waits for a store that has it.
      assert.equal(await localPending(), 'pending');

      await content.localinventory.insert({ merchantId: SUB, productId: 'local:en:US:pickup-1', requestBody: { ...stock, pickupMethod: 'not supported' } });
      await content.localinventory.insert({ merchantId: SUB, productId: 'local:en:US:pickup-1', requestBody: { ...stock, pickupMethod: 'buy', pickupSla: 'same day' } });
      assert.equal(await localPending(), 'approved');
    });

    it('a local product serves on local destinations only while a store has it in stock', async () => {
      const content = c.client();
      await content.products.insert({ merchantId: SUB, requestBody: product('mug', { channel: 'local' }) });
      const id = 'local:en:US:mug';
      const local = async () => (await content.productstatuses.get({ merchantId: SUB, productId: id })).data;
      const before = await local();
      assert.deepEqual(before.destinationStatuses!.find((d) => d.destination === 'LocalInventoryAds')!.pendingCountries, ['US']);
      assert.ok(before.itemLevelIssues!.some((i) => i.code === 'missing_local_inventory'));
      await content.pos.insert({ merchantId: SUB, targetMerchantId: SUB, requestBody: { storeCode: 'corner', storeAddress: '2 Side St' } });
      const item = { storeCode: 'corner', itemId: 'mug', targetCountry: 'US', contentLanguage: 'en', price: { value: '5.00', currency: 'USD' }, quantity: '2', timestamp: '2026-01-01T10:00:00Z' };
      await content.pos.inventory({ merchantId: SUB, targetMerchantId: SUB, requestBody: item });
      const stocked = await local();
      assert.deepEqual(stocked.destinationStatuses!.find((d) => d.destination === 'LocalInventoryAds')!.approvedCountries, ['US']);
      assert.ok(!stocked.itemLevelIssues!.some((i) => i.code === 'missing_local_inventory'));
      await content.pos.sale({ merchantId: SUB, targetMerchantId: SUB, requestBody: { ...item, quantity: '2' } });
      assert.deepEqual((await local()).destinationStatuses!.find((d) => d.destination === 'LocalInventoryAds')!.pendingCountries, ['US']);
      await content.localinventory.insert({ merchantId: SUB, productId: id, requestBody: { storeCode: 'kiosk', availability: 'in stock' } });
      assert.deepEqual((await local()).destinationStatuses!.find((d) => d.destination === 'LocalInventoryAds')!.approvedCountries, ['US']);
    });

    it('POS stores, inventory and sales on the merchant or a sub-account', async () => {
      const content = c.client();
      await content.pos.insert({ merchantId: MCA, targetMerchantId: SUB, requestBody: { storeCode: 'shop-1', storeAddress: '1 Main St, Springfield' } });
      assert.equal((await content.pos.get({ merchantId: MCA, targetMerchantId: SUB, storeCode: 'shop-1' })).data.matchingStatus, 'matched');
      const item = { storeCode: 'shop-1', itemId: 'res-1', targetCountry: 'US', contentLanguage: 'en', price: { value: '5.00', currency: 'USD' }, quantity: '10', timestamp: '2026-01-01T10:00:00Z' };
      await content.pos.inventory({ merchantId: MCA, targetMerchantId: SUB, requestBody: item });
      const sale = await content.pos.sale({ merchantId: MCA, targetMerchantId: SUB, requestBody: { ...item, quantity: '4' } });
      assert.equal(sale.data.kind, 'content#posSaleResponse');
      assert.equal((await c.api(`/${MCA}/pos/${SUB}/inventory`, { body: { ...item, storeCode: 'nowhere' } })).status, 400);
      assert.equal((await c.api(`/${MCA}/pos/${SUB}/inventory`, { body: { ...item, quantity: 'lots' } })).status, 400);
      assert.equal((await c.api(`/${MCA}/pos/${OTHER}/store`)).status, 403);
      // Entries of one batch may run in any order, so the get comes in a second batch.
      const removed = await content.pos.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, targetMerchantId: SUB, method: 'delete', storeCode: 'shop-1' }] } });
      assert.equal(removed.data.entries![0].errors, undefined);
      const batch = await content.pos.custombatch({ requestBody: { entries: [{ batchId: 2, merchantId: MCA, targetMerchantId: SUB, method: 'get', storeCode: 'shop-1' }] } });
      assert.equal(batch.data.entries![0].errors!.code, 404);
      assert.ok(!(await content.pos.list({ merchantId: MCA, targetMerchantId: SUB })).data.resources!.some((st) => st.storeCode === 'shop-1'));
    });

    it('return addresses and policies, with their custombatch', async () => {
      const content = c.client();
      const address = { label: 'Main', country: 'US', phoneNumber: '+1 555 0100', address: { streetAddress: ['1 Return Rd'], locality: 'Springfield', postalCode: '12345', country: 'US' } };
      const batch = await content.returnaddress.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'insert', returnAddress: address }, { batchId: 2, merchantId: SUB, method: 'insert', returnAddress: { label: 'Broken' } }] } });
      const id = batch.data.entries![0].returnAddress!.returnAddressId!;
      assert.equal(batch.data.entries![1].errors!.code, 400);
      assert.equal((await content.returnaddress.get({ merchantId: SUB, returnAddressId: id })).data.label, 'Main');
      assert.equal((await content.returnaddress.list({ merchantId: SUB, country: 'DE' })).data.resources, undefined);
      await content.returnaddress.delete({ merchantId: SUB, returnAddressId: id });
      const policy = await content.returnpolicy.insert({ merchantId: SUB, requestBody: { label: 'default', country: 'US', name: 'Standard', policy: { type: 'numberOfDaysAfterDelivery', numberOfDays: '30' } } });
      assert.equal(policy.data.kind, 'content#returnPolicy');
      assert.equal((await c.api(`/${SUB}/returnpolicy`, { body: { label: 'x', country: 'US', name: 'n', policy: { type: 'forever' } } })).status, 400);
      const online = await content.returnpolicyonline.create({ merchantId: SUB, requestBody: { name: 'Online', countries: ['US'], returnPolicyUri: 'https://shop.example.com/returns', policy: { type: 'NUMBER_OF_DAYS_AFTER_DELIVERY', days: '30' } } });
      await content.returnpolicyonline.patch({ merchantId: SUB, returnPolicyId: online.data.returnPolicyId!, requestBody: { label: 'main' } });
      assert.equal((await content.returnpolicyonline.list({ merchantId: SUB })).data.returnPolicies![0].label, 'main');
      assert.equal((await c.api(`/${SUB}/returnpolicyonline`, { body: { name: 'x', countries: ['US'], returnPolicyUri: 'mailto:x' } })).status, 400);
    });

    it('collections with derived statuses, promotions by clock, delivery times and tracking signals', async () => {
      const content = c.client();
      await content.collections.create({ merchantId: SUB, requestBody: { id: 'summer', language: 'en', productCountry: 'US', link: 'https://shop.example.com/summer', imageLink: ['https://shop.example.com/s.jpg'], headline: ['Summer'], featuredProduct: [{ offerId: 'res-1' }, { offerId: 'ghost' }] } });
      const status = await content.collectionstatuses.get({ merchantId: SUB, collectionId: 'summer' });
      assert.deepEqual(status.data.collectionLevelIssuses!.map((i) => i.code), ['featured_product_not_found']);
      assert.equal(status.data.destinationStatuses![0].status, 'approved');
      await content.collections.create({ merchantId: SUB, requestBody: { id: 'bare' } });
      const statuses = await content.collectionstatuses.list({ merchantId: SUB });
      assert.equal(statuses.data.resources!.find((s) => s.id === 'bare')!.destinationStatuses![0].status, 'disapproved');
      await content.collections.delete({ merchantId: SUB, collectionId: 'bare' });
      assert.equal((await c.api(`/${SUB}/collectionstatuses/bare`)).status, 404);
      // At most 100 featured products, as the API documents: more is a 400 that stores nothing.
      const featured = (n: number) => Array.from({ length: n }, (_, i) => ({ offerId: `o${i}` }));
      const tooMany = await c.api(`/${SUB}/collections`, { body: { id: 'crowded', language: 'en', productCountry: 'US', featuredProduct: featured(40_000) } });
      assert.equal(tooMany.status, 400, tooMany.text);
      assert.equal(tooMany.body.error.message, 'collection.featuredProduct has 40000 entries; at most 100 are allowed.');
      assert.equal((await c.api(`/${SUB}/collections/crowded`)).status, 404);
      assert.equal((await c.api(`/${SUB}/collectionstatuses`)).status, 200);
      await content.collections.create({ merchantId: SUB, requestBody: { id: 'full', language: 'en', productCountry: 'US', featuredProduct: featured(100) } });
      assert.equal((await c.api(`/${SUB}/collectionstatuses/full`)).status, 200);
      await content.collections.delete({ merchantId: SUB, collectionId: 'full' });

      const promo = await content.promotions.create({
        merchantId: SUB,
        requestBody: { promotionId: 'p1', contentLanguage: 'en', targetCountry: 'US', redemptionChannel: ['ONLINE'], productApplicability: 'ALL_PRODUCTS', offerType: 'NO_CODE', longTitle: '10% off', promotionEffectiveTimePeriod: { startTime: '2020-01-01T00:00:00Z', endTime: '2099-01-01T00:00:00Z' } },
      });
      assert.equal(promo.data.id, 'online:en:US:p1');
      assert.equal(promo.data.promotionStatus!.destinationStatuses![0].status, 'LIVE');
      assert.equal((await content.promotions.get({ merchantId: SUB, id: 'online:en:US:p1' })).data.longTitle, '10% off');
      assert.equal((await content.promotions.list({ merchantId: SUB, countryCode: 'DE' })).data.promotions, undefined);
      assert.equal((await c.api(`/${SUB}/promotions`, { body: { promotionId: 'p2', contentLanguage: 'en', targetCountry: 'US', redemptionChannel: ['ONLINE'], productApplicability: 'ALL_PRODUCTS', offerType: 'GENERIC_CODE', longTitle: 'x', promotionEffectiveTimePeriod: { startTime: '2020-01-01T00:00:00Z', endTime: '2099-01-01T00:00:00Z' } } })).status, 400);

      const delivery = { productId: { productId: 'online:en:US:res-1' }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' }, deliveryTime: { minHandlingTimeDays: 0, maxHandlingTimeDays: 1, minTransitTimeDays: 2, maxTransitTimeDays: 4 } }] };
      await content.productdeliverytime.create({ merchantId: SUB, requestBody: delivery });
      assert.deepEqual((await content.productdeliverytime.get({ merchantId: SUB, productId: 'online:en:US:res-1' })).data, delivery);
      assert.equal((await c.api(`/${SUB}/productdeliverytime`, { body: { ...delivery, productId: { productId: 'online:en:US:ghost' } } })).status, 400);
      await content.productdeliverytime.delete({ merchantId: SUB, productId: 'online:en:US:res-1' });

      const signal = await content.ordertrackingsignals.create({
        merchantId: SUB,
        requestBody: { orderId: 'o-1', orderCreatedTime: { year: 2026, month: 1, day: 2 }, deliveryPostalCode: '94043', deliveryRegionCode: 'US', lineItems: [{ lineItemId: 'l1', productId: 'res-1', quantity: '1' }], shippingInfo: [{ shipmentId: 's1', shippingStatus: 'SHIPPED' }] },
      });
      assert.ok(signal.data.orderTrackingSignalId);
      assert.equal((await c.api(`/${SUB}/ordertrackingsignals`, { body: { orderId: 'o-2' } })).status, 400);
    });

    it('account tax, shipping and LIA settings per account, with defaults, lists and batches', async () => {
      const content = c.client();
      assert.deepEqual((await content.accounttax.get({ merchantId: MCA, accountId: SUB })).data, { kind: 'content#accountTax', rules: [], accountId: SUB });
      await content.accounttax.update({ merchantId: MCA, accountId: SUB, requestBody: { accountId: SUB, rules: [{ country: 'US', locationId: '21137', ratePercent: '7.25', shippingTaxed: true }] } });
      assert.equal((await c.api(`/${MCA}/accounttax/${SUB}`, { method: 'PUT', body: { rules: [{ country: 'DE', locationId: '1', ratePercent: '19' }] } })).status, 400);
      assert.equal((await content.accounttax.list({ merchantId: MCA })).data.resources![0].rules![0].ratePercent, '7.25');
      const carriers = await content.shippingsettings.getsupportedcarriers({ merchantId: SUB });
      assert.ok(carriers.data.carriers!.some((x) => x.name === 'UPS'));
      const service = { name: 'Standard', active: true, deliveryCountry: 'US', currency: 'USD', deliveryTime: { minTransitTimeInDays: 2, maxTransitTimeInDays: 5, minHandlingTimeInDays: 0, maxHandlingTimeInDays: 1 }, rateGroups: [{ singleValue: { flatRate: { value: '4.99', currency: 'USD' } } }] };
      await content.shippingsettings.update({ merchantId: MCA, accountId: SUB, requestBody: { services: [service] } });
      for (const bad of [{ ...service, deliveryTime: { minTransitTimeInDays: 5, maxTransitTimeInDays: 2 } }, { ...service, rateGroups: [] }, { ...service, rateGroups: [{ carrierRates: [{ carrierName: 'Pigeon', originPostalCode: '1' }] }] }]) {
        assert.equal((await c.api(`/${MCA}/shippingsettings/${SUB}`, { method: 'PUT', body: { services: [bad] } })).status, 400);
      }
      const batch = await content.shippingsettings.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }, { batchId: 2, merchantId: MCA, accountId: OTHER, method: 'get' }] } });
      assert.equal(batch.data.entries![0].shippingSettings!.services![0].name, 'Standard');
      assert.equal(batch.data.entries![1].errors!.code, 403);
      assert.ok((await content.shippingsettings.getsupportedholidays({ merchantId: SUB })).data.holidays!.length > 0);
      assert.ok((await content.shippingsettings.getsupportedpickupservices({ merchantId: SUB })).data.pickupServices!.length > 0);

      assert.equal((await c.api(`/${MCA}/liasettings/${SUB}/requestinventoryverification/US`, { method: 'POST' })).status, 400);
      await content.liasettings.setinventoryverificationcontact({ merchantId: MCA, accountId: SUB, country: 'US', language: 'en', contactName: 'Ann', contactEmail: 'ann@shop.example.com' });
      await content.liasettings.requestinventoryverification({ merchantId: MCA, accountId: SUB, country: 'US' });
      await content.liasettings.setposdataprovider({ merchantId: MCA, accountId: SUB, country: 'US', posDataProviderId: '1001' });
      assert.equal((await c.api(`/${MCA}/liasettings/${SUB}/setposdataprovider?country=US&posDataProviderId=42`, { method: 'POST' })).status, 400);
      const omni = await content.liasettings.setomnichannelexperience({ merchantId: MCA, accountId: SUB, country: 'US', lsfType: 'ghlsf', pickupTypes: ['pickupToday'] });
      assert.equal(omni.data.lsfType, 'ghlsf');
      await content.liasettings.requestgmbaccess({ merchantId: MCA, accountId: SUB, gmbEmail: 'biz@shop.example.com' });
      assert.equal((await content.liasettings.getaccessiblegmbaccounts({ merchantId: MCA, accountId: SUB })).data.gmbAccounts![0].email, 'biz@shop.example.com');
      const lia = await content.liasettings.get({ merchantId: MCA, accountId: SUB });
      const us = lia.data.countrySettings![0];
      assert.equal(us.inventory!.status, 'pending');
      assert.equal(us.posDataProvider!.posDataProviderId, '1001');
      assert.ok((await content.liasettings.listposdataproviders()).data.posDataProviders!.length > 0);
    });

    it('CSS domains of a group, their labels, and the programs', async () => {
      const content = c.client();
      const label = await content.accounts.labels.create({ accountId: MCA, requestBody: { name: 'css-label' } });
      const csses = await content.csses.list({ cssGroupId: MCA });
      assert.ok(csses.data.csses!.some((x) => x.cssDomainId === SUB));
      const updated = await content.csses.updatelabels({ cssGroupId: MCA, cssDomainId: SUB, requestBody: { labelIds: [label.data.labelId!] } });
      assert.deepEqual(updated.data.labelIds, [label.data.labelId]);
      assert.equal((await c.api(`/${MCA}/csses/${OTHER}`)).status, 404);
      assert.equal((await c.api(`/${OTHER}/csses`)).status, 401);

      const program = await content.shoppingadsprogram.get({ merchantId: SUB });
      assert.equal(program.data.regionStatuses![0].regionCodes![0], 'US');
      assert.equal((await c.api(`/${SUB}/shoppingadsprogram/requestreview`, { body: { regionCode: 'US' } })).status, 400);
      assert.equal((await c.api(`/${SUB}/freelistingsprogram/checkoutsettings`)).status, 404);
      const checkout = await content.freelistingsprogram.checkoutsettings.insert({ merchantId: SUB, requestBody: { uriSettings: { checkoutUriTemplate: 'https://shop.example.com/checkout?id={id}' } } });
      assert.equal(checkout.data.enrollmentState, 'ENROLLED');
      assert.equal((await c.api(`/${SUB}/freelistingsprogram/checkoutsettings`, { body: { uriSettings: { cartUriTemplate: 'http://x' } } })).status, 400);
      await content.freelistingsprogram.checkoutsettings.delete({ merchantId: SUB });
      assert.equal((await c.api(`/${SUB}/freelistingsprogram/checkoutsettings`)).status, 404);
    });

    it('every other custombatch answers per entry, each entry authorised on its own', async () => {
      const content = c.client();
      const pid = 'online:en:US:res-1';
      const checks: Array<[Promise<{ data: { entries?: Array<Record<string, any>> } }>, string]> = [
        [content.productstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', productId: pid }, { batchId: 2, merchantId: OTHER, method: 'get', productId: pid }] } }), 'productStatus'],
        [content.accountstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }, { batchId: 2, merchantId: OTHER, accountId: OTHER, method: 'get' }] } }), 'accountStatus'],
        [content.accounttax.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }, { batchId: 2, merchantId: MCA, accountId: OTHER, method: 'get' }] } }), 'accountTax'],
        [content.liasettings.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }, { batchId: 2, merchantId: MCA, accountId: SUB, method: 'setPosDataProvider', country: 'US', posDataProviderId: 'nope' }] } }), 'liaSettings'],
        [content.localinventory.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, productId: pid, method: 'insert', localInventory: { storeCode: 'b-1', availability: 'in stock' } }, { batchId: 2, merchantId: SUB, productId: 'online:en:US:ghost', method: 'insert', localInventory: { storeCode: 'b-1' } }] } }), 'batchId'],
        [content.returnpolicy.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'insert', returnPolicy: { label: 'b', country: 'US', name: 'Batch', policy: { type: 'noReturns' } } }, { batchId: 2, merchantId: SUB, method: 'get', returnPolicyId: 'ghost' }] } }), 'returnPolicy'],
        [content.datafeedstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', datafeedId: 'ghost' }, { batchId: 2, merchantId: OTHER, method: 'get', datafeedId: '1' }] } }), ''],
      ];
      for (const [pending, field] of checks) {
        const res = await pending;
        const [first, second] = res.data.entries!;
        if (field) assert.ok(first[field] !== undefined && first.errors === undefined, JSON.stringify(first));
        else assert.equal(first.errors.code, 404);
        assert.ok([400, 401, 403, 404].includes(second.errors.code), JSON.stringify(second));
      }
    });

    it('merchant support renders issues with actions, and recommendations come from the catalog', async () => {
      const content = c.client();
      const account = await content.merchantsupport.renderaccountissues({ merchantId: SUB, requestBody: {} });
      assert.ok(account.data.issues!.some((i) => i.title === 'Website not claimed'));
      const claim = account.data.issues!.find((i) => i.title === 'Website not claimed')!;
      const context = claim.actions![0].builtinUserInputAction!.actionContext!;
      const triggered = await content.merchantsupport.triggeraction({ merchantId: SUB, requestBody: { actionContext: context, actionInput: { actionFlowId: 'claim' } } });
      assert.match(triggered.data.message!, /claimed/);
      assert.equal((await c.api(`/${SUB}/merchantsupport/triggeraction`, { body: { actionContext: 'bogus', actionInput: {} } })).status, 400);
      await content.products.insert({ merchantId: SUB, requestBody: product('no-image', { imageLink: undefined }) });
      const productIssues = await content.merchantsupport.renderproductissues({ merchantId: SUB, productId: 'online:en:US:no-image', requestBody: {} });
      assert.ok(productIssues.data.issues!.length > 0);
      const recs = await content.recommendations.generate({ merchantId: SUB });
      assert.ok(recs.data.responseToken);
      if (recs.data.recommendations?.length) {
        const type = recs.data.recommendations[0].type!;
        assert.equal((await c.api(`/${SUB}/recommendations/reportInteraction`, { body: { responseToken: recs.data.responseToken, type, interactionType: 'INTERACTION_CLICK' } })).status, 204);
      }
      assert.equal((await c.api(`/${SUB}/recommendations/reportInteraction`, { body: { responseToken: 'nope', type: 'X', interactionType: 'INTERACTION_CLICK' } })).status, 400);
    });
  });
}
