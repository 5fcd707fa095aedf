// Builds the Fastify instance of one listener: request ids, redacted logs, body limits, a per-request log line.
import type { ServerOptions } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { uuid } from '../ids.ts';
import type { RequestInspector } from './inspector.ts';
import { dropTypeOfEmptyBody } from './empty-body.ts';
import { callerNameOf } from './caller-name.ts';
import { coalesceWrites } from '../coalesced-writes.ts';
import { parseJsonBody } from './json-body.ts';
import { lazyValidators } from './lazy-validators.ts';
import { redactUrl } from './redact.ts';
import { requestLogger } from './request-logger.ts';

export interface ListenerOptions {
  name: string;
  log: Logger;
  bodyLimit?: number;
  /** Makes the listener's server; it must create it with `serverOptions` (the sweep interval, which cannot be set later). */
  serverFactory?: (handler: (req: any, res: any) => void, serverOptions: ServerOptions) => any;
  https?: { key: string | Buffer; cert: string | Buffer } | null;
  /** Records each request that came over a socket into the request inspector, with the principal it names. */
  inspection?: { inspector: RequestInspector; principalOf(req: FastifyRequest): Promise<string | null> };
  /** Socket limits over DEFAULT_LISTENER_LIMITS (the `listenerLimits` configuration). */
  limits?: Partial<ListenerLimits>;
}

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
const MAX_PARAM_LENGTH = 64 * 1024;

/**
 * Socket limits: a request's headers must arrive within HEADERS_MS of the connection (or of the previous answer on a
 * kept-alive one), so a connection that sends nothing is closed; the whole request within REQUEST_MS, so a body
 * dribbled a byte at a time is cut off; a listener holds at most MAX_CONNECTIONS sockets. Idle kept-alive sockets
 * follow Fastify's keep-alive timeout, which clients read from the Keep-Alive header (a shorter one races their reuse).
 */
export const HEADERS_MS = 20_000;
export const REQUEST_MS = 120_000;
export const MAX_CONNECTIONS = 2_000;

export interface ListenerLimits {
  /** Sockets one listener holds at once; more are refused by the kernel's accept path (closed at once). */
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle kept-alive socket is held for the client's next request. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_LISTENER_LIMITS: ListenerLimits = {
  maxConnections: MAX_CONNECTIONS,
  headersTimeoutMs: HEADERS_MS,
  requestTimeoutMs: REQUEST_MS,
  keepAliveTimeoutMs: 72_000,
};

export function createListener(options: ListenerOptions): FastifyInstance {
  const limits = { ...DEFAULT_LISTENER_LIMITS, ...options.limits };
  // Node enforces the header and request timeouts when it sweeps its connections; sweeping as often as the shorter
  // one allows keeps a silent socket from outliving its limit by the default 30 s sweep interval. The interval can
  // only be given when the server is created, so a service's own server factory is handed it too; the timeouts
  // themselves are set on the server below, whoever made it.
  const serverOptions: ServerOptions = {
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(limits.headersTimeoutMs / 2))),
  };
  const serverFactory = options.serverFactory;
  const fastifyOptions: FastifyServerOptions & Record<string, unknown> = {
    loggerInstance: options.log.child({ listener: options.name }),
    // Fastify's own per-request lines are off: the listener writes one redacted line itself (onResponse below).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLogger as unknown as FastifyServerOptions['childLoggerFactory'],
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : uuid();
    },
    requestIdHeader: false,
    return503OnClosing: true,
    requestTimeout: limits.requestTimeoutMs,
    http: { ...serverOptions, headersTimeout: limits.headersTimeoutMs },
    forceCloseConnections: 'idle',
    // Above any URL Node accepts (its header limit): the router would answer an over-long parameter 414, where each API
    // answers an unknown id its own way.
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: MAX_PARAM_LENGTH },
    // A schema's `additionalProperties: false` must reject unknown fields, not silently drop them.
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: lazyValidators,
    // Errors raised before routing (an undecodable URL) go to the error handler the family installed, so they
    // answer in that API's envelope.
    frameworkErrors: (error: Error, req: any, reply: any) => app.errorHandler(error as any, req, reply),
    ...(serverFactory ? { serverFactory: (handler: (req: any, res: any) => void) => serverFactory(handler, serverOptions) } : {}),
    ...(options.https ? { https: options.https } : {}),
  };
  // eslint-disable-next-line prefer-const -- read by frameworkErrors, which runs only after construction
  let app: FastifyInstance;
  app = Fastify(fastifyOptions) as unknown as FastifyInstance;
  app.server.maxConnections = limits.maxConnections;
  app.server.headersTimeout = limits.headersTimeoutMs;
  app.server.requestTimeout = limits.requestTimeoutMs;
  app.server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // One JSON parser for every listener: nesting depth bounded, and an empty body read as no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    dropTypeOfEmptyBody(req);
    coalesceWrites(req.raw.socket);
    done();
  });
  const requestLines = options.log.isLevelEnabled('info');
  if (requestLines) {
    // Installed only when the line is written (the default level is warn): a hook costs every request.
    app.addHook('onResponse', (req, reply, done) => {
      req.log.info(
        { method: req.method, url: redactUrl(req.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'request',
      );
      done();
    });
  }
  if (options.inspection) installInspection(app, options.name, options.inspection);
  return app;
}

/** The payload a request was answered with, kept on the request for the inspector (a WeakMap cost every request). */
const SENT = Symbol('sent payload');

function installInspection(app: FastifyInstance, name: string, inspection: NonNullable<ListenerOptions['inspection']>): void {
  // Callback hooks: an async one costs a promise and a turn of the microtask queue on every request.
  app.addHook('onSend', (req, _reply, payload, done) => {
    (req as unknown as Record<symbol, unknown>)[SENT] = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    // Requests injected in-process (the console's own reads, batch fan-out) are not traffic a user sent.
    if (!(req.raw as { _lightMyRequest?: unknown })._lightMyRequest) {
      const named = callerNameOf(req.raw);
      if (named !== undefined) record(inspection.inspector, name, req, reply, named);
      else {
        const recordAs = (principal: string | null) => record(inspection.inspector, name, req, reply, principal);
        void inspection.principalOf(req).then(recordAs, () => recordAs(null));
      }
    }
    done();
  });
}

const header = (value: unknown) => (typeof value === 'string' ? value : undefined);

function record(inspector: RequestInspector, service: string, req: FastifyRequest, reply: FastifyReply, principal: string | null): void {
  inspector.record({
    service,
    requestId: req.id,
    at: Date.now() - reply.elapsedTime,
    method: req.method,
    url: req.url,
    status: reply.statusCode,
    ms: reply.elapsedTime,
    principal,
    request: { contentType: header(req.headers['content-type']), body: req.body, bytes: Number(req.headers['content-length']) || undefined },
    response: { contentType: header(reply.getHeader('content-type')), body: (req as unknown as Record<symbol, unknown>)[SENT] },
  });
}
