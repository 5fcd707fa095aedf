// The operator's configuration: clients, licence keys and merchant accounts, from `services.payments` in the config
// file and from the admin API. One schema validates both.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CacheBudgetSchema } from '../../core/cache.ts';
import { isTimeZone } from '../../core/time.ts';
import type { Client, Merchant, PolicyValue } from './contract.ts';
import { acceptedSourcesProblem, MAX_ACCEPTED_SOURCES } from './domain/accepted-sources.ts';

const Policy = Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2'), Type.Literal('3')]);

export const ClientConfig = Type.Object(
  {
    clientid: Type.String({ pattern: '^[A-Za-z0-9_.-]{2,50}$' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    licence_key: Type.Optional(Type.String({ minLength: 8, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' })),
    /** IPv4/IPv6 addresses and CIDR ranges its API-key requests may come from; empty accepts every source. */
    accepted_sources: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_ACCEPTED_SOURCES })),
  },
  { additionalProperties: false },
);

export const MerchantConfig = Type.Object(
  {
    merchantid: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    clientid: Type.String({ pattern: '^[A-Za-z0-9_.-]{2,50}$' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    duplicate_window_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600 })),
    avs_postcode_policy: Type.Optional(Policy),
    csc_policy: Type.Optional(Policy),
    duplicate_policy: Type.Optional(Policy),
    match_avsa: Type.Optional(Policy),
    three_d_secure: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.Union([Type.Literal('A'), Type.Literal('S')])),
  },
  { additionalProperties: false },
);

export const PaymentsSettings = Type.Object(
  {
    key_ttl_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
    dev_client: Type.Optional(Type.Boolean()),
    dev_licence_key: Type.Optional(Type.String({ minLength: 8, maxLength: 255 })),
    clients: Type.Optional(Type.Array(ClientConfig, { maxItems: 1000 })),
    merchants: Type.Optional(Type.Array(MerchantConfig, { maxItems: 10000 })),
    /** Entries and bytes of clients and licence keys kept in memory (default 10,000 and 4 MiB). */
    client_cache_budget: Type.Optional(CacheBudgetSchema),
    /** Entries and bytes of merchants kept parsed in memory on SQLite (default 10,000 and 8 MiB). */
    merchant_cache_budget: Type.Optional(CacheBudgetSchema),
    /** Entries and bytes of accepted API-key nonces remembered in memory (default 50,000 and 8 MiB). */
    nonce_cache_budget: Type.Optional(CacheBudgetSchema),
  },
  { additionalProperties: false },
);

export type PaymentsSettings = Static<typeof PaymentsSettings>;
export type MerchantConfig = Static<typeof MerchantConfig>;
export type ClientConfig = Static<typeof ClientConfig>;

/** Sandbox key lifetime: 20 minutes. */
export const DEFAULT_KEY_TTL_MINUTES = 20;
export const DEV_CLIENT_ID = 'DEV001';
export const DEV_MERCHANT_ID = 10001;

/** The first problem with a value against a schema, as one line; undefined when valid. */
export function problemWith(schema: Parameters<typeof Value.Check>[0], value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  const first = [...Value.Errors(schema, value)][0];
  return first ? `${first.path || '/'}: ${first.message}` : 'invalid';
}

export function parseSettings(raw: Record<string, unknown>): PaymentsSettings {
  const problem = problemWith(PaymentsSettings, raw);
  if (problem) throw new Error(`services.payments settings: ${problem}`);
  // A configured client's key must be known to whoever configured it: a random one would never be shown.
  for (const c of (raw as PaymentsSettings).clients ?? []) {
    if (c.licence_key === undefined) throw new Error(`services.payments settings: client ${c.clientid} needs a licence_key`);
    const sources = acceptedSourcesProblem(c.accepted_sources ?? []);
    if (sources) throw new Error(`services.payments settings: client ${c.clientid}: ${sources}`);
  }
  for (const m of (raw as PaymentsSettings).merchants ?? []) {
    if (m.time_zone && !isTimeZone(m.time_zone)) throw new Error(`services.payments settings: merchant ${m.merchantid}: unknown time zone ${m.time_zone}`);
  }
  return raw as PaymentsSettings;
}

/** A merchant from its configuration, with the defaults of a new sandbox account filled in. */
export function merchantFromConfig(c: MerchantConfig, previous?: Merchant): Merchant {
  const policy = (v: PolicyValue | undefined, was: PolicyValue | undefined, fallback: PolicyValue) => v ?? was ?? fallback;
  return {
    merchantid: c.merchantid,
    clientid: c.clientid,
    name: c.name ?? previous?.name ?? `Merchant ${c.merchantid}`,
    currency: c.currency ?? previous?.currency ?? 'GBP',
    timeZone: c.time_zone ?? previous?.timeZone ?? 'UTC',
    duplicateWindowSeconds: c.duplicate_window_seconds ?? previous?.duplicateWindowSeconds ?? 300,
    policies: {
      avs_postcode: policy(c.avs_postcode_policy, previous?.policies.avs_postcode, '2'),
      csc: policy(c.csc_policy, previous?.policies.csc, '2'),
      duplicate: policy(c.duplicate_policy, previous?.policies.duplicate, '1'),
      match_avsa: policy(c.match_avsa, previous?.policies.match_avsa, '2'),
    },
    threeDSecure: c.three_d_secure ?? previous?.threeDSecure ?? true,
    status: c.status ?? previous?.status ?? 'A',
  };
}

/** The first problem with a client's configuration (schema, then each accepted source); undefined when valid. */
export function clientConfigProblem(value: unknown): string | undefined {
  return problemWith(ClientConfig, value) ?? acceptedSourcesProblem((value as ClientConfig).accepted_sources ?? []);
}

/** The admin view of a client (never its licence key). */
export function clientConfigView(c: Client): ClientConfig {
  return { clientid: c.clientid, name: c.name, accepted_sources: [...c.acceptedSources] };
}

/** The admin/API view of a merchant's configuration. */
export function merchantConfigView(m: Merchant): MerchantConfig {
  return {
    merchantid: m.merchantid,
    clientid: m.clientid,
    name: m.name,
    currency: m.currency,
    time_zone: m.timeZone,
    duplicate_window_seconds: m.duplicateWindowSeconds,
    avs_postcode_policy: m.policies.avs_postcode,
    csc_policy: m.policies.csc,
    duplicate_policy: m.policies.duplicate,
    match_avsa: m.policies.match_avsa,
    three_d_secure: m.threeDSecure,
    status: m.status,
  };
}
