// Renders logical responses and errors the way Vault does: the envelope with nulls where Vault has nulls, 204 with
// no body when there is nothing to say, bare objects for the raw sys endpoints, `{"errors":[...]}` for >= 400.
import type { LogicalResponse, SecretsError } from '../contract.ts';

export interface Rendered {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function envelope(requestId: string, res: LogicalResponse, mountType: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    request_id: requestId,
    lease_id: res.leaseId ?? '',
    renewable: res.renewable ?? false,
    lease_duration: res.leaseDuration ?? 0,
    data: res.data ?? null,
    wrap_info: res.wrapInfo ?? null,
    warnings: res.warnings?.length ? res.warnings : null,
    auth: res.auth ?? null,
    mount_type: mountType,
  };
  if (res.topLevelData && res.data) {
    // Copied names are a request's (sys/capabilities paths): defined as own keys, so `__proto__` lands as a key.
    for (const [k, v] of Object.entries(res.data)) {
      if (!Object.hasOwn(body, k)) Object.defineProperty(body, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  return body;
}

export function render(requestId: string, res: LogicalResponse | null, mountType: string): Rendered {
  if (res?.raw) return { status: res.raw.status, body: res.raw.body, headers: res.raw.headers };
  const empty = !res || (res.data == null && res.auth == null && res.wrapInfo == null && !res.warnings?.length);
  if (empty) return { status: res?.status ?? 204, body: undefined };
  return { status: res.status ?? 200, body: envelope(requestId, res, mountType) };
}

export function renderError(requestId: string, err: SecretsError, mountType: string): Rendered {
  if (err.response) return { status: err.status, body: { ...envelope(requestId, err.response, mountType), errors: err.errors } };
  return { status: err.status, body: { errors: err.errors } };
}
