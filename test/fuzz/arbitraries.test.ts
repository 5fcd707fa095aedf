// The fuzzer's schema-derived values satisfy the schema they come from (so a route that declares a schema gets
// requests its validation accepts, and reaches its handler), and every generated request is well formed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { fromSchema, requestArbitrary } from './arbitraries.ts';

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
});
