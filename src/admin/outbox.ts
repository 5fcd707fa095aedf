// GET /outbox: every e-mail, SMS and webhook a service sent, with delivery attempts; POST /outbox/deliver retries now.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Runtime } from '../core/runtime.ts';

const Query = Type.Object({
  service: Type.Optional(Type.String()),
  channel: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('sms'), Type.Literal('webhook')])),
  correlation: Type.Optional(Type.String()),
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
});

export function outboxRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/outbox', { schema: { querystring: Query } }, async (req) => {
    const messages = await rt.outbox.list(req.query as Parameters<Runtime['outbox']['list']>[0]);
    return { messages: messages.map((m) => ({ ...m, createdAt: iso(m.createdAt), deliveredAt: m.deliveredAt ? iso(m.deliveredAt) : null, nextAttemptAt: iso(m.nextAttemptAt) })) };
  });
  app.post('/outbox/deliver', async () => ({ attempted: await rt.outbox.deliverDue() }));
  app.get('/jobs', { schema: { querystring: Type.Object({ service: Type.Optional(Type.String()) }) } }, async (req) => {
    const jobs = await rt.jobs.list((req.query as { service?: string }).service);
    return { jobs: jobs.map((j) => ({ ...j, runAt: iso(j.runAt) })) };
  });
}

const iso = (ms: number) => new Date(ms).toISOString();
