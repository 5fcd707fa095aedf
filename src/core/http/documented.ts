// Route schemas that describe a public API's request without Fastify enforcing them. Each service checks its input
// itself, so that a bad request gets that API's own error envelope and wording (Google's INVALID_ARGUMENT, a gateway's
// error code); a Fastify/ajv 400 would be neither. The description still feeds the service's OpenAPI document and the
// route fuzzer, which derives plausible requests from it and asserts that none of them gets a 5xx.
import type { FastifySchema, RouteShorthandOptions } from 'fastify';

/** Accepts everything: the handler validates, in its API's own format. */
const describeOnly = () => () => true;

/**
 * Route options carrying `schema` as documentation only. Use on public API routes; admin routes, whose errors are our
 * own, declare schemas that Fastify enforces.
 */
export function documented(schema: FastifySchema): Pick<RouteShorthandOptions, 'schema' | 'validatorCompiler'> {
  return { schema, validatorCompiler: describeOnly };
}
