// What the secrets store's catch-all route serves (every path under /v1/), one seed per operation, with the body
// and query each one reads. The store has no declarative field table to import (its handlers read fields through
// the decoders of src/services/secrets/http/fields.ts and auth/fields.ts), so these schemas are written from
// reading those handlers: the field names they read and the forms the decoders accept (durations as seconds or
// "10m", lists as arrays or comma-separated text, booleans as true/"true"/1). Paths that end the instance's
// usefulness for the rest of the run (sealing, revoking the root token) are left out.
import type { JsonSchema, WildcardSeed } from './seed.ts';

const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const bool: JsonSchema = { type: 'boolean' };
const int = (minimum: number, maximum: number): JsonSchema => ({ type: 'integer', minimum, maximum });
const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required });
/** A map of strings (secret data, metadata). */
const stringMap: JsonSchema = { type: 'object', patternProperties: { '^[a-z_]{1,12}$': str({ maxLength: 40 }) } };
/** Seconds, or a number with a unit. */
const duration: JsonSchema = { anyOf: [int(0, 864_000), str({ pattern: '^\\d{1,5}[smh]?$' })] };
const policies: JsonSchema = { anyOf: [{ type: 'array', items: oneOf('default', 'fz', 'reader'), maxItems: 3 }, oneOf('default', 'default,fz', 'fz')] };
const cidrs: JsonSchema = { type: 'array', items: oneOf('127.0.0.1/32', '10.0.0.0/8', '192.168.0.0/16', '::1/128'), maxItems: 2 };
const hcl = oneOf(
  'path "secret/*" { capabilities = ["read", "list"] }',
  'path "secret/data/fz" { capabilities = ["create", "update"] }\npath "sys/*" { capabilities = ["deny"] }',
  'path "auth/token/lookup-self" { capabilities = ["read"] }',
);
const leaseConfig = object({ default_lease_ttl: duration, max_lease_ttl: duration });
const tokenSettings: Record<string, JsonSchema> = {
  token_policies: policies,
  token_ttl: duration,
  token_max_ttl: duration,
  token_explicit_max_ttl: duration,
  token_period: duration,
  token_num_uses: int(0, 10),
  token_no_default_policy: bool,
  token_bound_cidrs: cidrs,
  token_type: oneOf('default', 'service', 'batch'),
};
const listQuery = object({ list: oneOf('true', 'false') });
const versions = object({ versions: { type: 'array', items: int(1, 5), minItems: 1, maxItems: 3 } }, ['versions']);
const kvSettings = { max_versions: int(0, 20), cas_required: bool, delete_version_after: duration };

const READ_WRITE_DELETE = ['GET', 'POST', 'PUT', 'DELETE'];

export const SECRETS_SEEDS: WildcardSeed[] = [
  {
    path: 'v1/sys/mounts/fz',
    methods: READ_WRITE_DELETE,
    schema: { body: object({ type: oneOf('kv'), description: str({ maxLength: 40 }), config: leaseConfig, options: object({ version: oneOf('1', '2') }), local: bool, seal_wrap: bool }, ['type']) },
  },
  {
    path: 'v1/sys/mounts/fz/tune',
    methods: ['GET', 'POST'],
    schema: { body: object({ default_lease_ttl: duration, max_lease_ttl: duration, description: str({ maxLength: 40 }), listing_visibility: oneOf('unauth', 'hidden', ''), options: object({ version: oneOf('1', '2') }) }) },
  },
  // userpass and approle are not mounted on a fresh store: these mount them where their own seeds below reach them.
  { path: 'v1/sys/auth/userpass', methods: ['POST'], schema: { body: object({ type: { const: 'userpass' }, description: str({ maxLength: 40 }) }, ['type']) } },
  { path: 'v1/sys/auth/approle', methods: ['POST'], schema: { body: object({ type: { const: 'approle' }, description: str({ maxLength: 40 }) }, ['type']) } },
  { path: 'v1/sys/auth/fz', methods: READ_WRITE_DELETE, schema: { body: object({ type: oneOf('userpass', 'approle'), description: str({ maxLength: 40 }), config: leaseConfig, local: bool }, ['type']) } },
  { path: 'v1/sys/policies/acl/fz', methods: READ_WRITE_DELETE, schema: { body: object({ policy: hcl }, ['policy']) } },
  { path: 'v1/sys/policy/fz', methods: READ_WRITE_DELETE, schema: { body: object({ policy: hcl, rules: hcl }) } },
  { path: 'v1/sys/capabilities-self', methods: ['POST'], schema: { body: object({ paths: { type: 'array', items: oneOf('secret/data/fz', 'sys/mounts', 'cubbyhole/fz'), maxItems: 3 }, path: oneOf('secret/data/fz', 'auth/token/create') }) } },
  { path: 'v1/sys/wrapping/wrap', methods: ['POST'], schema: { body: stringMap } },
  { path: 'v1/sys/wrapping/unwrap', methods: ['POST'], schema: { body: object({ token: str({ maxLength: 40 }) }) } },
  { path: 'v1/sys/tools/random/32', methods: ['GET', 'POST'], schema: { body: object({ bytes: int(1, 1024), format: oneOf('hex', 'base64') }) } },
  { path: 'v1/sys/tools/hash', methods: ['POST'], schema: { body: object({ input: str({ pattern: '^[A-Za-z0-9+/]{0,40}={0,2}$' }), algorithm: oneOf('sha2-224', 'sha2-256', 'sha2-384', 'sha2-512'), format: oneOf('hex', 'base64') }, ['input']) } },
  { path: 'v1/sys/leases/lookup', methods: ['POST', 'PUT'], schema: { body: object({ lease_id: str({ maxLength: 60 }) }, ['lease_id']) } },
  { path: 'v1/sys/internal/ui/mounts/secret', methods: ['GET'] },
  { path: 'v1/sys/namespaces/fz', methods: READ_WRITE_DELETE, schema: { body: object({ custom_metadata: stringMap }) } },
  { path: 'v1/secret/data/fz', methods: READ_WRITE_DELETE, schema: { body: object({ data: stringMap, options: object({ cas: int(0, 5) }) }, ['data']), querystring: object({ version: int(0, 5) }) } },
  { path: 'v1/secret/metadata/fz', methods: READ_WRITE_DELETE, schema: { body: object({ ...kvSettings, custom_metadata: stringMap }), querystring: listQuery } },
  { path: 'v1/secret/delete/fz', methods: ['POST', 'PUT'], schema: { body: versions } },
  { path: 'v1/secret/destroy/fz', methods: ['POST', 'PUT'], schema: { body: versions } },
  { path: 'v1/secret/config', methods: ['GET', 'POST'], schema: { body: object(kvSettings) } },
  { path: 'v1/cubbyhole/fz', methods: READ_WRITE_DELETE, schema: { body: stringMap, querystring: listQuery } },
  {
    path: 'v1/auth/token/create',
    methods: ['POST'],
    schema: {
      body: object({
        policies,
        ttl: duration,
        explicit_max_ttl: duration,
        period: duration,
        num_uses: int(0, 10),
        no_parent: bool,
        no_default_policy: bool,
        renewable: bool,
        display_name: str({ maxLength: 30 }),
        meta: stringMap,
        type: oneOf('service', 'batch'),
      }),
    },
  },
  { path: 'v1/auth/token/lookup', methods: ['POST'], schema: { body: object({ token: str({ maxLength: 40 }) }) } },
  { path: 'v1/auth/token/renew', methods: ['POST'], schema: { body: object({ token: str({ maxLength: 40 }), increment: duration }) } },
  {
    path: 'v1/auth/token/roles/fz',
    methods: READ_WRITE_DELETE,
    schema: {
      body: object({
        allowed_policies: policies,
        disallowed_policies: policies,
        orphan: bool,
        renewable: bool,
        path_suffix: str({ pattern: '^[a-z0-9-]{0,12}$' }),
        ...tokenSettings,
      }),
    },
  },
  { path: 'v1/auth/userpass/users/fz', methods: READ_WRITE_DELETE, schema: { body: object({ password: str({ minLength: 1, maxLength: 30 }), ...tokenSettings }) } },
  { path: 'v1/auth/userpass/login/fz', methods: ['POST'], schema: { body: object({ password: str({ maxLength: 30 }) }, ['password']) } },
  {
    path: 'v1/auth/approle/role/fz',
    methods: READ_WRITE_DELETE,
    schema: { body: object({ bind_secret_id: bool, secret_id_ttl: duration, secret_id_num_uses: int(0, 10), secret_id_bound_cidrs: cidrs, local_secret_ids: bool, ...tokenSettings }) },
  },
  { path: 'v1/auth/approle/login', methods: ['POST'], schema: { body: object({ role_id: str({ maxLength: 40 }), secret_id: str({ maxLength: 40 }) }, ['role_id']) } },
];
