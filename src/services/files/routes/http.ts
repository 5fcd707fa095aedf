// Route registration under both prefixes (the spec's /storage/v2 and /drive/v2, which the googleapis client
// hard-codes), and the reading of query parameters in Drive's way (400 `invalid` naming the parameter).
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteShorthandOptions } from 'fastify';
import { offsetPageOf } from '../../../core/google/index.ts';
import { invalidValue, requiredValue } from '../errors.ts';

export const API_PREFIXES = ['/storage/v2', '/drive/v2'];
export const UPLOAD_PREFIXES = ['/upload/storage/v2', '/upload/drive/v2', '/resumable/upload/storage/v2', '/resumable/upload/drive/v2'];

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** `documentation`: the documented() schema of the method (schemas/), the same under every prefix. */
export function route(app: FastifyInstance, method: HTTPMethods, path: string, documentation: RouteShorthandOptions, handler: Handler, prefixes = API_PREFIXES): void {
  for (const prefix of prefixes) app.route({ ...documentation, method, url: prefix + path, handler });
}

export const params = (req: FastifyRequest) => req.params as Record<string, string>;

/** Query parameters of a request, each as its first string value. */
export class Query {
  readonly #raw: Record<string, unknown>;

  /** A request, or the query recorded with a resumable session. */
  constructor(req: { query: unknown }) {
    this.#raw = (req.query ?? {}) as Record<string, unknown>;
  }

  string(name: string): string | undefined {
    const v = this.#raw[name];
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === 'string' ? first : undefined;
  }

  required(name: string): string {
    const v = this.string(name);
    if (v === undefined || v === '') throw requiredValue(name, `Required parameter: ${name}`);
    return v;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.string(name);
    if (v === undefined || v === '') return fallback;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw invalidValue(name, `Invalid boolean value for ${name}: ${v}`);
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.string(name);
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || n < min || n > max) throw invalidValue(name, `Invalid value for ${name}: ${v} (expected an integer from ${min} to ${max}).`);
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.string(name);
    if (v === undefined || v === '') return fallback;
    if (!(allowed as readonly string[]).includes(v)) throw invalidValue(name, `Invalid value for ${name}: ${v}`);
    return v as T;
  }

  /** A comma-separated list (addParents, removeParents). */
  list(name: string): string[] {
    const v = this.string(name);
    return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [];
  }

  /** supportsAllDrives, or its deprecated name supportsTeamDrives. */
  get allDrives(): boolean {
    return this.bool('supportsAllDrives', false) || this.bool('supportsTeamDrives', false);
  }
}

export const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** An object body or nothing; anything else is refused. */
export function objectBody(req: FastifyRequest, location = 'resource'): Record<string, unknown> {
  const b = req.body;
  if (b === undefined || b === null || b === '') return {};
  if (typeof b !== 'object' || Array.isArray(b) || Buffer.isBuffer(b)) throw invalidValue(location, 'The request body must be a JSON object.');
  return b as Record<string, unknown>;
}

/** `base` with the request's query and `pageToken` set: Drive's nextLink repeats every parameter of the request it follows. */
export function nextLink(base: string, req: FastifyRequest, token: string): string {
  const query = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
  query.set('pageToken', token);
  return `${base}?${query}`;
}

/** One page of a list held in memory, with an offset token bound to `key` (what was listed, for whom). */
export async function offsetPage<T>(q: Query, key: string, all: T[], limit: number, render: (item: T) => Promise<unknown> | unknown): Promise<{ items: unknown[]; nextPageToken?: string }> {
  // An empty pageToken asks for the first page.
  const page = offsetPageOf(all, q.string('pageToken') || undefined, limit, key);
  return { ...page, items: await Promise.all(page.items.map(render)) };
}
