// Google's HTTP batch endpoint (POST /<batchPath>): several calls of one API in one multipart/mixed request. Each call
// is injected into the same Fastify instance, in order, so routes, hooks, authentication and the error envelope apply
// to it unchanged; the outer request's headers (Content-* and connection headers aside) are inherited by every call
// that does not set them itself. A batch that cannot be read, is too large, nests a batch or names a path outside the
// API is refused whole (400) before any of its calls runs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { documented } from '../http/documented.ts';
import { parseEveryType } from '../http/empty-body.ts';
import { DEFAULT_BODY_LIMIT } from '../http/listener.ts';
import { BatchSyntaxError, boundaryOf, parsePart, splitMultipart, writeAnswers, type BatchAnswer, type BatchPart } from './batch-wire.ts';
import type { GoogleApi } from './discovery.ts';
import { GoogleError } from './errors.ts';
import { googleQuery } from './query-schema.ts';

/** A call of the batch, with the URL it is dispatched to (a path under the API's prefix, query string kept). */
interface BatchCall extends BatchPart {
  url: string;
}

// Headers that describe the outer request's own body or connection: never passed down to a call.
const NOT_INHERITED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'proxy-authorization', 'x-request-id']);
// What a call's own headers may not set: its length is its body's, and it is addressed to this listener.
const NOT_TAKEN = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);

/** Serves the batch endpoint at the API's batchPath and at `batch/<api>/<version>` (the same where they coincide). */
export function serveBatch(app: FastifyInstance, api: GoogleApi): void {
  const paths = new Set([`/${api.batchPath}`, `/batch/${api.name}/${api.version}`]);
  const bodyLimit = app.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const schema = documented({
    description:
      `Google's HTTP batch endpoint for ${api.title} ${api.version}: a multipart/mixed body of at most ${api.maxBatchCalls} ` +
      'application/http parts, each an HTTP request to a method of this API; answered with one multipart/mixed body holding ' +
      "each call's HTTP response, in order, with Content-ID response-<the part's Content-ID>.",
    consumes: ['multipart/mixed'],
    // The system parameters, as on every method; the batch reads no other parameter and ignores any it is given.
    querystring: googleQuery({}, { unknownParameters: 'ignored' }),
    body: { type: 'string', description: 'multipart/mixed; boundary=...' },
  });
  // A scope of its own: every Content-Type reaches the handler as bytes, so a body that is not a batch gets the
  // batch's own 400 rather than another parser's answer.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    parseEveryType(scope, bodyLimit);
    for (const path of paths) scope.post(path, schema, (req, reply) => answerBatch(app, api, req, reply));
  });
}

async function answerBatch(app: FastifyInstance, api: GoogleApi, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const calls = readBatch(api, req);
  const inherited = inheritedHeaders(req);
  const answers: BatchAnswer[] = [];
  // In order, one at a time: Google promises no order, and this one is the simplest to reason about.
  for (const call of calls) answers.push(await dispatch(app, req, inherited, call));
  const { contentType, body } = writeAnswers(answers);
  return reply.type(contentType).send(body);
}

/** Every call of the batch, or a 400 (nothing has run yet). */
function readBatch(api: GoogleApi, req: FastifyRequest): BatchCall[] {
  try {
    const parts = splitMultipart(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), boundaryOf(req.headers['content-type']));
    if (parts.length === 0) throw new BatchSyntaxError('The batch request contains no calls.');
    if (parts.length > api.maxBatchCalls) {
      throw new BatchSyntaxError(`The batch request contains ${parts.length} calls; ${api.title} takes at most ${api.maxBatchCalls} in one batch.`);
    }
    return parts.map((bytes, i) => {
      const part = parsePart(bytes, i + 1);
      return { ...part, url: methodUrl(api, part.target, i + 1) };
    });
  } catch (err) {
    if (err instanceof BatchSyntaxError) throw new GoogleError(400, err.message, { reason: 'badRequest' });
    throw err;
  }
}

/**
 * The path and query a call's target names: an absolute URL (whatever its host: the call is served here), a path
 * from the root, or a path relative to the API's base URL (as discovery documents write method paths). Dot segments
 * are resolved first, so the result is checked as the router will see it: under the API's prefix, and not a batch.
 */
function methodUrl(api: GoogleApi, target: string, n: number): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(target)?.[1];
  if (scheme !== undefined && !/^https?$/i.test(scheme)) throw new BatchSyntaxError(`Batch part ${n} names a ${scheme}: URL; only http and https URLs and paths are accepted.`);
  let url: URL;
  try {
    url = new URL(target, `http://batch.invalid/${api.servicePath}`);
  } catch {
    throw new BatchSyntaxError(`Batch part ${n} has an unreadable request target: ${JSON.stringify(target.slice(0, 200))}.`);
  }
  const path = url.pathname;
  if (path === '/batch' || path.startsWith('/batch/')) throw new BatchSyntaxError(`Batch part ${n} is itself a batch request; batches cannot be nested.`);
  if (!path.startsWith(api.routePrefix)) {
    throw new BatchSyntaxError(`Batch part ${n} requests ${path}, which is not a method of ${api.title} ${api.version} (its paths start with ${api.routePrefix}).`);
  }
  return path + url.search;
}

/** The outer request's headers every call receives unless it sets them itself (Google: all but the Content-* ones). */
function inheritedHeaders(req: FastifyRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || NOT_INHERITED.has(name) || name.startsWith('content-')) continue;
    out[name] = value;
  }
  return out;
}

async function dispatch(app: FastifyInstance, outer: FastifyRequest, inherited: Record<string, string | string[]>, call: BatchCall): Promise<BatchAnswer> {
  const headers: Record<string, string | string[]> = { ...inherited };
  for (const [name, value] of Object.entries(call.headers)) if (!NOT_TAKEN.has(name)) headers[name] = value;
  if (outer.headers.host !== undefined) headers.host = outer.headers.host;
  const res = await app.inject({
    method: call.method as 'GET',
    url: call.url,
    headers,
    ...(call.body.length > 0 ? { payload: call.body } : {}),
    remoteAddress: outer.ip,
  });
  return { contentId: call.contentId, status: res.statusCode, headers: res.headers, body: res.rawPayload };
}
