// Every service's OpenAPI 3 document, generated from the routes it registers and their schemas (recorded by
// @fastify/swagger's onRoute hook) and served at GET /openapi.json on the service's own port, without credentials.
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import pkg from '../../../package.json' with { type: 'json' };

export const OPENAPI_PATH = '/openapi.json';

/** The path parameter a wildcard route's `*` is documented as (OpenAPI has no wildcard segment). */
export const WILDCARD_PARAMETER = 'path';

export interface DocumentInfo {
  title: string;
  description?: string;
}

/**
 * Starts recording routes and serves the document. Must run before the service registers its routes, since routes are
 * recorded as they are added; the document is generated on first request, when every route is known.
 */
export async function serveOpenApi(app: FastifyInstance, info: DocumentInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: info.title, version: pkg.version, ...(info.description ? { description: info.description } : {}) },
    },
    transform: documentWildcard,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (req) => openApiDocument(app, originOf(req)));
}

/** The document with the address the caller reached the service at as its server. */
export function openApiDocument(app: FastifyInstance, origin: string): OpenAPIV3.Document {
  return { ...(app.swagger() as OpenAPIV3.Document), servers: [{ url: origin }] };
}

/** scheme://host[:port] of the listener as the caller addressed it. */
export function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * A wildcard route (a service that dispatches a whole subtree itself, such as the Vault-style store or the bidding
 * API) is documented as one path with a `{path}` parameter holding the rest of the URL, for every verb it accepts.
 */
function documentWildcard({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const star = url.indexOf('*');
  if (star < 0) return { schema, url };
  const prefix = url.slice(0, star);
  return {
    url: `${prefix}:${WILDCARD_PARAMETER}`,
    schema: {
      ...schema,
      description: `Every path under ${prefix}: the service routes these itself, so they are not listed one by one.`,
      params: {
        type: 'object',
        properties: { [WILDCARD_PARAMETER]: { type: 'string', description: `The rest of the path after ${prefix} (may contain slashes).` } },
        required: [WILDCARD_PARAMETER],
      },
    },
  };
}
