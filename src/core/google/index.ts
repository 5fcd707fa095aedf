// Everything the Google-style APIs share on the wire: system query parameters on every route, `fields` partial
// responses, `prettyPrint`, the error envelope for every failure (including the framework's own), and the HTTP batch
// endpoint of the API the listener follows.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiError, isUnstorableText, frameworkStatus } from '../errors.ts';
import { isMediaType } from '../http/media-type.ts';
import { serveBatch } from './batch.ts';
import { googleApiOf } from './discovery.ts';
import { GoogleError, googleErrorBody, type GoogleErrorDetail } from './errors.ts';
import { FieldsSyntaxError, applyFields, parseFields, type Selection } from './fields.ts';

export * from './errors.ts';
export * from './auth.ts';
export * from './page-token.ts';
export * from './parameters.ts';

declare module 'fastify' {
  interface FastifyRequest {
    google?: { fields?: Selection; pretty: boolean; alt: string };
  }
}

const ALT_VALUES = new Set(['json', 'media', 'proto', 'sse']);
const XGAFV = new Set(['1', '2']);

export interface GoogleFamilyOptions {
  /** The `domain` of errors[] entries (e.g. `global`, `calendar`). */
  domain?: string;
  /** `alt` values this API serves besides json (Drive serves `media`). */
  alt?: string[];
}

export function installGoogleFamily(app: FastifyInstance, options: GoogleFamilyOptions = {}): void {
  const domain = options.domain ?? 'global';
  const alts = new Set(['json', ...(options.alt ?? [])]);

  // Callback hooks (a throw is the hook's error): an async one costs a promise and a microtask turn per request.
  app.addHook('onRequest', (req, _reply, done) => {
    const q = req.query as Record<string, unknown>;
    const alt = first(q.alt) ?? 'json';
    if (!ALT_VALUES.has(alt)) throw new GoogleError(400, `Invalid value at 'alt' (${alt})`, { reason: 'invalidParameter', location: 'alt', locationType: 'parameter' });
    if (!alts.has(alt)) throw new GoogleError(400, `Unsupported value for alt: ${alt}`, { reason: 'invalidParameter', location: 'alt', locationType: 'parameter' });
    const xgafv = first(q['$.xgafv']);
    if (xgafv !== undefined && !XGAFV.has(xgafv)) {
      throw new GoogleError(400, `Invalid value at 'xgafv' (${xgafv})`, { reason: 'invalidParameter', location: '$.xgafv', locationType: 'parameter' });
    }
    const quotaUser = first(q.quotaUser);
    if (quotaUser !== undefined && quotaUser.length > 40) {
      throw new GoogleError(400, 'quotaUser must be at most 40 characters.', { reason: 'invalidParameter', location: 'quotaUser', locationType: 'parameter' });
    }
    const prettyRaw = first(q.prettyPrint);
    let fields: Selection | undefined;
    const fieldsRaw = first(q.fields);
    if (fieldsRaw !== undefined && fieldsRaw !== '') {
      try {
        fields = parseFields(fieldsRaw);
      } catch (err) {
        if (err instanceof FieldsSyntaxError) throw new GoogleError(400, err.message, { reason: 'invalidParameter', location: 'fields', locationType: 'parameter' });
        throw err;
      }
    }
    req.google = { fields, pretty: prettyRaw === undefined ? true : prettyRaw !== 'false', alt };
    done();
  });

  app.addHook('preSerialization', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (reply.statusCode >= 400 || !req.google) return done(null, payload);
    if (req.google.pretty) reply.serializer(prettyJson);
    done(null, req.google.fields && payload && typeof payload === 'object' ? applyFields(payload, req.google.fields) : payload);
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(googleErrorBody(404, `The requested URL ${req.url.split('?')[0]} was not found on this server.`, { reason: 'notFound' }, domain));
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isApiError(err)) {
      reply.code(err.status).send(googleErrorBody(err.status, err.message, err.details as GoogleErrorDetail, domain));
      return;
    }
    const status = unreadableType(err, req) ? 400 : frameworkStatus(err);
    if (status !== undefined) {
      const message = status === 413 ? 'Request payload size exceeds the limit.' : frameworkMessage(err, req);
      reply.code(status).send(googleErrorBody(status, message, { reason: status === 400 ? 'parseError' : undefined }, domain));
      return;
    }
    req.log.error({ err }, 'unhandled error');
    reply.code(500).send(googleErrorBody(500, 'Internal error encountered.', { reason: 'backendError' }, domain));
  });

  // Known once the runtime has served the listener's discovery document (a bare instance serves no batch endpoint).
  const api = googleApiOf(app);
  if (api) serveBatch(app, api);
}

/** A body whose Content-Type is no media type at all: a malformed request (400), not an unsupported type (415). */
function unreadableType(err: FastifyError, req: FastifyRequest): boolean {
  return err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && !isMediaType(String(req.headers['content-type'] ?? ''));
}

function frameworkMessage(err: FastifyError, req: FastifyRequest): string {
  if (isUnstorableText(err)) return 'Invalid value: text may not contain the NUL character or invalid UTF-8.';
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || /JSON/.test(err.message)) {
    return `Invalid JSON payload received. ${err.message}`;
  }
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const declared = String(req.headers['content-type'] ?? '');
    return isMediaType(declared) ? `Unsupported content type: ${declared}` : `Invalid Content-Type header: ${declared}`;
  }
  return err.message;
}

const prettyJson = (payload: unknown) => JSON.stringify(payload, null, 2);

function first(v: unknown): string | undefined {
  if (Array.isArray(v)) return first(v[0]);
  return typeof v === 'string' ? v : undefined;
}

/** A route handler answering the Google 501 for an operation this twin does not implement yet. */
export function unimplemented(what: string) {
  return async () => {
    throw new GoogleError(501, `${what} is not implemented by twinstack yet.`, { reason: 'notImplemented' });
  };
}
