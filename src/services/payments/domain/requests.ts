// Validation of the request models: every field rule and limit of the spec, with the API's result codes.
import { payError, type AuthInput, type ContactDetails, type PolicyValue } from '../contract.ts';
import { Fields, type RawBody } from './fields.ts';
import { POLICY_VALUES } from './policies.ts';

export const IDENTIFIER = { min: 4, max: 50, printable: true, missing: 'P026', short: 'P039', long: 'P016' } as const;
const URL_PATTERN = /^https?:\/\/[^\s]{1,2040}$/;

export function parseContact(f: Fields | undefined): ContactDetails | undefined {
  if (!f) return undefined;
  const out: ContactDetails = {};
  for (const k of ['address1', 'address2', 'address3', 'area', 'company'] as const) set(out, k, f.str(k, { max: 50 }));
  set(out, 'country', f.str('country', { pattern: /^[A-Za-z]{2}$/ })?.toUpperCase());
  set(out, 'email', f.str('email', { max: 254 }));
  for (const k of ['firstname', 'lastname', 'title'] as const) set(out, k, f.str(k));
  for (const k of ['mobile_no', 'telephone_no'] as const) set(out, k, f.str(k, { max: 20 }));
  set(out, 'postcode', f.str('postcode', { max: 16 }));
  return out;
}

function set<T extends object, K extends keyof T>(o: T, k: K, v: T[K] | undefined): void {
  if (v !== undefined) o[k] = v;
}

const policy = (f: Fields, name: string): PolicyValue | undefined => f.str(name, { oneOf: POLICY_VALUES }) as PolicyValue | undefined;

/** CSC: a string of 3 or 4 digits (a string, since it may start with 0). */
export function parseCsc(f: Fields): string | undefined {
  const csc = f.str('csc', { invalid: 'C012', max: 4, long: 'C013' });
  if (csc === undefined) return undefined;
  if (!/^\d+$/.test(csc)) throw payError(400, 'C012', 'Field invalid: csc must be digits');
  if (csc.length < 3) throw payError(400, 'C012', 'Field invalid: csc must be 3 or 4 digits');
  return csc;
}

export function parseAmount(f: Fields, required: boolean): number | undefined {
  return f.int('amount', { required, missing: 'P004', invalid: 'P005', digits: [1, 9], min: 1 });
}

export function parseMerchantId(f: Fields): number {
  return f.int('merchantid', { required: true, missing: 'P002', invalid: 'P003', min: 0, max: 2_147_483_647 })!;
}

/** Fields AuthRequest and ChargeRequest share. */
function parseCommon(f: Fields) {
  const tag = f.strArray('tag', { maxItems: 3, item: /^[A-Za-z0-9]{1,20}$/ });
  const tds = f.obj('threedsecure');
  let threedsecure: AuthInput['threedsecure'];
  if (tds) {
    threedsecure = {};
    const termurl = tds.str('merchant_termurl', { pattern: URL_PATTERN });
    if (termurl !== undefined) threedsecure.merchant_termurl = termurl;
    const tdsPolicy = tds.str('tds_policy', { oneOf: ['0', '1', '2'] });
    if (tdsPolicy !== undefined) threedsecure.tds_policy = tdsPolicy as '0' | '1' | '2';
    for (const k of ['accept_headers', 'user_agent', 'cp_bx', 'browserColorDepth', 'browserIP', 'browserJavaEnabled', 'browserLanguage', 'browserScreenHeight', 'browserScreenWidth', 'browserTZ']) {
      const v = tds.str(k, { max: 4096 });
      if (v !== undefined) threedsecure[k] = v;
    }
    tds.bool('downgrade1');
  }
  for (const ext of ['event_management', 'airline_data', 'mcc6012', 'external_mpi']) f.obj(ext);
  return {
    amount: parseAmount(f, true)!,
    identifier: f.str('identifier', { ...IDENTIFIER, required: true })!,
    merchantid: parseMerchantId(f),
    csc: parseCsc(f),
    currency: f.str('currency', { invalid: 'P034', pattern: /^[A-Za-z]{3}$/ })?.toUpperCase(),
    avs_postcode_policy: policy(f, 'avs_postcode_policy'),
    csc_policy: policy(f, 'csc_policy'),
    duplicate_policy: policy(f, 'duplicate_policy'),
    match_avsa: policy(f, 'match_avsa'),
    trans_info: f.str('trans_info', { max: 50 }),
    trans_type: f.str('trans_type', { max: 1, invalid: 'P023', long: 'P023' }),
    pre_auth: f.bool('pre_auth'),
    tag,
    threedsecure,
  };
}

/** The card of AuthRequest and RegisterCard: number (non-digits stripped, 12 to 22 digits) and expiry. */
export function parseCard(f: Fields): { cardnumber: string; expmonth: number; expyear: number } {
  const rawPan = f.str('cardnumber', { required: true, missing: 'C003', invalid: 'C001', max: 64, long: 'C004' })!;
  const cardnumber = rawPan.replace(/\D/g, '');
  if (cardnumber.length === 0) throw payError(400, 'C001', 'Card number is not numeric');
  if (cardnumber.length < 12 || cardnumber.length > 22) throw payError(400, 'C004', 'Card number must have 12 to 22 digits');
  return {
    cardnumber,
    expmonth: f.int('expmonth', { required: true, missing: 'C010', invalid: 'C007', min: 1, max: 12 })!,
    expyear: f.int('expyear', { required: true, missing: 'C010', invalid: 'C008', min: 2000, max: 2100 })!,
  };
}

export function parseAuthRequest(raw: RawBody): AuthInput {
  const f = new Fields(raw);
  const card = parseCard(f);
  const common = parseCommon(f);
  return strip({
    ...common,
    ...card,
    bill_to: parseContact(f.obj('bill_to')),
    ship_to: parseContact(f.obj('ship_to')),
    name_on_card: f.str('name_on_card', { min: 2, max: 45 }),
  });
}

export interface ChargeInput extends Omit<AuthInput, 'cardnumber' | 'expmonth' | 'expyear' | 'bill_to' | 'ship_to' | 'name_on_card'> {
  token: string;
  initiation?: 'M' | 'C';
  cardholder_agreement?: string;
}

export const AGREEMENTS = ['I', 'R', 'A', 'C', 'D', 'L', 'S', 'X'] as const;

export function parseChargeRequest(raw: RawBody): ChargeInput {
  const f = new Fields(raw);
  const token = f.str('token', { required: true, missing: 'P052', invalid: 'P052', max: 200, pattern: /^ct[1-9A-HJ-NP-Za-km-z]+$/ })!;
  const initiation = f.str('initiation', { oneOf: ['M', 'C'] }) as 'M' | 'C' | undefined;
  const cardholder_agreement = f.str('cardholder_agreement', { oneOf: AGREEMENTS });
  if (initiation === 'M' && cardholder_agreement === undefined) {
    throw payError(400, 'P044', 'Field not provided: cardholder_agreement is required for a merchant initiated charge');
  }
  return strip({ ...parseCommon(f), token, initiation, cardholder_agreement });
}

/** Drops undefined fields, so the parsed input prints and compares cleanly. */
function strip<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}
