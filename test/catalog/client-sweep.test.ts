// Every resource driven through the googleapis client: the request reaches the route with the client's own parameter
// and body names, and each answer matches the `Schema$...` type the client declares for it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { clientShapes } from '../helpers/client-shapes.ts';
import { MCA, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const { assert: assertShape, allPages } = clientShapes('content', 'v2.1');

for (const database of DATABASES) {
  describe(`catalog through the googleapis client (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    describe('accounts', () => {
      it('get, list with paging, insert, update, labels, links, custombatch', async () => {
        const content = c.client();
        assertShape('AccountsAuthInfoResponse', (await content.accounts.authinfo()).data);
        assertShape('Account', (await content.accounts.get({ merchantId: MCA, accountId: SUB })).data);
        const created = [];
        for (const name of ['Sweep one', 'Sweep two', 'Sweep three']) created.push((await content.accounts.insert({ merchantId: MCA, requestBody: { name } })).data);
        created.forEach((a) => assertShape('Account', a));
        const listed = await allPages<{ id: string }>('AccountsListResponse', 'resources', (pageToken) => content.accounts.list({ merchantId: MCA, maxResults: 2, pageToken }));
        assert.equal(listed.pages, 2);
        assert.deepEqual(listed.items.map((a) => a.id).sort(), [SUB, ...created.map((a) => a.id!)].sort());
        const byName = await content.accounts.list({ merchantId: MCA, name: 'sweep t' });
        assert.deepEqual(byName.data.resources!.map((a) => a.name).sort(), ['Sweep three', 'Sweep two']);
        const updated = await content.accounts.update({ merchantId: MCA, accountId: created[0].id!, requestBody: { id: created[0].id, name: 'Sweep renamed' } });
        assertShape('Account', updated.data);
        const label = await content.accounts.labels.create({ accountId: MCA, requestBody: { name: 'sweep' } });
        assertShape('AccountLabel', label.data);
        await content.accounts.labels.create({ accountId: MCA, requestBody: { name: 'sweep-other' } });
        const labels = await allPages('ListAccountLabelsResponse', 'accountLabels', (pageToken) => content.accounts.labels.list({ accountId: MCA, pageSize: 1, pageToken }));
        assert.equal(labels.items.length, 2);
        assertShape('AccountLabel', (await content.accounts.labels.patch({ accountId: MCA, labelId: label.data.labelId!, requestBody: { name: 'sweep-2' } })).data);
        assertShape('AccountsUpdateLabelsResponse', (await content.accounts.updatelabels({ merchantId: MCA, accountId: created[0].id!, requestBody: { labelIds: [label.data.labelId!] } })).data);
        assertShape('AccountsLinkResponse', (await content.accounts.link({ merchantId: MCA, accountId: created[0].id!, requestBody: { action: 'request', linkType: 'channelPartner', linkedAccountId: created[1].id!, services: ['shoppingAdsProductManagement'] } })).data);
        assertShape('AccountsListLinksResponse', (await content.accounts.listlinks({ merchantId: MCA, accountId: created[0].id! })).data);
        const batch = await content.accounts.custombatch({
          requestBody: {
            entries: [
              { batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' },
              { batchId: 2, merchantId: MCA, method: 'insert', account: { name: 'Sweep batch' } },
              { batchId: 3, merchantId: MCA, accountId: created[2].id!, method: 'delete' },
            ],
          },
        });
        assertShape('AccountsCustomBatchResponse', batch.data);
        assert.deepEqual(batch.data.entries!.map((e) => e.errors), [undefined, undefined, undefined]);
        await content.accounts.labels.delete({ accountId: MCA, labelId: label.data.labelId! });
        await content.accounts.delete({ merchantId: MCA, accountId: created[1].id!, force: true });
      });

      it('return carriers and credentials', async () => {
        const content = c.client();
        const carrier = await content.accounts.returncarrier.create({ accountId: SUB, requestBody: { carrierCode: 'UPS', carrierAccountNumber: '123', carrierAccountName: 'Main' } });
        assertShape('AccountReturnCarrier', carrier.data);
        assertShape('ListAccountReturnCarrierResponse', (await content.accounts.returncarrier.list({ accountId: SUB })).data);
        assertShape('AccountReturnCarrier', (await content.accounts.returncarrier.patch({ accountId: SUB, carrierAccountId: carrier.data.carrierAccountId!, requestBody: { carrierAccountName: 'Renamed' } })).data);
        await content.accounts.returncarrier.delete({ accountId: SUB, carrierAccountId: carrier.data.carrierAccountId! });
        const credentials = await content.accounts.credentials.create({ accountId: SUB, requestBody: { accessToken: 'shpat_1', purpose: 'SHOPIFY_ORDER_MANAGEMENT' } });
        assertShape('AccountCredentials', credentials.data);
      });
    });

    describe('accountstatuses', () => {
      it('get, list with paging, custombatch', async () => {
        const content = c.client();
        assertShape('AccountStatus', (await content.accountstatuses.get({ merchantId: MCA, accountId: SUB, destinations: ['Shopping'] })).data);
        await allPages('AccountstatusesListResponse', 'resources', (pageToken) => content.accountstatuses.list({ merchantId: MCA, maxResults: 1, pageToken }));
        const batch = await content.accountstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get', destinations: ['Shopping'] }] } });
        assertShape('AccountstatusesCustomBatchResponse', batch.data);
      });
    });

    describe('accounttax', () => {
      it('get, update, list, custombatch', async () => {
        const content = c.client();
        assertShape('AccountTax', (await content.accounttax.update({ merchantId: MCA, accountId: SUB, requestBody: { accountId: SUB, rules: [{ country: 'US', locationId: '21137', ratePercent: '7.25' }] } })).data);
        assertShape('AccountTax', (await content.accounttax.get({ merchantId: MCA, accountId: SUB })).data);
        const listed = await allPages<{ accountId: string }>('AccounttaxListResponse', 'resources', (pageToken) => content.accounttax.list({ merchantId: MCA, maxResults: 1, pageToken }));
        assert.ok(listed.pages > 1 && listed.items.some((t) => t.accountId === SUB));
        assertShape('AccounttaxCustomBatchResponse', (await content.accounttax.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }] } })).data);
      });
    });

    describe('products and productstatuses', () => {
      it('insert, get, update, list with paging, delete, custombatch', async () => {
        const content = c.client();
        for (const id of ['sw-1', 'sw-2', 'sw-3']) assertShape('Product', (await content.products.insert({ merchantId: SUB, requestBody: product(id, { sizes: ['M'], shipping: [{ country: 'US', price: { value: '1.00', currency: 'USD' } }] }) })).data);
        const got = await content.products.get({ merchantId: SUB, productId: 'online:en:US:sw-1' });
        assertShape('Product', got.data);
        assertShape('Product', (await content.products.update({ merchantId: SUB, productId: 'online:en:US:sw-1', updateMask: 'title', requestBody: { title: 'Renamed' } })).data);
        const listed = await allPages<{ id: string }>('ProductsListResponse', 'resources', (pageToken) => content.products.list({ merchantId: SUB, maxResults: 2, pageToken }));
        assert.deepEqual(listed.items.map((p) => p.id), ['online:en:US:sw-1', 'online:en:US:sw-2', 'online:en:US:sw-3']);
        const batch = await content.products.custombatch({
          requestBody: {
            entries: [
              { batchId: 1, merchantId: SUB, method: 'insert', product: product('sw-4') },
              { batchId: 2, merchantId: SUB, method: 'get', productId: 'online:en:US:sw-2' },
              { batchId: 3, merchantId: SUB, method: 'update', productId: 'online:en:US:sw-2', updateMask: 'title', product: { title: 'Batch title' } },
              { batchId: 4, merchantId: SUB, method: 'delete', productId: 'online:en:US:sw-3' },
            ],
          },
        });
        assertShape('ProductsCustomBatchResponse', batch.data);
        assert.deepEqual(batch.data.entries!.map((e) => e.errors), [undefined, undefined, undefined, undefined]);
        await content.products.delete({ merchantId: SUB, productId: 'online:en:US:sw-4' });
      });

      it('productstatuses get, list with paging and destinations, custombatch', async () => {
        const content = c.client();
        assertShape('ProductStatus', (await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:US:sw-1', destinations: ['Shopping', 'SurfacesAcrossGoogle'] })).data);
        const listed = await allPages('ProductstatusesListResponse', 'resources', (pageToken) => content.productstatuses.list({ merchantId: SUB, maxResults: 1, pageToken, destinations: ['Shopping'] }));
        assert.equal(listed.pages, 2);
        const batch = await content.productstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', productId: 'online:en:US:sw-1', destinations: ['Shopping'], includeAttributes: true }] } });
        assertShape('ProductstatusesCustomBatchResponse', batch.data);
      });
    });

    describe('localinventory and regionalinventory', () => {
      it('insert and custombatch', async () => {
        const content = c.client();
        await content.products.insert({ merchantId: SUB, requestBody: product('inv-1') });
        const pid = 'online:en:US:inv-1';
        assertShape('LocalInventory', (await content.localinventory.insert({ merchantId: SUB, productId: pid, requestBody: { storeCode: 's1', availability: 'in stock', quantity: 3, price: { value: '9.99', currency: 'USD' } } })).data);
        assertShape('LocalinventoryCustomBatchResponse', (await content.localinventory.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, productId: pid, method: 'insert', localInventory: { storeCode: 's2', quantity: 1 } }] } })).data);
        await content.regions.create({ merchantId: SUB, regionId: 'inv-region', requestBody: { displayName: 'Inv', postalCodeArea: { regionCode: 'US', postalCodes: [{ begin: '10000' }] } } });
        assertShape('RegionalInventory', (await content.regionalinventory.insert({ merchantId: SUB, productId: pid, requestBody: { regionId: 'inv-region', availability: 'in stock' } })).data);
        assertShape('RegionalinventoryCustomBatchResponse', (await content.regionalinventory.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, productId: pid, method: 'insert', regionalInventory: { regionId: 'inv-region', availability: 'in stock' } }] } })).data);
      });
    });

    describe('datafeeds and datafeedstatuses', () => {
      it('insert, get, update, list with paging, fetchnow, delete, custombatch; statuses', async () => {
        const content = c.client();
        const feeds = [];
        for (const n of [1, 2, 3]) feeds.push((await content.datafeeds.insert({ merchantId: SUB, requestBody: { name: `Feed ${n}`, fileName: `sweep-${n}.tsv`, contentType: 'products', targets: [{ language: 'en', feedLabel: 'US' }] } })).data);
        feeds.forEach((f) => assertShape('Datafeed', f));
        const id = feeds[0].id!;
        assertShape('Datafeed', (await content.datafeeds.get({ merchantId: SUB, datafeedId: id })).data);
        assertShape('Datafeed', (await content.datafeeds.update({ merchantId: SUB, datafeedId: id, requestBody: { ...feeds[0], name: 'Feed renamed' } })).data);
        const listed = await allPages('DatafeedsListResponse', 'resources', (pageToken) => content.datafeeds.list({ merchantId: SUB, maxResults: 2, pageToken }));
        assert.equal(listed.items.length, 3);
        const statuses = await allPages('DatafeedstatusesListResponse', 'resources', (pageToken) => content.datafeedstatuses.list({ merchantId: SUB, maxResults: 2, pageToken }));
        assert.equal(statuses.items.length, 3);
        assertShape('DatafeedStatus', (await content.datafeedstatuses.get({ merchantId: SUB, datafeedId: id, language: 'en', feedLabel: 'US' })).data);
        assertShape('DatafeedstatusesCustomBatchResponse', (await content.datafeedstatuses.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', datafeedId: id, language: 'en', feedLabel: 'US' }] } })).data);
        const batch = await content.datafeeds.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', datafeedId: id }, { batchId: 2, merchantId: SUB, method: 'delete', datafeedId: feeds[2].id! }] } });
        assertShape('DatafeedsCustomBatchResponse', batch.data);
        assert.deepEqual(batch.data.entries!.map((e) => e.errors), [undefined, undefined]);
        await content.datafeeds.delete({ merchantId: SUB, datafeedId: feeds[1].id! });
      });
    });

    describe('regions', () => {
      it('create, get, patch, list with paging, delete', async () => {
        const content = c.client();
        for (const id of ['r-a', 'r-b', 'r-c']) assertShape('Region', (await content.regions.create({ merchantId: SUB, regionId: id, requestBody: { displayName: id, geotargetArea: { geotargetCriteriaIds: ['1023191'] } } })).data);
        assertShape('Region', (await content.regions.get({ merchantId: SUB, regionId: 'r-a' })).data);
        assertShape('Region', (await content.regions.patch({ merchantId: SUB, regionId: 'r-a', updateMask: 'displayName', requestBody: { displayName: 'A' } })).data);
        const listed = await allPages<{ regionId: string }>('ListRegionsResponse', 'regions', (pageToken) => content.regions.list({ merchantId: SUB, pageSize: 2, pageToken }));
        assert.ok(['r-a', 'r-b', 'r-c'].every((id) => listed.items.some((r) => r.regionId === id)));
        await content.regions.delete({ merchantId: SUB, regionId: 'r-c' });
      });
    });

    describe('returnaddress, returnpolicy, returnpolicyonline', () => {
      it('every method and custombatch', async () => {
        const content = c.client();
        const address = { label: 'Main', country: 'US', phoneNumber: '+1 555 0100', address: { streetAddress: ['1 Return Rd'], locality: 'Springfield', postalCode: '12345', country: 'US' } };
        const inserted = await content.returnaddress.insert({ merchantId: SUB, requestBody: address });
        assertShape('ReturnAddress', inserted.data);
        assertShape('ReturnAddress', (await content.returnaddress.get({ merchantId: SUB, returnAddressId: inserted.data.returnAddressId! })).data);
        assertShape('ReturnaddressListResponse', (await content.returnaddress.list({ merchantId: SUB, country: 'US' })).data);
        assertShape('ReturnaddressCustomBatchResponse', (await content.returnaddress.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', returnAddressId: inserted.data.returnAddressId! }] } })).data);
        await content.returnaddress.delete({ merchantId: SUB, returnAddressId: inserted.data.returnAddressId! });
        const policy = await content.returnpolicy.insert({ merchantId: SUB, requestBody: { label: 'default', country: 'US', name: 'Standard', policy: { type: 'numberOfDaysAfterDelivery', numberOfDays: '30' } } });
        assertShape('ReturnPolicy', policy.data);
        assertShape('ReturnPolicy', (await content.returnpolicy.get({ merchantId: SUB, returnPolicyId: policy.data.returnPolicyId! })).data);
        assertShape('ReturnpolicyListResponse', (await content.returnpolicy.list({ merchantId: SUB })).data);
        assertShape('ReturnpolicyCustomBatchResponse', (await content.returnpolicy.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', returnPolicyId: policy.data.returnPolicyId! }] } })).data);
        await content.returnpolicy.delete({ merchantId: SUB, returnPolicyId: policy.data.returnPolicyId! });
        const online = await content.returnpolicyonline.create({ merchantId: SUB, requestBody: { name: 'Online', countries: ['US'], returnPolicyUri: 'https://shop.example.com/returns', policy: { type: 'NUMBER_OF_DAYS_AFTER_DELIVERY', days: '30' } } });
        assertShape('ReturnPolicyOnline', online.data);
        assertShape('ReturnPolicyOnline', (await content.returnpolicyonline.get({ merchantId: SUB, returnPolicyId: online.data.returnPolicyId! })).data);
        assertShape('ReturnPolicyOnline', (await content.returnpolicyonline.patch({ merchantId: SUB, returnPolicyId: online.data.returnPolicyId!, requestBody: { label: 'main' } })).data);
        assertShape('ListReturnPolicyOnlineResponse', (await content.returnpolicyonline.list({ merchantId: SUB })).data);
        await content.returnpolicyonline.delete({ merchantId: SUB, returnPolicyId: online.data.returnPolicyId! });
      });
    });

    describe('shippingsettings', () => {
      it('update, get, list, supported lists, custombatch', async () => {
        const content = c.client();
        const service = { name: 'Standard', active: true, deliveryCountry: 'US', currency: 'USD', deliveryTime: { minTransitTimeInDays: 2, maxTransitTimeInDays: 5, minHandlingTimeInDays: 0, maxHandlingTimeInDays: 1 }, rateGroups: [{ singleValue: { flatRate: { value: '4.99', currency: 'USD' } } }] };
        assertShape('ShippingSettings', (await content.shippingsettings.update({ merchantId: MCA, accountId: SUB, requestBody: { accountId: SUB, services: [service] } })).data);
        assertShape('ShippingSettings', (await content.shippingsettings.get({ merchantId: MCA, accountId: SUB })).data);
        const listed = await allPages<{ accountId: string }>('ShippingsettingsListResponse', 'resources', (pageToken) => content.shippingsettings.list({ merchantId: MCA, maxResults: 1, pageToken }));
        assert.ok(listed.pages > 1 && listed.items.some((s) => s.accountId === SUB));
        assertShape('ShippingsettingsGetSupportedCarriersResponse', (await content.shippingsettings.getsupportedcarriers({ merchantId: SUB })).data);
        assertShape('ShippingsettingsGetSupportedHolidaysResponse', (await content.shippingsettings.getsupportedholidays({ merchantId: SUB })).data);
        assertShape('ShippingsettingsGetSupportedPickupServicesResponse', (await content.shippingsettings.getsupportedpickupservices({ merchantId: SUB })).data);
        assertShape('ShippingsettingsCustomBatchResponse', (await content.shippingsettings.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }] } })).data);
      });
    });

    describe('liasettings', () => {
      it('every method and custombatch', async () => {
        const content = c.client();
        const params = { merchantId: MCA, accountId: SUB };
        assertShape('LiaSettings', (await content.liasettings.update({ ...params, requestBody: { accountId: SUB, countrySettings: [{ country: 'US', hostedLocalStorefrontActive: true }] } })).data);
        const listed = await allPages<{ accountId: string }>('LiasettingsListResponse', 'resources', (pageToken) => content.liasettings.list({ merchantId: MCA, maxResults: 1, pageToken }));
        assert.ok(listed.pages > 1 && listed.items.some((l) => l.accountId === SUB));
        assertShape('LiasettingsSetInventoryVerificationContactResponse', (await content.liasettings.setinventoryverificationcontact({ ...params, country: 'US', language: 'en', contactName: 'Ann', contactEmail: 'ann@shop.example.com' })).data);
        assertShape('LiasettingsRequestInventoryVerificationResponse', (await content.liasettings.requestinventoryverification({ ...params, country: 'US' })).data);
        assertShape('LiasettingsSetPosDataProviderResponse', (await content.liasettings.setposdataprovider({ ...params, country: 'US', posDataProviderId: '1001', posExternalAccountId: 'ext-1' })).data);
        assertShape('LiaOmnichannelExperience', (await content.liasettings.setomnichannelexperience({ ...params, country: 'US', lsfType: 'ghlsf', pickupTypes: ['pickupToday'] })).data);
        assertShape('LiasettingsRequestGmbAccessResponse', (await content.liasettings.requestgmbaccess({ ...params, gmbEmail: 'biz@shop.example.com' })).data);
        const lia = await content.liasettings.get(params);
        assertShape('LiaSettings', lia.data);
        assert.deepEqual(lia.data.countrySettings![0].posDataProvider, { posDataProviderId: '1001', posExternalAccountId: 'ext-1' });
        assertShape('LiasettingsGetAccessibleGmbAccountsResponse', (await content.liasettings.getaccessiblegmbaccounts(params)).data);
        assertShape('LiasettingsListPosDataProvidersResponse', (await content.liasettings.listposdataproviders()).data);
        assertShape('LiasettingsCustomBatchResponse', (await content.liasettings.custombatch({ requestBody: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' }] } })).data);
      });
    });

    describe('pos', () => {
      it('stores, inventory, sale, list, custombatch', async () => {
        const content = c.client();
        const target = { merchantId: MCA, targetMerchantId: SUB };
        await content.products.insert({ merchantId: SUB, requestBody: product('pos-1', { channel: 'local' }) });
        assertShape('PosStore', (await content.pos.insert({ ...target, requestBody: { storeCode: 'pos-store', storeAddress: '1 Main St' } })).data);
        assertShape('PosStore', (await content.pos.get({ ...target, storeCode: 'pos-store' })).data);
        assertShape('PosListResponse', (await content.pos.list(target)).data);
        const item = { storeCode: 'pos-store', itemId: 'pos-1', targetCountry: 'US', contentLanguage: 'en', price: { value: '5.00', currency: 'USD' }, quantity: '3', timestamp: '2026-01-01T10:00:00Z' };
        assertShape('PosInventoryResponse', (await content.pos.inventory({ ...target, requestBody: item })).data);
        assertShape('PosSaleResponse', (await content.pos.sale({ ...target, requestBody: { ...item, quantity: '1' } })).data);
        const batch = await content.pos.custombatch({ requestBody: { entries: [{ batchId: 1, ...target, method: 'inventory', inventory: item }, { batchId: 2, ...target, method: 'get', storeCode: 'pos-store' }] } });
        assertShape('PosCustomBatchResponse', batch.data);
        assert.deepEqual(batch.data.entries!.map((e) => e.errors), [undefined, undefined]);
        await content.pos.delete({ ...target, storeCode: 'pos-store' });
      });
    });

    describe('collections and collectionstatuses', () => {
      it('create, get, list with paging, delete; statuses', async () => {
        const content = c.client();
        for (const id of ['col-a', 'col-b', 'col-c']) assertShape('Collection', (await content.collections.create({ merchantId: SUB, requestBody: { id, language: 'en', productCountry: 'US', headline: ['H'], link: 'https://shop.example.com/c', imageLink: ['https://shop.example.com/c.jpg'] } })).data);
        assertShape('Collection', (await content.collections.get({ merchantId: SUB, collectionId: 'col-a' })).data);
        const listed = await allPages('ListCollectionsResponse', 'resources', (pageToken) => content.collections.list({ merchantId: SUB, pageSize: 2, pageToken }));
        assert.equal(listed.items.length, 3);
        assertShape('CollectionStatus', (await content.collectionstatuses.get({ merchantId: SUB, collectionId: 'col-a' })).data);
        const statuses = await allPages('ListCollectionStatusesResponse', 'resources', (pageToken) => content.collectionstatuses.list({ merchantId: SUB, pageSize: 2, pageToken }));
        assert.equal(statuses.items.length, 3);
        await content.collections.delete({ merchantId: SUB, collectionId: 'col-c' });
      });
    });

    describe('promotions', () => {
      it('create, get, list with filters and paging', async () => {
        const content = c.client();
        const promotion = (promotionId: string, targetCountry: string) => ({ promotionId, contentLanguage: 'en', targetCountry, redemptionChannel: ['ONLINE'], productApplicability: 'ALL_PRODUCTS', offerType: 'NO_CODE', longTitle: '10% off', promotionEffectiveTimePeriod: { startTime: '2020-01-01T00:00:00Z', endTime: '2099-01-01T00:00:00Z' } });
        for (const [id, country] of [['pr-1', 'US'], ['pr-2', 'US'], ['pr-3', 'GB']]) assertShape('Promotion', (await content.promotions.create({ merchantId: SUB, requestBody: promotion(id, country) })).data);
        assertShape('Promotion', (await content.promotions.get({ merchantId: SUB, id: 'online:en:US:pr-1' })).data);
        const listed = await allPages<{ id: string }>('ListPromotionResponse', 'promotions', (pageToken) => content.promotions.list({ merchantId: SUB, pageSize: 1, pageToken, countryCode: 'US', languageCode: 'en' }));
        assert.deepEqual(listed.items.map((p) => p.id).sort(), ['online:en:US:pr-1', 'online:en:US:pr-2']);
      });
    });

    describe('productdeliverytime and ordertrackingsignals', () => {
      it('create, get, delete; create', async () => {
        const content = c.client();
        await content.products.insert({ merchantId: SUB, requestBody: product('pdt-1') });
        const delivery = { productId: { productId: 'online:en:US:pdt-1' }, areaDeliveryTimes: [{ deliveryArea: { countryCode: 'US' }, deliveryTime: { minHandlingTimeDays: 0, maxHandlingTimeDays: 1, minTransitTimeDays: 2, maxTransitTimeDays: 4 } }] };
        assertShape('ProductDeliveryTime', (await content.productdeliverytime.create({ merchantId: SUB, requestBody: delivery })).data);
        assertShape('ProductDeliveryTime', (await content.productdeliverytime.get({ merchantId: SUB, productId: 'online:en:US:pdt-1' })).data);
        await content.productdeliverytime.delete({ merchantId: SUB, productId: 'online:en:US:pdt-1' });
        const signal = await content.ordertrackingsignals.create({
          merchantId: SUB,
          requestBody: { orderId: 'o-1', orderCreatedTime: { year: 2026, month: 1, day: 2 }, deliveryPostalCode: '94043', deliveryRegionCode: 'US', lineItems: [{ lineItemId: 'l1', productId: 'pdt-1', quantity: '1' }], shippingInfo: [{ shipmentId: 's1', shippingStatus: 'SHIPPED' }] },
        });
        assertShape('OrderTrackingSignal', signal.data);
      });
    });

    describe('conversionsources', () => {
      it('create, get, patch, list with paging, delete, undelete', async () => {
        const content = c.client();
        const sources = [];
        for (const n of [1, 2, 3]) sources.push((await content.conversionsources.create({ merchantId: SUB, requestBody: { merchantCenterDestination: { displayName: `Dest ${n}`, attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' }, currencyCode: 'USD' } } })).data);
        sources.forEach((s) => assertShape('ConversionSource', s));
        const id = sources[0].conversionSourceId!;
        assertShape('ConversionSource', (await content.conversionsources.get({ merchantId: SUB, conversionSourceId: id })).data);
        assertShape('ConversionSource', (await content.conversionsources.patch({ merchantId: SUB, conversionSourceId: id, updateMask: 'merchantCenterDestination.displayName', requestBody: { merchantCenterDestination: { displayName: 'Renamed' } } })).data);
        const listed = await allPages('ListConversionSourcesResponse', 'conversionSources', (pageToken) => content.conversionsources.list({ merchantId: SUB, pageSize: 2, pageToken }));
        assert.equal(listed.items.length, 3);
        await content.conversionsources.delete({ merchantId: SUB, conversionSourceId: id });
        const shown = async (showDeleted?: boolean) => (await content.conversionsources.list({ merchantId: SUB, showDeleted })).data.conversionSources!.some((s) => s.conversionSourceId === id);
        assert.deepEqual([await shown(), await shown(true)], [false, true]);
        await content.conversionsources.undelete({ merchantId: SUB, conversionSourceId: id, requestBody: {} });
        assertShape('ConversionSource', (await content.conversionsources.get({ merchantId: SUB, conversionSourceId: id })).data);
      });
    });

    describe('csses', () => {
      it('list, get, updatelabels', async () => {
        const content = c.client();
        const csses = await allPages<{ cssDomainId: string }>('ListCssesResponse', 'csses', (pageToken) => content.csses.list({ cssGroupId: MCA, pageSize: 1, pageToken }));
        assert.ok(csses.pages > 1 && csses.items.some((x) => x.cssDomainId === SUB));
        assertShape('Css', (await content.csses.get({ cssGroupId: MCA, cssDomainId: SUB })).data);
        assertShape('Css', (await content.csses.updatelabels({ cssGroupId: MCA, cssDomainId: SUB, requestBody: { labelIds: [] } })).data);
      });
    });

    describe('freelistingsprogram and shoppingadsprogram', () => {
      it('status, checkout settings', async () => {
        const content = c.client();
        assertShape('FreeListingsProgramStatus', (await content.freelistingsprogram.get({ merchantId: SUB })).data);
        assertShape('ShoppingAdsProgramStatus', (await content.shoppingadsprogram.get({ merchantId: SUB })).data);
        assertShape('CheckoutSettings', (await content.freelistingsprogram.checkoutsettings.insert({ merchantId: SUB, requestBody: { uriSettings: { checkoutUriTemplate: 'https://shop.example.com/checkout?id={id}' } } })).data);
        assertShape('CheckoutSettings', (await content.freelistingsprogram.checkoutsettings.get({ merchantId: SUB })).data);
        await content.freelistingsprogram.checkoutsettings.delete({ merchantId: SUB });
      });
    });

    describe('merchantsupport and recommendations', () => {
      it('render issues with the client query parameters; generate', async () => {
        const content = c.client();
        assertShape('RenderAccountIssuesResponse', (await content.merchantsupport.renderaccountissues({ merchantId: SUB, languageCode: 'en-US', timeZone: 'America/New_York', requestBody: {} })).data);
        await content.products.insert({ merchantId: SUB, requestBody: product('ms-1', { imageLink: undefined }) });
        assertShape('RenderProductIssuesResponse', (await content.merchantsupport.renderproductissues({ merchantId: SUB, productId: 'online:en:US:ms-1', languageCode: 'en-US', requestBody: {} })).data);
        assertShape('GenerateRecommendationsResponse', (await content.recommendations.generate({ merchantId: SUB, languageCode: 'en-US' })).data);
      });
    });

    describe('pubsubnotificationsettings and quotas', () => {
      it('update, get; quotas with paging', async () => {
        const content = c.client();
        assertShape('PubsubNotificationSettings', (await content.pubsubnotificationsettings.update({ merchantId: SUB, requestBody: { cloudTopicName: 'projects/my-project/topics/catalog-events', registeredEvents: ['productStatusChangeEvent'] } })).data);
        assertShape('PubsubNotificationSettings', (await content.pubsubnotificationsettings.get({ merchantId: SUB })).data);
        const quotas = await allPages('ListMethodQuotasResponse', 'methodQuotas', (pageToken) => content.quotas.list({ merchantId: SUB, pageSize: 50, pageToken }));
        assert.ok(quotas.pages > 1);
      });
    });

    describe('reports', () => {
      it('search with paging', async () => {
        const content = c.client();
        const pages = await allPages('SearchResponse', 'results', (pageToken) => content.reports.search({ merchantId: SUB, requestBody: { query: 'SELECT product_view.id, product_view.title FROM product_view', pageSize: 2, pageToken } }));
        assert.ok(pages.pages > 1);
      });
    });
  });
}
