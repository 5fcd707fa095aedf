// The payments API family on its Fastify instance: JSON, XML and form bodies in, JSON or XML out by negotiation,
// and every refusal rendered as the `Error` model.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { frameworkStatus, isApiError } from '../../core/errors.ts';
import { dictionary } from '../../core/own.ts';
import { payError, PaymentsError, type Acknowledgement, type Decision, type ErrorModel } from './contract.ts';
import { TEXTUAL, type RawBody } from './domain/fields.ts';
import { parseXml, toXml } from './xml.ts';

const XML_ROOT = Symbol('xmlRoot');

export function installPaymentsFamily(app: FastifyInstance, now: () => number): void {
  app.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string' }, (_req, body, done) => {
    // An empty body is no body, whatever its declared type (body-less operations called with Content-Type set).
    if ((body as string).trim() === '') return done(null, undefined);
    try {
      const { root, body: parsed } = parseXml(body as string);
      const value = (parsed && typeof parsed === 'object' ? parsed : { value: parsed }) as RawBody & { [XML_ROOT]?: string };
      value[TEXTUAL] = true;
      value[XML_ROOT] = root;
      done(null, value);
    } catch (err) {
      done(payError(400, 'D029', `The XML body could not be read: ${(err as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    // Field names are the sender's (a field guard may be called `__proto__`): kept as ordinary keys.
    const value: RawBody = dictionary();
    for (const [k, v] of new URLSearchParams(body as string)) value[k] = v;
    value[TEXTUAL] = true;
    done(null, value);
  });

  app.setNotFoundHandler((req, reply) => {
    sendError(req, reply, payError(404, 'D101', `No operation ${req.method} ${req.url.split('?')[0]}`), now());
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof PaymentsError) return sendError(req, reply, err, now());
    if (isApiError(err)) return sendError(req, reply, payError(err.status, String(err.details.code ?? codeForStatus(err.status)), err.message), now());
    const status = frameworkStatus(err);
    if (status !== undefined) {
      const message = status === 413 ? 'The request body is too large' : status === 415 ? 'Unsupported content type: send application/json or text/xml' : 'The request body could not be read';
      return sendError(req, reply, payError(status === 413 ? 413 : 400, 'D029', message), now());
    }
    req.log.error({ err }, 'payments request failed');
    return sendError(req, reply, payError(500, 'F003', 'System error: the request could not be completed'), now());
  });
}

function codeForStatus(status: number): string {
  return status === 401 ? 'S007' : status === 403 ? 'S005' : status === 404 ? 'D101' : status >= 500 ? 'F003' : 'P045';
}

function sendError(req: FastifyRequest, reply: FastifyReply, err: PaymentsError, nowMs: number): FastifyReply {
  const body: ErrorModel = {
    code: err.code,
    context: req.id,
    ...(err.identifier ? { identifier: err.identifier } : {}),
    message: err.message,
    response_dt: new Date(nowMs).toISOString(),
  };
  return send(req, reply, 'Error', body, err.status);
}

/** True when the answer should be XML: Accept decides, then the request's own Content-Type. */
export function wantsXml(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  const json = accept.indexOf('json');
  const xml = accept.indexOf('xml');
  // With both listed, the one named first is preferred (clients list their preference first).
  if (json >= 0 || xml >= 0) return xml >= 0 && (json < 0 || xml < json);
  return /xml/i.test(String(req.headers['content-type'] ?? ''));
}

export function send(req: FastifyRequest, reply: FastifyReply, model: string, body: unknown, status = 200): FastifyReply {
  reply.code(status);
  if (wantsXml(req)) {
    const type = String(req.headers.accept ?? '').includes('application/xml') ? 'application/xml' : 'text/xml';
    return reply.type(`${type}; charset=utf-8`).send(toXml(model, body));
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export const sendDecision = (req: FastifyRequest, reply: FastifyReply, decision: Decision): FastifyReply =>
  send(req, reply, 'Decision', decision);

export const ack = (req: FastifyRequest, code: string, message: string, identifier?: string): Acknowledgement => ({
  code,
  context: req.id,
  ...(identifier !== undefined ? { identifier } : {}),
  message,
});

/**
 * The body as an object. JSON may wrap the fields in the model name (`{"AuthRequest": {...}}`), as the published
 * samples do; XML always has the model (or any) root element, already unwrapped by the parser.
 */
export function bodyOf(req: FastifyRequest, model: string): RawBody {
  const body = req.body as unknown;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw payError(400, 'D029', `The request body must be a ${model} object`);
  const raw = body as RawBody;
  if (!raw[TEXTUAL]) {
    const keys = Object.keys(raw);
    const inner = raw[model];
    if (keys.length === 1 && keys[0] === model && inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as RawBody;
  }
  return raw;
}
