// Sends the browser back to the merchant after a direct post: 303 (See Other), so the browser follows with a GET
// and never re-posts the card data, carrying the result as query parameters.
import type { FastifyReply } from 'fastify';

/** `target` with every scalar field of `result` added as a query parameter (replacing any of the same name). */
export function resultUrl(target: string, result: Record<string, unknown>): string {
  const url = new URL(target);
  for (const [name, value] of Object.entries(result)) {
    if (value === undefined || value === null || typeof value === 'object') continue;
    url.searchParams.set(name, String(value));
  }
  return url.toString();
}

export function redirectWithResult(reply: FastifyReply, target: string, result: Record<string, unknown>): FastifyReply {
  return reply.code(303).header('location', resultUrl(target, result)).header('cache-control', 'no-store').send();
}

/** An absolute http(s) URL a result may be sent to, or undefined. */
export function redirectTarget(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 2048) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
