// Who may call what. Reporting takes an API key or a token with either scope (spec A4); reading an error history is
// private data, so, as in the real API, it needs an OAuth token with the cloud-platform scope.
import type { FastifyRequest } from 'fastify';
import { authenticateGoogle } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';

export const REPORT_RULE = { scopes: ['cloud-platform', 'stackdriver-integration'], apiKey: true };
export const READ_RULE = { scopes: ['cloud-platform'], apiKey: false };

export const authorise = (req: FastifyRequest, ctx: ServiceContext, rule: typeof REPORT_RULE) => authenticateGoogle(req, ctx.identity, rule);
