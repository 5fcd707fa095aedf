// The fuzzer's schema-derived values satisfy the schema they come from (so a route that declares a schema gets
// requests its validation accepts, and reaches its handler), and every generated request is well formed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { fromSchema, requestArbitrary, seededRoute } from './arbitraries.ts';
import { WILDCARD_SEEDS } from './routes.ts';

describe('fuzz arbitraries', () => {
  it('derive values that satisfy a TypeBox schema', () => {
    const schema = Type.Object({
      name: Type.String({ minLength: 1, maxLength: 20 }),
      count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
      kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      tags: Type.Array(Type.String({ maxLength: 5 })),
      flag: Type.Boolean(),
    });
    fc.assert(fc.property(fromSchema(schema), (value) => Value.Check(schema, value)));
  });

  it('follow patterns, formats and maps of a schema', () => {
    const schema = Type.Object({
      identifier: Type.String({ minLength: 4, maxLength: 50, pattern: '^[\\x20-\\x7e]*$' }),
      name: Type.String({ pattern: '^bidders/1000/filterSets/[a-z]{1,5}$' }),
      labels: Type.Record(Type.String(), Type.String({ maxLength: 5 })),
    });
    fc.assert(fc.property(fromSchema(schema), (value) => Value.Check(schema, value)));
    fc.assert(
      fc.property(fromSchema({ type: 'string', format: 'date-time' }), (value) => {
        assert.equal(new Date(value as string).toISOString(), value);
      }),
    );
  });

  it('fill every parameter of a route and keep the route methods most of the time', () => {
    const route = { service: 'errorreporting' as const, methods: ['PUT'], url: '/v1beta1/projects/:projectId/groups/:groupId' };
    fc.assert(
      fc.property(requestArbitrary(route), (plan) => {
        const path = plan.target.toString('latin1');
        assert.ok(path.startsWith('/v1beta1/projects/'));
        assert.ok(!path.includes(':projectId') && !path.includes(':groupId'));
      }),
    );
    const methods = fc.sample(requestArbitrary(route), 400).map((p) => p.method);
    assert.ok(methods.filter((m) => m === 'PUT').length > 200);
    assert.ok(methods.some((m) => m !== 'PUT'), 'wrong methods are sent too');
  });

  it('send a seeded operation of a wildcard route its own methods and a body from its schema', () => {
    const route = { service: 'bidding' as const, methods: ['GET', 'POST', 'DELETE'], url: '/v2beta1/*' };
    const create = WILDCARD_SEEDS.bidding!.find((s) => s.methods?.includes('POST'))!;
    const seeded = seededRoute(route, create);
    assert.equal(seeded.url, `/v2beta1/${create.path}`);
    const plans = fc.sample(requestArbitrary(seeded), 200).filter((p) => p.method === 'POST' && p.contentType === 'application/json' && p.body?.length);
    const parsed = plans.map((p) => {
      try {
        return JSON.parse(p.body!.toString());
      } catch {
        return undefined;
      }
    });
    // Filter sets are the bodies with a time range (the hostile bodies have none).
    const filterSets = parsed.filter((b) => b && typeof b === 'object' && ['relativeDateRange', 'absoluteDateRange', 'realtimeTimeRange'].some((r) => r in b));
    assert.ok(filterSets.length > 20, 'most JSON bodies are filter sets');
    assert.ok(filterSets.every((b) => b.name.startsWith(`${create.path}/`)), 'named under the seed path');
    const paths = new Set(fc.sample(requestArbitrary(route), 300).map((p) => p.target.toString('latin1')));
    assert.ok([...paths].some((p) => p === `/v2beta1/${create.path}`), 'the wildcard is filled from its seeds');
    assert.ok([...paths].some((p) => !WILDCARD_SEEDS.bidding!.some((s) => p === `/v2beta1/${s.path}`)), 'and with other paths too');
  });
});
