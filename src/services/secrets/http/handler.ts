// The secrets listener's Fastify wiring: raw bodies with the size limit, one route for every method and path,
// the request-header rule, CORS, Vault's response headers, and framework errors in Vault's error format.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nameCaller } from '../../../core/http/caller-name.ts';
import { parseEveryType } from '../../../core/http/empty-body.ts';
import { SecretsError, coreError } from '../contract.ts';
import { stringifyExact } from '../exact-numbers.ts';
import { applyCors, type CorsSettings } from './cors.ts';
import { renderError, type Rendered } from './envelope.ts';
import { clientToken, decodeBody, operationOf, queryData, secretsHeader, splitUrl } from './request.ts';
import type { Router } from './router.ts';
import { isStaged } from './server.ts';
import { VERB_HEADER } from './verb-rewriter.ts';
import { wrapTtlOf } from '../sys/wrapping.ts';

export interface HandlerOptions {
  router: Router;
  cors: CorsSettings;
  bodyLimit: number;
  requireRequestHeader: boolean;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function send(reply: FastifyReply, rendered: Rendered, extra: Record<string, string>): FastifyReply {
  reply.header('cache-control', 'no-store');
  // The rendered answer's own headers are set last: they win over the listener's of the same name.
  for (const k in extra) reply.header(k, extra[k]);
  const own = rendered.headers;
  if (own) for (const k in own) reply.header(k, own[k]);
  reply.code(rendered.status);
  if (rendered.body === undefined) return reply.type('application/json').send();
  return reply.type('application/json').send(stringifyExact(rendered.body));
}

export function installSecretsHttp(app: FastifyInstance, options: HandlerOptions): void {
  app.removeAllContentTypeParsers();
  parseEveryType(app, options.bodyLimit);

  app.setErrorHandler((err: any, req, reply) => {
    if (err instanceof SecretsError) return send(reply, renderError(String(req.id), err, ''), {});
    if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err?.statusCode === 413) {
      return send(reply, { status: 413, body: { errors: ['http: request body too large'] } }, {});
    }
    if (typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return send(reply, { status: 400, body: { errors: [String(err.message ?? 'bad request')] } }, {});
    }
    req.log.error({ err }, 'secrets request failed');
    return send(reply, { status: 500, body: { errors: [coreError('internal error')] } }, {});
  });

  app.setNotFoundHandler((req, reply) => {
    const underV1 = req.url === '/v1' || req.url.startsWith('/v1/');
    return send(reply, { status: underV1 ? 405 : 404, body: { errors: [] } }, {});
  });

  app.route({
    method: METHODS,
    url: '/*',
    bodyLimit: options.bodyLimit,
    exposeHeadRoute: false,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      // Only the rewriter's marker names a verb: on a connection it does not frame, the header came from the client.
      if (req.headers[VERB_HEADER] !== undefined && !isStaged(req.raw.socket)) delete req.headers[VERB_HEADER];
      const extra: Record<string, string> = {};
      const namespaceHeader = secretsHeader(req.headers, 'namespace') ?? '';
      if (namespaceHeader) extra['x-secrets-namespace'] = namespaceHeader;
      if (req.headers['x-vault-namespace'] !== undefined) extra['x-vault-namespace'] = namespaceHeader;
      try {
        if (options.requireRequestHeader) {
          const given = req.headers['x-secrets-request'] ?? req.headers['x-vault-request'];
          if (given !== 'true') throw new SecretsError(412, 'missing "X-Secrets-Request" header');
        }
        const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
        const requested = req.headers['access-control-request-method'];
        const cors = applyCors(await options.cors.current(), origin, req.method, typeof requested === 'string' ? requested : undefined);
        Object.assign(extra, cors.headers);
        if (cors.preflight) return send(reply, { status: cors.preflight.status, body: undefined }, extra);
        const url = splitUrl(req.url);
        if (!url) return send(reply, { status: 404, body: { errors: [] } }, extra);
        if (req.method === 'OPTIONS') throw new SecretsError(405, []);
        const wrapTtl = wrapTtlOf(req.headers);
        const operation = operationOf(req.method, req.headers, url.query);
        const writes = req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH';
        const data = writes ? decodeBody(req.body as Buffer | undefined, req.headers['content-type']) : queryData(url.query);
        const headers: Record<string, string> = {};
        // for-in rather than Object.entries: no array of pairs per request. Repeated headers (arrays) are left out.
        for (const k in req.headers) {
          const v = req.headers[k];
          if (typeof v === 'string') headers[k] = v;
        }
        const rendered = await options.router.handle({
          requestId: String(req.id),
          operation,
          path: url.path,
          namespaceHeader,
          data,
          query: url.query,
          clientToken: clientToken(req.headers),
          wrapTtl,
          headers,
          connection: { remoteAddress: req.socket.remoteAddress ?? '', tls: Boolean((req.socket as { encrypted?: boolean }).encrypted) },
          // The accessor names a token without revealing it (Vault shows it in audit logs for the same reason).
          onAuthorised: (token) => nameCaller(req.raw, `${token.displayName || 'token'} (accessor ${token.accessor})`),
        });
        return send(reply, rendered, extra);
      } catch (err) {
        if (err instanceof SecretsError) return send(reply, renderError(String(req.id), err, ''), extra);
        throw err;
      }
    },
  });
}
