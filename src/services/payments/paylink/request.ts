// Reads PaylinkTokenRequestModel and PaylinkBillPaymentTokenRequest bodies: every field checked, every refusal an
// Error with the API's code (400), so nothing malformed reaches the store.
import { compileUntrustedPattern } from '../../../core/untrusted-pattern.ts';
import { payError } from '../contract.ts';
import { expiryFromExpireIn } from './domain/expire-in.ts';
import { selectChoices, type CustomParam } from './domain/custom-params.ts';
import type { GuardDefinition } from './domain/field-guard.ts';
import { MAX_ADDRESSES, MAX_PATHS, isE164, isEmailAddress } from './domain/notification-rules.ts';

export interface TokenRequest {
  amount: number;
  identifier: string;
  merchantid: number;
  currency?: string;
  accountno?: string;
  email?: string;
  cardholder: Record<string, any>;
  cart?: Record<string, unknown>;
  config: PaylinkConfig;
  client_version?: string;
  recurring?: boolean;
  subscription_id?: string;
  tx_type?: string;
}

export interface PaylinkConfig {
  expiresAt: number | null;
  guards: GuardDefinition[];
  customParams: CustomParam[];
  passThroughData?: unknown;
  passThroughHeaders: Record<string, string>;
  postback?: string;
  postbackPolicy: 'none' | 'sync' | 'async';
  redirectSuccess?: string;
  redirectFailure?: string;
  returnParams: boolean;
  descriptor?: string;
  options: string[];
}

export interface EmailPath {
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
}

export interface BillPaymentRequest {
  request: TokenRequest;
  addressee?: string;
  descriptor?: string;
  due?: string;
  memo?: string;
  emailPaths: EmailPath[];
  smsPaths: Array<{ to: string }>;
  attachments: Array<{ filename: string; mimeType: string; data?: Buffer }>;
}

const PRINTABLE = /^[\x20-\x7E]+$/;
const MAX_GUARDS = 5;
const MAX_CUSTOM_PARAMS = 20;
export const CUSTOM_TYPES = ['text', 'dob', 'select', 'hidden'];
const MAX_ATTACHMENTS = 3;
export const INLINE_ATTACHMENT_LIMIT = 32 * 1024;
/** What config.options may name. */
export const CONFIG_OPTIONS = [
  'BYPASS_AVS_POSTCODE', 'BYPASS_AVS_ADDRESS', 'BYPASS_CSC_REQUIRED', 'BYPASS_3DSECURE', 'BYPASS_CUSTOMER_EMAIL', 'BYPASS_CUSTOMER_SMS',
  'BYPASS_DUPLICATE_CHECK', 'BYPASS_MERCHANT_EMAIL', 'BYPASS_PREAUTH', 'ENFORCE_AVS_ADDRESS', 'ENFORCE_AVS_POSTCODE', 'ENFORCE_CSC_REQUIRED',
  'ENFORCE_PREAUTH', 'REQUIRE_CUSTOMER_EMAIL', 'CAC_OPTIN', 'CAC_AUTO_UUID', 'CREATE_CAC_ACCOUNT_ON_AUTHORISATION',
];
const OPTIONS = new Set(CONFIG_OPTIONS);

const invalid = (field: string, why: string) => payError(400, 'P045', `${field} ${why}`);

/** Unwraps `{"Model": {...}}` (the documented sample form) to the field set. */
export function unwrap(body: Record<string, unknown>, model: string): Record<string, unknown> {
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === model && isObject(body[model]) ? (body[model] as Record<string, unknown>) : body;
}

export function parseTokenRequest(raw: Record<string, unknown>, now: number): TokenRequest {
  const amount = wholeNumber(raw.amount);
  if (raw.amount === undefined || raw.amount === null || raw.amount === '') throw payError(400, 'P004', 'Amount not supplied');
  if (amount === undefined || amount < 1 || amount > 999_999_999) throw payError(400, 'P005', 'amount must be a whole number of minor units, 1 to 9 digits.');
  const identifier = raw.identifier;
  if (identifier === undefined || identifier === null || identifier === '') throw payError(400, 'P026', 'Identifier is not supplied');
  if (typeof identifier !== 'string' || !PRINTABLE.test(identifier)) throw invalid('identifier', 'must be printable ASCII text.');
  if (identifier.length < 4) throw payError(400, 'P039', 'Identifier is less than 4 characters', identifier);
  if (identifier.length > 50) throw payError(400, 'P016', 'Identifier is longer than 50 characters', identifier);
  if (raw.merchantid === undefined || raw.merchantid === null || raw.merchantid === '') throw payError(400, 'P002', 'Merchant id not supplied', identifier);
  const merchantid = wholeNumber(raw.merchantid);
  if (merchantid === undefined || merchantid < 1 || merchantid > 2_147_483_647) throw payError(400, 'P003', 'Merchant id is invalid', identifier);
  const out: TokenRequest = { amount, identifier, merchantid, cardholder: {}, config: parseConfig(raw.config, now) };
  if (raw.currency !== undefined) {
    if (typeof raw.currency !== 'string' || !/^[A-Za-z]{3}$/.test(raw.currency)) throw payError(400, 'P034', 'currency must be a 3-letter ISO 4217 code', identifier);
    out.currency = raw.currency.toUpperCase();
  }
  if (raw.accountno !== undefined) {
    if (typeof raw.accountno !== 'string' || raw.accountno.length === 0 || raw.accountno.length > 20) throw payError(400, 'P041', 'accountno must be 1 to 20 characters', identifier);
    if (!/^[A-Za-z0-9]+$/.test(raw.accountno)) throw payError(400, 'P042', 'accountno may hold only letters and digits', identifier);
    out.accountno = raw.accountno;
  }
  if (raw.email !== undefined) out.email = email(raw.email, 'email');
  if (raw.cardholder !== undefined) out.cardholder = parseCardholder(raw.cardholder);
  if (raw.cart !== undefined) out.cart = boundedObject(raw.cart, 'cart', 16_384);
  if (raw.client_version !== undefined) out.client_version = text(raw.client_version, 'client_version', 50);
  if (raw.recurring !== undefined) out.recurring = bool(raw.recurring, 'recurring');
  if (raw.subscription_id !== undefined) out.subscription_id = text(raw.subscription_id, 'subscription_id', 50);
  if (raw.tx_type !== undefined) out.tx_type = text(raw.tx_type, 'tx_type', 1);
  return out;
}

export function parseBillPaymentRequest(raw: Record<string, unknown>, now: number): BillPaymentRequest {
  if (!isObject(raw.request)) throw payError(400, 'P044', 'request (PaylinkTokenRequestModel) is required.');
  const request = parseTokenRequest(unwrap(raw.request as Record<string, unknown>, 'PaylinkTokenRequestModel'), now);
  const out: BillPaymentRequest = { request, emailPaths: [], smsPaths: [], attachments: [] };
  if (raw.addressee !== undefined) out.addressee = text(raw.addressee, 'addressee', 100);
  if (raw.descriptor !== undefined) out.descriptor = text(raw.descriptor, 'descriptor', 100);
  if (raw.memo !== undefined) out.memo = text(raw.memo, 'memo', 1000);
  if (raw.due !== undefined) {
    const due = text(raw.due, 'due', 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(due) || Number.isNaN(Date.parse(`${due}T00:00:00Z`)) || new Date(`${due}T00:00:00Z`).toISOString().slice(0, 10) !== due) {
      throw invalid('due', 'must be a date YYYY-MM-DD.');
    }
    out.due = due;
  }
  out.emailPaths = listOf(raw.email_notification_path, 'email_notification_path').map((p, i) => parseEmailPath(p, `email_notification_path[${i}]`));
  out.smsPaths = listOf(raw.sms_notification_path, 'sms_notification_path').map((p, i) => parseSmsPath(p, `sms_notification_path[${i}]`));
  if (out.emailPaths.length + out.smsPaths.length > MAX_PATHS) throw invalid('notification paths', `are limited to ${MAX_PATHS} per request.`);
  // The short link an SMS carries is guessable in a way a long token is not: it must sit behind a field guard.
  if (out.smsPaths.length > 0 && request.config.guards.length === 0) throw invalid('sms_notification_path', 'needs at least one config.field_guard to protect its short link.');
  const attachments = listOf(raw.attachments, 'attachments');
  if (attachments.length > MAX_ATTACHMENTS) throw invalid('attachments', `are limited to ${MAX_ATTACHMENTS}.`);
  out.attachments = attachments.map((a, i) => parseAttachment(a, `attachments[${i}]`));
  return out;
}

function parseConfig(raw: unknown, now: number): PaylinkConfig {
  const c = raw === undefined ? {} : (boundedObject(raw, 'config', 65_536) as Record<string, any>);
  const expiresAt = expiryFromExpireIn(c.expire_in, now);
  if (expiresAt === undefined) throw invalid('config.expire_in', 'must be seconds or a duration such as 20m, 4h, 2w, 6M or 1y.');
  const config: PaylinkConfig = {
    expiresAt,
    guards: listOf(c.field_guard, 'config.field_guard').map((g, i) => parseGuard(g, `config.field_guard[${i}]`)),
    customParams: listOf(c.custom_params, 'config.custom_params').map((p, i) => parseCustomParam(p, `config.custom_params[${i}]`)),
    passThroughHeaders: {},
    postbackPolicy: 'async',
    returnParams: false,
    options: [],
  };
  if (config.customParams.length > MAX_CUSTOM_PARAMS) throw invalid('config.custom_params', `is limited to ${MAX_CUSTOM_PARAMS} parameters.`);
  if (new Set(config.customParams.map((p) => p.name)).size !== config.customParams.length) throw invalid('config.custom_params', 'names must be unique.');
  if (config.guards.length > MAX_GUARDS) throw invalid('config.field_guard', `is limited to ${MAX_GUARDS} guards.`);
  if (new Set(config.guards.map((g) => g.name)).size !== config.guards.length) throw invalid('config.field_guard', 'names must be unique.');
  if (c.pass_through_data !== undefined) {
    if (JSON.stringify(c.pass_through_data).length > 4096) throw invalid('config.pass_through_data', 'must be at most 4 kB of JSON.');
    config.passThroughData = c.pass_through_data;
  }
  if (c.pass_through_headers !== undefined) {
    const headers = boundedObject(c.pass_through_headers, 'config.pass_through_headers', 4096);
    for (const [k, v] of Object.entries(headers)) {
      if (!/^[A-Za-z0-9-]{1,64}$/.test(k) || typeof v !== 'string' || /[\r\n]/.test(v)) throw invalid('config.pass_through_headers', 'must map header names to single-line strings.');
      config.passThroughHeaders[k] = v;
    }
  }
  if (c.postback !== undefined && c.postback !== 'none') config.postback = url(c.postback, 'config.postback', false);
  if (c.postback_policy !== undefined) {
    if (!['none', 'sync', 'async'].includes(c.postback_policy)) throw invalid('config.postback_policy', 'must be none, sync or async.');
    config.postbackPolicy = c.postback_policy;
  }
  if (c.redirect_success !== undefined) config.redirectSuccess = url(c.redirect_success, 'config.redirect_success', true);
  if (c.redirect_failure !== undefined) config.redirectFailure = url(c.redirect_failure, 'config.redirect_failure', true);
  if (c.return_params !== undefined) config.returnParams = bool(c.return_params, 'config.return_params');
  if (c.descriptor !== undefined) config.descriptor = text(c.descriptor, 'config.descriptor', 100);
  for (const [i, o] of listOf(c.options, 'config.options').entries()) {
    if (typeof o !== 'string' || !OPTIONS.has(o)) throw invalid(`config.options[${i}]`, 'is not a known option.');
    config.options.push(o);
  }
  return config;
}

function parseGuard(raw: unknown, field: string): GuardDefinition {
  if (!isObject(raw)) throw invalid(field, 'must be an object.');
  const g = raw as Record<string, unknown>;
  if (typeof g.name !== 'string' || !/^[A-Za-z0-9_.-]{1,50}$/.test(g.name)) throw invalid(`${field}.name`, 'must be 1 to 50 letters, digits, _ . or -.');
  const out: GuardDefinition = { name: g.name };
  if (g.label !== undefined) out.label = text(g.label, `${field}.label`, 100);
  if (g.field_type !== undefined) out.field_type = text(g.field_type, `${field}.field_type`, 20);
  if (g.value !== undefined && g.value !== null && g.value !== '') out.value = text(g.value, `${field}.value`, 200);
  return out;
}

function parseCustomParam(raw: unknown, field: string): CustomParam {
  if (!isObject(raw)) throw invalid(field, 'must be an object.');
  const p = raw as Record<string, unknown>;
  if (typeof p.name !== 'string' || !/^[A-Za-z0-9_.-]{1,50}$/.test(p.name)) throw invalid(`${field}.name`, 'must be 1 to 50 letters, digits, _ . or -.');
  const fieldType = p.field_type === undefined ? 'text' : p.field_type;
  if (typeof fieldType !== 'string' || !CUSTOM_TYPES.includes(fieldType)) throw invalid(`${field}.field_type`, `must be one of ${CUSTOM_TYPES.join(', ')}.`);
  const out: CustomParam = { name: p.name, field_type: fieldType as CustomParam['field_type'], locked: false, required: false, order: 0 };
  if (p.value !== undefined && p.value !== null) out.value = text(p.value, `${field}.value`, 200);
  if (fieldType === 'select') {
    // The options ride in `value` (the documented form `a|b` or `v:label|w:label`); nothing is preselected.
    out.options = out.value;
    out.value = undefined;
    if (selectChoices(out.options).length === 0) throw invalid(`${field}.value`, 'must list the options of a select, e.g. a|b.');
  }
  if (p.label !== undefined) out.label = text(p.label, `${field}.label`, 100);
  if (p.placeholder !== undefined) out.placeholder = text(p.placeholder, `${field}.placeholder`, 100);
  if (p.locked !== undefined) out.locked = bool(p.locked, `${field}.locked`);
  if (p.required !== undefined) out.required = bool(p.required, `${field}.required`);
  if (p.order !== undefined) {
    const order = wholeNumber(p.order);
    if (order === undefined || order > 1000) throw invalid(`${field}.order`, 'must be a whole number up to 1000.');
    out.order = order;
  }
  if (p.pattern !== undefined) {
    out.pattern = text(p.pattern, `${field}.pattern`, 200);
    // The payer's browser applies the pattern (JavaScript syntax) and so does the server, on RE2's linear-time
    // algorithm: it must be valid in both languages.
    if (!isJavaScriptPattern(out.pattern)) throw invalid(`${field}.pattern`, 'is not a valid regular expression.');
    const compiled = compileUntrustedPattern(out.pattern);
    if ('refused' in compiled) throw invalid(`${field}.pattern`, `uses syntax the server cannot check in linear time (no lookaround or backreferences): ${compiled.refused}.`);
  }
  return out;
}

function parseCardholder(raw: unknown): Record<string, any> {
  const c = boundedObject(raw, 'cardholder', 8192) as Record<string, any>;
  for (const key of ['firstname', 'lastname', 'title', 'company', 'mobile_no', 'accept_headers', 'remote_addr', 'user_agent']) {
    if (c[key] !== undefined) text(c[key], `cardholder.${key}`, key === 'mobile_no' ? 20 : 255);
  }
  if (c.email !== undefined) email(c.email, 'cardholder.email');
  if (c.address !== undefined) {
    const a = boundedObject(c.address, 'cardholder.address', 2048) as Record<string, unknown>;
    for (const [k, v] of Object.entries(a)) text(v, `cardholder.address.${k}`, k === 'postcode' ? 16 : k === 'country' ? 2 : 50);
  }
  return c;
}

function parseEmailPath(raw: unknown, field: string): EmailPath {
  if (!isObject(raw)) throw invalid(field, 'must be an object.');
  const p = raw as Record<string, unknown>;
  const list = (name: string, value: unknown, required: boolean): string[] => {
    const items = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    if (!Array.isArray(items)) throw invalid(`${field}.${name}`, 'must be a list of e-mail addresses.');
    if (required && items.length === 0) throw payError(400, 'P027', `${field}.${name} needs at least one e-mail address.`);
    if (items.length > MAX_ADDRESSES) throw invalid(`${field}.${name}`, `may list at most ${MAX_ADDRESSES} addresses.`);
    return items.map((a) => email(a, `${field}.${name}`));
  };
  return { to: list('to', p.to, true), cc: list('cc', p.cc, false), bcc: list('bcc', p.bcc, false), reply_to: list('reply_to', p.reply_to ?? p.reply, false) };
}

function parseSmsPath(raw: unknown, field: string): { to: string } {
  if (!isObject(raw)) throw invalid(field, 'must be an object.');
  const to = (raw as Record<string, unknown>).to;
  if (typeof to !== 'string' || !isE164(to)) throw invalid(`${field}.to`, 'must be a phone number in E.164 form, e.g. +447700900123.');
  return { to };
}

function parseAttachment(raw: unknown, field: string): { filename: string; mimeType: string; data?: Buffer } {
  if (!isObject(raw)) throw invalid(field, 'must be an object.');
  const a = raw as Record<string, unknown>;
  const filename = a.filename;
  if (typeof filename !== 'string' || filename.length === 0 || filename.length > 255 || /[/\\\x00-\x1F]/.test(filename) || filename === '.' || filename === '..') {
    throw invalid(`${field}.filename`, 'must be a file name without a path.');
  }
  const mimeType = a.mime_type ?? a['mime-type'];
  if (mimeType !== 'application/pdf') throw invalid(`${field}.mime_type`, 'must be application/pdf.');
  if (a.data === undefined || a.data === null || a.data === '') return { filename, mimeType };
  if (typeof a.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(a.data.replace(/\s/g, ''))) throw invalid(`${field}.data`, 'must be base64.');
  const data = Buffer.from(a.data, 'base64');
  if (data.length > INLINE_ATTACHMENT_LIMIT) throw invalid(`${field}.data`, 'is over 32 kB: leave data out and upload the file to the address returned.');
  if (!isPdf(data)) throw invalid(`${field}.data`, 'is not a PDF document.');
  return { filename, mimeType, data };
}

export const isPdf = (data: Buffer): boolean => data.subarray(0, 5).toString('latin1') === '%PDF-';

function listOf(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isObject(value)) return [value];
  throw invalid(field, 'must be an object or a list of objects.');
}

function wholeNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\d{1,12}$/.test(v)) return Number(v);
  return undefined;
}

function text(v: unknown, field: string, max: number): string {
  if (typeof v !== 'string' && typeof v !== 'number') throw invalid(field, 'must be text.');
  const s = String(v);
  if (s.length > max) throw invalid(field, `must be at most ${max} characters.`);
  return s;
}

function email(v: unknown, field: string): string {
  if (typeof v !== 'string' || !isEmailAddress(v)) throw invalid(field, 'must be an e-mail address.');
  return v;
}

function bool(v: unknown, field: string): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw invalid(field, 'must be true or false.');
}

function url(v: unknown, field: string, allowGetPrefix: boolean): string {
  const s = typeof v === 'string' ? v : '';
  const target = allowGetPrefix && s.startsWith('GET:') ? s.slice(4) : s;
  try {
    const u = new URL(target);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && s.length <= 2048) return s;
  } catch {
    // reported below
  }
  throw invalid(field, 'must be an absolute http or https URL.');
}

function boundedObject(v: unknown, field: string, maxJson: number): Record<string, unknown> {
  if (!isObject(v)) throw invalid(field, 'must be an object.');
  if (JSON.stringify(v).length > maxJson) throw invalid(field, `is larger than ${maxJson} bytes.`);
  return v as Record<string, unknown>;
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isJavaScriptPattern(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
