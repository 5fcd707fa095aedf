// Local inventory ads settings per account and their actions: business profile access, inventory verification
// (the contact gets an e-mail), POS data provider and omnichannel experience per country.
import { Type, type TProperties } from '@sinclair/typebox';
import { GoogleError } from '../../../core/google/index.ts';
import type { Catalog } from '../catalog.ts';
import type { BatchMethod } from '../layer/batch.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { POS_DATA_PROVIDERS } from '../rules/reference-data.ts';
import { badRequest, country, email, httpUrl, oneOf, requireValue } from '../wire/rules.ts';
import { defineAccountSetting, readSetting, writeSetting } from './account-settings.ts';

const LIA = { name: 'liasettings', defaults: () => ({ countrySettings: [] }) };
const LSF_TYPES = ['ghlsf', 'mhlsfBasic', 'mhlsfFull'];
const PICKUP_TYPES = ['pickupToday', 'pickupLater'];

function validateLia(doc: Record<string, any>): void {
  const seen = new Set<string>();
  (doc.countrySettings ?? []).forEach((c: Record<string, any>, i: number) => {
    const path = `liaSettings.countrySettings[${i}]`;
    country(c.country, `${path}.country`, true);
    if (seen.has(c.country)) throw badRequest(`${path}: country ${c.country} appears twice.`);
    seen.add(c.country);
    httpUrl(c.about?.url, `${path}.about.url`);
    email(c.inventory?.inventoryVerificationContactEmail, `${path}.inventory.inventoryVerificationContactEmail`);
    if (c.omnichannelExperience?.lsfType !== undefined) oneOf(c.omnichannelExperience.lsfType, LSF_TYPES, `${path}.omnichannelExperience.lsfType`);
    if (c.posDataProvider?.posDataProviderId !== undefined) checkProvider(c.country, c.posDataProvider.posDataProviderId);
  });
}

function checkProvider(countryCode: string, providerId: string): void {
  const known = POS_DATA_PROVIDERS.find((p) => p.country === countryCode)?.posDataProviders.some((p) => p.providerId === providerId);
  if (!known) throw badRequest(`POS data provider ${providerId} does not serve ${countryCode}.`);
}

const str = (v: unknown) => (v === undefined ? undefined : String(v));

/** Changes the settings of one country, creating them when absent. */
function updateCountry(doc: Record<string, any>, countryCode: string, change: (c: Record<string, any>) => void): Record<string, any> {
  const settings = [...(doc.countrySettings ?? [])].map((c: Record<string, any>) => ({ ...c }));
  let entry = settings.find((c) => c.country === countryCode);
  if (!entry) {
    entry = { country: countryCode };
    settings.push(entry);
  }
  change(entry);
  return { ...doc, countrySettings: settings };
}

function action(name: string, verb: Operation['verb'], path: string, run: (cat: Catalog, call: Call) => Promise<unknown>, query?: TProperties): Operation {
  return { method: `liasettings.${name}`, verb, path: `/{merchantId}/liasettings/{accountId}${path}`, scope: 'managed', request: { query }, run };
}

const countryQuery = Type.String({ pattern: '^[A-Z]{2}$', description: 'The country whose settings change (CLDR code, e.g. US); required.' });

const QUERIES: Record<string, TProperties> = {
  requestgmbaccess: { gmbEmail: Type.String({ description: 'E-mail address of the Business Profile account to link; required.' }) },
  setinventoryverificationcontact: {
    country: countryQuery,
    language: Type.String({ minLength: 1, description: 'Language of the messages to the contact; required.' }),
    contactName: Type.String({ minLength: 1, description: 'Name of the contact; required.' }),
    contactEmail: Type.String({ description: 'E-mail address of the contact, who is sent a message; required.' }),
  },
  setomnichannelexperience: {
    country: countryQuery,
    lsfType: Type.Optional(Type.String({ enum: LSF_TYPES, description: 'Kind of local storefront.' })),
    pickupTypes: Type.Optional(Type.Array(Type.String({ enum: PICKUP_TYPES }), { description: 'Pickup types offered (repeated or comma-separated).' })),
  },
  setposdataprovider: {
    country: countryQuery,
    posDataProviderId: Type.Optional(Type.String({ description: 'A provider serving the country (see listposdataproviders); absent removes the provider.' })),
    posExternalAccountId: Type.Optional(Type.String({ description: 'The merchant\'s account id at the provider.' })),
  },
};

/** Rules validateLia enforces on each country's settings. */
const LIA_DOCS = {
  'countrySettings.country': { pattern: '^[A-Z]{2}$', description: 'CLDR country code; required and unique among the countries.' },
  'countrySettings.about.url': { description: 'An http or https URL.' },
  'countrySettings.omnichannelExperience.lsfType': { enum: LSF_TYPES },
  'countrySettings.posDataProvider.posDataProviderId': { description: 'A provider serving the country (see listposdataproviders).' },
};

export function liaOperations(): Operation[] {
  const getGmb = action('getaccessiblegmbaccounts', 'GET', '/accessiblegmbaccounts', async (cat, call) => {
    const access = await cat.store.resource(call.account.id, 'gmbaccess', call.account.id);
    const stores = (await cat.store.resources(call.account.id, 'posstores', { limit: 100_000 })).items.length;
    const gmbAccounts = (access?.doc.emails ?? []).map((e: string) => ({ email: e, name: e.split('@')[0], type: 'business', listingCount: String(stores) }));
    return { kind: 'content#liasettingsGetAccessibleGmbAccountsResponse', accountId: call.account.id, gmbAccounts };
  });
  const requestGmb = action('requestgmbaccess', 'POST', '/requestgmbaccess', async (cat, call) => {
    const gmbEmail = str(call.query.gmbEmail);
    email(gmbEmail, 'gmbEmail', true);
    await cat.write(async (s) => {
      const row = await s.resource(call.account.id, 'gmbaccess', call.account.id);
      const emails = new Set<string>(row?.doc.emails ?? []);
      emails.add(gmbEmail!.toLowerCase());
      await s.putResource(call.account.id, 'gmbaccess', call.account.id, { emails: [...emails] }, cat.now());
    });
    return { kind: 'content#liasettingsRequestGmbAccessResponse' };
  }, QUERIES.requestgmbaccess);
  const requestVerification = action('requestinventoryverification', 'POST', '/requestinventoryverification/{country}', async (cat, call) => {
    const c = call.params.country;
    country(c, 'country', true);
    await writeSetting(cat, LIA, call.account.id, (doc) => {
      const current = (doc.countrySettings ?? []).find((x: Record<string, any>) => x.country === c);
      if (!current?.inventory?.inventoryVerificationContactEmail) {
        throw new GoogleError(400, `Set an inventory verification contact for ${c} first (setinventoryverificationcontact).`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
      }
      return updateCountry(doc, c, (x) => {
        x.inventory = { ...x.inventory, status: 'pending' };
      });
    });
    return { kind: 'content#liasettingsRequestInventoryVerificationResponse' };
  });
  const setContact = action('setinventoryverificationcontact', 'POST', '/setinventoryverificationcontact', async (cat, call) => {
    const c = str(call.query.country);
    country(c, 'country', true);
    requireValue(call.query.language, 'language');
    requireValue(call.query.contactName, 'contactName');
    email(call.query.contactEmail, 'contactEmail', true);
    const contactEmail = String(call.query.contactEmail);
    await cat.write(async (s, tx) => {
      const doc = await readSetting(s, LIA, call.account.id);
      const next = updateCountry(doc, c!, (x) => {
        x.inventory = { ...x.inventory, inventoryVerificationContactName: String(call.query.contactName), inventoryVerificationContactEmail: contactEmail, inventoryVerificationContactStatus: 'unverified' };
      });
      await s.putResource(call.account.id, LIA.name, call.account.id, next, cat.now());
      await cat.ctx.outbox.enqueue(
        { service: 'catalog', channel: 'email', recipient: contactEmail, subject: 'Confirm you are the inventory verification contact', body: `Merchant ${call.account.id} named you the inventory verification contact for ${c}.`, correlation: `lia:${call.account.id}:${c}` },
        tx,
      );
    });
    return { kind: 'content#liasettingsSetInventoryVerificationContactResponse' };
  }, QUERIES.setinventoryverificationcontact);
  const setOmnichannel = action('setomnichannelexperience', 'POST', '/setomnichannelexperience', async (cat, call) => {
    const c = str(call.query.country);
    country(c, 'country', true);
    const lsfType = str(call.query.lsfType);
    if (lsfType !== undefined) oneOf(lsfType, LSF_TYPES, 'lsfType');
    const raw = call.query.pickupTypes;
    const pickupTypes = raw === undefined ? [] : (Array.isArray(raw) ? raw : String(raw).split(',')).map(String);
    pickupTypes.forEach((p) => oneOf(p, PICKUP_TYPES, 'pickupTypes'));
    const experience: Record<string, unknown> = { country: c };
    if (lsfType) experience.lsfType = lsfType;
    if (pickupTypes.length) experience.pickupTypes = pickupTypes;
    await writeSetting(cat, LIA, call.account.id, (doc) => updateCountry(doc, c!, (x) => (x.omnichannelExperience = experience)));
    return experience;
  }, QUERIES.setomnichannelexperience);
  const setProvider = action('setposdataprovider', 'POST', '/setposdataprovider', async (cat, call) => {
    const c = str(call.query.country);
    country(c, 'country', true);
    const providerId = str(call.query.posDataProviderId);
    if (providerId !== undefined) checkProvider(c!, providerId);
    await writeSetting(cat, LIA, call.account.id, (doc) =>
      updateCountry(doc, c!, (x) => {
        if (providerId === undefined) delete x.posDataProvider;
        else x.posDataProvider = { posDataProviderId: providerId, ...(call.query.posExternalAccountId !== undefined ? { posExternalAccountId: String(call.query.posExternalAccountId) } : {}) };
      }),
    );
    return { kind: 'content#liasettingsSetPosDataProviderResponse' };
  }, QUERIES.setposdataprovider);
  const listProviders: Operation = {
    method: 'liasettings.listposdataproviders',
    verb: 'GET',
    path: '/liasettings/posdataproviders',
    scope: 'caller',
    run: async () => ({ kind: 'content#liasettingsListPosDataProvidersResponse', posDataProviders: POS_DATA_PROVIDERS }),
  };
  const extraBatch = (): Record<string, BatchMethod> => ({
    getAccessibleGmbAccounts: { op: getGmb, result: 'gmbAccounts' },
    requestGmbAccess: { op: requestGmb },
    requestInventoryVerification: { op: { ...requestVerification, run: (cat, call) => requestVerification.run(cat, { ...call, params: { ...call.params, country: String(call.query.country ?? '') } }) } },
    setInventoryVerificationContact: { op: setContact },
    setOmnichannelExperience: { op: setOmnichannel, result: 'omnichannelExperience' },
    setPosDataProvider: { op: setProvider },
  });
  return [
    ...defineAccountSetting({
      name: 'liasettings',
      wire: 'LiaSettings',
      kind: 'content#liaSettings',
      field: 'liaSettings',
      defaults: LIA.defaults,
      validate: validateLia,
      extraBatch,
      docs: LIA_DOCS,
    }),
    getGmb,
    requestGmb,
    requestVerification,
    setContact,
    setOmnichannel,
    setProvider,
    listProviders,
  ];
}
