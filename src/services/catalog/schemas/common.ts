// Documented parts every catalog route shares: path parameters (numeric account ids are checked as such), the query
// string (system parameters beside the method's own; unknown parameters are ignored, not refused) and list paging.
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { googleQuery } from '../../../core/google/query-schema.ts';

const NUMERIC_ID = { pattern: '^\\d{1,20}$' } as const;

/** What each path parameter names; numeric ids carry their pattern. */
const PATH_PARAMETERS: Record<string, TSchema> = {
  merchantId: Type.String({ ...NUMERIC_ID, description: 'The merchant the call acts for: the account itself or a multi-client account managing it.' }),
  accountId: Type.String({ ...NUMERIC_ID, description: 'The account the call is about: the merchant itself or one of its sub-accounts.' }),
  targetMerchantId: Type.String({ ...NUMERIC_ID, description: 'The merchant whose point-of-sale data this is: the merchant itself or one of its sub-accounts.' }),
  productId: Type.String({ description: 'REST id of the product: channel:contentLanguage:targetCountry (or feedLabel):offerId.' }),
  datafeedId: Type.String({ description: 'Id of the datafeed.' }),
  cssGroupId: Type.String({ ...NUMERIC_ID, description: 'The CSS group the domains belong to.' }),
  cssDomainId: Type.String({ ...NUMERIC_ID, description: 'Id of the CSS domain.' }),
  conversionSourceId: Type.String({ description: 'Id of the conversion source (followed by ":undelete" on the undelete route).' }),
  storeCode: Type.String({ description: 'Store code of the point-of-sale store.' }),
  country: Type.String({ description: 'Two-letter country code (CLDR territory).' }),
};

/** The path parameters of an operation path such as `/{merchantId}/products/{productId}`. */
export function pathParams(path: string): TObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return undefined;
  const props: TProperties = {};
  for (const name of names) {
    props[name] = PATH_PARAMETERS[name] ?? Type.String({ description: `Id of the resource (${name}).` });
  }
  return Type.Object(props, { required: names });
}

/** The query string of a catalog method: system parameters and `own`; other parameters are ignored. */
export function catalogQuery(own: TProperties = {}): TObject {
  return googleQuery(own, { unknownParameters: 'ignored' });
}

const pageToken = Type.Optional(Type.String({ description: 'The token of the previous page\'s nextPageToken, to continue after it.' }));

/** Paging of older lists: `maxResults` (default 25; larger values are cut to 250; 0 means the default). */
export const MAX_RESULTS_PAGING: TProperties = {
  maxResults: Type.Optional(Type.Integer({ minimum: 0, description: 'Most items on one page: 25 unless given; at most 250 are returned.' })),
  pageToken,
};

/** Paging of newer lists: `pageSize` (default 50; larger values are cut to 1000; 0 means the default). */
export const PAGE_SIZE_PAGING: TProperties = {
  pageSize: Type.Optional(Type.Integer({ minimum: 0, description: 'Most items on one page: 50 unless given; at most 1000 are returned.' })),
  pageToken,
};

/** `updateMask` of PATCH methods: named top-level fields (or `field.sub`) are replaced, or removed when absent. */
export const UPDATE_MASK: TProperties = {
  updateMask: Type.Optional(Type.String({ description: 'Comma-separated fields to replace (removed when the body lacks them); without it, the fields present in the body are replaced.' })),
};

/** Boolean query flags arrive as text: "true" switches them on. */
export const flag = (description: string) => Type.Optional(Type.Boolean({ description }));
