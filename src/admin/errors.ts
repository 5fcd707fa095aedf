// The admin API's error body: {"error": {"code": <status>, "message": "..."}}.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, frameworkStatus, isApiError } from '../core/errors.ts';

export const adminError = (status: number, message: string) => new ApiError(status, message);

export function installAdminErrors(app: FastifyInstance): void {
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ error: { code: 404, message: `no admin route ${req.method} ${req.url.split('?')[0]}` } });
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isApiError(err)) return reply.code(err.status).send({ error: { code: err.status, message: err.message } });
    const status = frameworkStatus(err);
    if (status !== undefined) return reply.code(status).send({ error: { code: status, message: err.message } });
    req.log.error({ err }, 'admin error');
    return reply.code(500).send({ error: { code: 500, message: 'internal error' } });
  });
}
