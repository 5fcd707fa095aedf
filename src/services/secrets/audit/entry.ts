// Audit entries: one JSON object per request and per response, in the shape Vault's file device writes, with every
// sensitive string replaced by `hmac-sha256:<hex>` under the device's own salt.
import { createHmac } from 'node:crypto';
import { ExactNumber } from '../exact-numbers.ts';
import type { LogicalRequest, LogicalResponse, SecretsError } from '../contract.ts';

export interface HashOptions {
  salt: Buffer;
  /** Write values in clear (log_raw). */
  raw: boolean;
  hmacAccessor: boolean;
  nonHmacRequestKeys: string[];
  nonHmacResponseKeys: string[];
}

export const hashValue = (salt: Buffer, value: string): string => `hmac-sha256:${createHmac('sha256', salt).update(value).digest('hex')}`;

/** Every string inside `value` hashed, except under the keys left in clear. */
export function hashStrings(value: unknown, salt: Buffer, keep: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') return hashValue(salt, value);
  if (Array.isArray(value)) return value.map((v) => hashStrings(v, salt, keep));
  // Numbers are logged as they are, as Vault's audit does.
  if (value && typeof value === 'object' && !(value instanceof ExactNumber)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = keep.has(k) ? v : hashStrings(v, salt, keep);
    return out;
  }
  return value;
}

function authPart(req: LogicalRequest, o: HashOptions): Record<string, unknown> | undefined {
  const token = req.auth?.token;
  if (!token) return undefined;
  return {
    client_token: o.raw ? token.id : hashValue(o.salt, token.id),
    accessor: o.raw || !o.hmacAccessor ? token.accessor : hashValue(o.salt, token.accessor),
    display_name: token.displayName,
    policies: token.policies,
    token_policies: token.policies,
    entity_id: token.entityId,
    token_type: 'service',
  };
}

function requestPart(req: LogicalRequest, o: HashOptions): Record<string, unknown> {
  const keep = new Set(o.nonHmacRequestKeys);
  const out: Record<string, unknown> = {
    id: req.id,
    operation: req.operation,
    mount_point: req.mountPath,
    mount_type: req.mount?.type ?? (req.mountPath === 'sys/' ? 'system' : ''),
    mount_accessor: req.mount?.accessor ?? '',
    namespace: { id: req.namespace.id, path: req.namespace.path },
    path: req.path,
    remote_address: req.connection.remoteAddress,
  };
  if (req.clientToken) out.client_token = o.raw ? req.clientToken : hashValue(o.salt, req.clientToken);
  if (req.auth?.token.accessor) out.client_token_accessor = o.raw || !o.hmacAccessor ? req.auth.token.accessor : hashValue(o.salt, req.auth.token.accessor);
  if (Object.keys(req.data).length > 0) out.data = o.raw ? req.data : hashStrings(req.data, o.salt, keep);
  return out;
}

export function requestEntry(req: LogicalRequest, o: HashOptions, time: string): Record<string, unknown> {
  const entry: Record<string, unknown> = { time, type: 'request' };
  const auth = authPart(req, o);
  if (auth) entry.auth = auth;
  entry.request = requestPart(req, o);
  return entry;
}

export function responseEntry(req: LogicalRequest, res: LogicalResponse | null, err: SecretsError | undefined, o: HashOptions, time: string): Record<string, unknown> {
  const entry = requestEntry(req, o, time);
  entry.type = 'response';
  const keep = new Set(o.nonHmacResponseKeys);
  const response: Record<string, unknown> = { mount_type: (entry.request as Record<string, unknown>).mount_type };
  if (res?.data) response.data = o.raw ? res.data : hashStrings(res.data, o.salt, keep);
  if (res?.auth) {
    response.auth = {
      ...res.auth,
      client_token: o.raw ? res.auth.client_token : hashValue(o.salt, res.auth.client_token),
      accessor: o.raw || !o.hmacAccessor ? res.auth.accessor : hashValue(o.salt, res.auth.accessor),
      metadata: res.auth.metadata,
    };
  }
  if (res?.warnings?.length) response.warnings = res.warnings;
  if (res?.wrapInfo) response.wrap_info = { ...res.wrapInfo, token: o.raw ? res.wrapInfo.token : hashValue(o.salt, res.wrapInfo.token) };
  entry.response = response;
  if (err) entry.error = err.errors.join('; ') || `status ${err.status}`;
  return entry;
}
