// Principals and credentials: create, list, inspect and delete. A credential's value is shown once, at creation.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { isUniqueViolation } from '../core/db/dialect.ts';
import type { Runtime } from '../core/runtime.ts';
import { adminError } from './errors.ts';

const NewPrincipal = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:@-]+$' })),
    kind: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

const NewCredential = Type.Object(
  {
    type: Type.Union([Type.Literal('api_key'), Type.Literal('bearer'), Type.Literal('licence_key')]),
    value: Type.Optional(Type.String({ minLength: 8, maxLength: 512 })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 50 })),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

export function principalRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/principals', { schema: { querystring: Type.Object({ kind: Type.Optional(Type.String()) }) } }, async (req) => {
    const principals = await rt.identity.listPrincipals((req.query as { kind?: string }).kind);
    return { principals: principals.map((p) => ({ ...p, createdAt: iso(p.createdAt) })) };
  });

  app.post('/principals', { schema: { body: NewPrincipal } }, async (req, reply) => {
    try {
      const p = await rt.identity.createPrincipal(req.body as Static<typeof NewPrincipal>);
      reply.code(201);
      return { ...p, createdAt: iso(p.createdAt) };
    } catch (err) {
      if (isUniqueViolation(err)) throw adminError(409, `principal ${(req.body as { id?: string }).id} already exists`);
      throw err;
    }
  });

  app.get('/principals/:id', async (req) => {
    const { id } = req.params as { id: string };
    const p = await rt.identity.getPrincipal(id);
    if (!p) throw adminError(404, `no principal ${id}`);
    const credentials = await rt.identity.listCredentials(id);
    return { ...p, createdAt: iso(p.createdAt), credentials: credentials.map(viewCredential) };
  });

  app.delete('/principals/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!(await rt.identity.deletePrincipal(id))) throw adminError(404, `no principal ${id}`);
    reply.code(204);
  });

  app.post('/principals/:id/credentials', { schema: { body: NewCredential } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = req.body as Static<typeof NewCredential>;
    if (!(await rt.identity.getPrincipal(id))) throw adminError(404, `no principal ${id}`);
    try {
      const { credential, value } = await rt.identity.issueCredential({
        principalId: id,
        type: body.type,
        value: body.value,
        scopes: body.scopes,
        label: body.label,
        expiresAt: body.expiresAt ? Date.parse(body.expiresAt) : null,
        keepSecret: body.type === 'licence_key',
      });
      reply.code(201);
      return { ...viewCredential(credential), value };
    } catch (err) {
      if (isUniqueViolation(err)) throw adminError(409, 'a credential with that value already exists');
      throw err;
    }
  });

  app.get('/credentials', { schema: { querystring: Type.Object({ principalId: Type.Optional(Type.String()) }) } }, async (req) => {
    const credentials = await rt.identity.listCredentials((req.query as { principalId?: string }).principalId);
    return { credentials: credentials.map(viewCredential) };
  });

  app.delete('/credentials/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!(await rt.identity.deleteCredential(id))) throw adminError(404, `no credential ${id}`);
    reply.code(204);
  });
}

function viewCredential(c: { id: string; principalId: string; type: string; scopes: string[]; label: string | null; createdAt: number; expiresAt: number | null }) {
  return { id: c.id, principalId: c.principalId, type: c.type, scopes: c.scopes, label: c.label, createdAt: iso(c.createdAt), expiresAt: iso(c.expiresAt) };
}
