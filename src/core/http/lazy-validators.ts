// Request validators compiled at a route's first request rather than at start. Fastify compiles every enforced
// schema (the admin routes') when a listener gets ready, and each listener's own Ajv compiles its meta-schemas first:
// about a tenth of the program's start went to validators most runs never call. One Ajv per set of options and
// external schemas serves every listener, and a route's schema is compiled once, when a request first needs it.
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

interface RouteSchema {
  schema: unknown;
  httpPart?: string;
  [more: string]: unknown;
}
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** Ajv instances by external schemas and options, shared by every listener of the process. */
const pooled = AjvCompiler();

function buildValidator(externalSchemas: unknown, options: unknown): (route: RouteSchema) => Validate {
  let compileRoute: ((route: RouteSchema) => Validate) | undefined;
  return (route) => {
    let compiled: Validate | undefined;
    const validate: Validate = (data, context) => {
      compiled ??= (compileRoute ??= pooled(externalSchemas as never, options as never) as never)(headersLowerCased(route));
      const result = compiled(data, context);
      // Fastify reads a failed validation's errors off the function it was given.
      validate.errors = compiled.errors;
      return result;
    };
    // Fastify hands a validator carrying `schemaEnv` (an Ajv one) the request as parent, so that Ajv may replace a
    // coerced root value; every validator here is an Ajv one.
    validate.schemaEnv = true;
    return validate;
  };
}

/**
 * Header names arrive lower-cased; Fastify lower-cases a headers schema's names itself only for its own compiler.
 */
function headersLowerCased(route: RouteSchema): RouteSchema {
  const schema = route.schema as { properties?: Record<string, unknown>; required?: string[] } | null;
  if (route.httpPart !== 'headers' || typeof schema !== 'object' || schema === null || !schema.properties) return route;
  return {
    ...route,
    schema: {
      ...schema,
      properties: Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name.toLowerCase(), s])),
      ...(schema.required ? { required: schema.required.map((name) => name.toLowerCase()) } : {}),
    },
  };
}

export const lazyValidators: FastifyServerOptions['schemaController'] = { compilersFactory: { buildValidator: buildValidator as never } };
