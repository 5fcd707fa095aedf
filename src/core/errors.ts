// One small error type for every service. Domain code throws it; each API family's listener renders its own envelope.
export class ApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Family-specific detail (Google: reason, rpcStatus, domain, location, locationType; others as they need). */
  readonly details: Record<string, unknown>;

  constructor(status: number, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/**
 * PostgreSQL refuses text it cannot store: the NUL character, byte sequences invalid in UTF-8 (SQLSTATE 22021,
 * 22P05). Such text can only have come from a request, so it is the caller's error, not the server's; the unit of
 * work it was part of has rolled back.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);
export const isUnstorableText = (err: unknown): boolean => UNSTORABLE_TEXT_CODES.has(String((err as { code?: unknown })?.code));

/** Fastify's own errors carry `statusCode` and `code`; this maps them to a status for any family's envelope. */
export function frameworkStatus(err: unknown): number | undefined {
  const e = err as { statusCode?: number; validation?: unknown };
  if (e?.validation) return 400;
  if (isUnstorableText(err)) return 400;
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return e.statusCode;
  return undefined;
}
