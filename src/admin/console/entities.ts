// The entity search box: the service's own search answered in-process with the development API key.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { callService, expectOk } from './service-call.ts';

const Search = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 200 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) },
  { additionalProperties: false },
);

export function entityRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/entities/search', { schema: { querystring: Search } }, async (req) => {
    const { query, limit = 20 } = req.query as Static<typeof Search>;
    const params = new URLSearchParams({ query, limit: String(limit), key: rt.options.devApiKey });
    const answer = await expectOk(callService(rt, 'entities', { url: `/v1/entities:search?${params}` }), 'entity search');
    return {
      results: ((answer.itemListElement ?? []) as Array<{ result: Record<string, any>; resultScore: number }>).map((e) => ({
        id: e.result['@id'],
        name: e.result.name,
        types: e.result['@type'],
        description: e.result.description ?? null,
        detail: e.result.detailedDescription?.articleBody ?? null,
        score: e.resultScore,
      })),
    };
  });
}
