// Operations that take no body are often called with an empty one and a Content-Type anyway (clients set one on
// every request). Fastify parses by Content-Type before the route runs, so an empty body of a type the route has no
// parser for would be refused (415). Such a request carries nothing to parse: it is treated as having no body.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Scopes that parse every content type into a Buffer (uploads, the secrets store's raw bodies). */
const everyTypeScopes = new WeakSet<FastifyInstance>();

/**
 * Makes `scope` read the body of any content type as a Buffer (up to `bodyLimit`), and records it: there an empty body
 * keeps its declared type (an empty file has one).
 */
export function parseEveryType(scope: FastifyInstance, bodyLimit: number): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));
  everyTypeScopes.add(scope);
}

/** True when the request announces no body bytes at all. */
function bodyIsEmpty(req: FastifyRequest): boolean {
  return req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0').trim() === '0';
}

/**
 * For an onRequest hook: drops the Content-Type of an empty body unless the route's scope parses that type (or every
 * type, as upload routes do, which read the type of an empty file from it).
 */
export function dropTypeOfEmptyBody(req: FastifyRequest): void {
  const type = req.headers['content-type'];
  if (type === undefined || !bodyIsEmpty(req)) return;
  const essence = type.split(';')[0]!.trim().toLowerCase();
  if (everyTypeScopes.has(req.server) || req.server.hasContentTypeParser(essence)) return;
  delete req.headers['content-type'];
}
