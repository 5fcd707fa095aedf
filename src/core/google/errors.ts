// The Google API error body: {"error": {"code", "message", "status", "errors": [{domain, reason, message, location, locationType}]}}.
import { ApiError } from '../errors.ts';

const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'ALREADY_EXISTS',
  411: 'INVALID_ARGUMENT',
  412: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  416: 'OUT_OF_RANGE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
};

// HTTP statuses no google.rpc code stands for: Google's bodies for them (Calendar's 410 `deleted` and
// `fullSyncRequired`) carry no `status`.
const WITHOUT_RPC_STATUS = new Set([410]);

const DEFAULT_REASON: Record<number, string> = {
  400: 'badRequest',
  401: 'authError',
  403: 'forbidden',
  404: 'notFound',
  405: 'httpMethodNotAllowed',
  409: 'conflict',
  412: 'conditionNotMet',
  413: 'uploadTooLarge',
  415: 'badContent',
  500: 'backendError',
  501: 'notImplemented',
};

export interface GoogleErrorDetail {
  reason?: string;
  /** google.rpc code name; derived from the HTTP status when absent. */
  rpcStatus?: string;
  domain?: string;
  location?: string;
  locationType?: 'parameter' | 'header' | 'body';
  /** Omit `errors[]`, as the newer APIs do for some answers (Error Reporting's stack-trace rule). */
  bare?: boolean;
}

export class GoogleError extends ApiError {
  constructor(status: number, message: string, detail: GoogleErrorDetail = {}) {
    super(status, message, detail as Record<string, unknown>);
    this.name = 'GoogleError';
  }
}

export const invalidArgument = (message: string, location?: string, reason = 'invalid') =>
  new GoogleError(400, message, { reason, location, locationType: location ? 'parameter' : undefined });
export const required = (message: string, location?: string) => invalidArgument(message, location, 'required');
export const notFound = (message = 'Requested entity was not found.') => new GoogleError(404, message, { reason: 'notFound' });
export const alreadyExists = (message: string) => new GoogleError(409, message, { reason: 'duplicate', rpcStatus: 'ALREADY_EXISTS' });
export const permissionDenied = (message = 'The caller does not have permission') =>
  new GoogleError(403, message, { reason: 'forbidden' });
export const failedPrecondition = (message: string) => new GoogleError(400, message, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
export const notImplemented = (message: string) => new GoogleError(501, message, { reason: 'notImplemented' });

export interface GoogleErrorBody {
  error: {
    code: number;
    message: string;
    status?: string;
    errors?: Array<{ domain: string; reason: string; message: string; location?: string; locationType?: string }>;
  };
}

export function googleErrorBody(status: number, message: string, detail: GoogleErrorDetail = {}, defaultDomain = 'global'): GoogleErrorBody {
  const rpcStatus = detail.rpcStatus ?? (WITHOUT_RPC_STATUS.has(status) ? undefined : (RPC_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN')));
  const body: GoogleErrorBody = { error: { code: status, message, ...(rpcStatus ? { status: rpcStatus } : {}) } };
  if (!detail.bare) {
    const entry: NonNullable<GoogleErrorBody['error']['errors']>[number] = {
      domain: detail.domain ?? defaultDomain,
      reason: detail.reason ?? DEFAULT_REASON[status] ?? 'unknown',
      message,
    };
    if (detail.location) entry.location = detail.location;
    if (detail.locationType) entry.locationType = detail.locationType;
    body.error.errors = [entry];
  }
  return body;
}
