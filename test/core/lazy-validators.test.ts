import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createListener } from '../../src/core/http/listener.ts';

describe('enforced route schemas, compiled at their first request', () => {
  let app: FastifyInstance;
  const Body = Type.Object({ name: Type.String({ maxLength: 3 }) }, { additionalProperties: false });

  before(async () => {
    app = createListener({ name: 't', log: pino({ level: 'silent' }) });
    app.post('/body', { schema: { body: Body } }, async (req) => ({ got: req.body }));
    app.get('/query', { schema: { querystring: Type.Object({ n: Type.Integer(), tag: Type.String({ default: 'none' }) }) } }, async (req) => ({ got: req.query }));
    app.get('/items/:id', { schema: { params: Type.Object({ id: Type.Integer({ minimum: 1 }) }) } }, async (req) => ({ got: req.params }));
    app.get('/header', { schema: { headers: Type.Object({ 'X-Tenant': Type.String({ pattern: '^[a-z]+$' }) }) } }, async (req) => ({ got: req.headers['x-tenant'] }));
    app.get('/broken', { schema: { querystring: { type: 'no-such-type' } } }, async () => ({ reached: true }));
    await app.ready();
  });
  after(() => app.close());

  it('refuses a body the schema refuses, with the failing field named, and passes a good one untouched', async () => {
    const bad = await app.inject({ method: 'POST', url: '/body', payload: { name: 'too long' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /body\/name must NOT have more than 3 characters/);
    const extra = await app.inject({ method: 'POST', url: '/body', payload: { name: 'ok', extra: 1 } });
    assert.equal(extra.statusCode, 400, 'additionalProperties: false refuses, it does not strip');
    assert.match(extra.json().message, /must NOT have additional properties/);
    // The second call reuses the compiled validator and still reports its own errors.
    const again = await app.inject({ method: 'POST', url: '/body', payload: { name: 'abcd' } });
    assert.equal(again.statusCode, 400);
    const good = await app.inject({ method: 'POST', url: '/body', payload: { name: 'abc' } });
    assert.equal(good.statusCode, 200);
    assert.deepEqual(good.json(), { got: { name: 'abc' } });
  });

  it('coerces query and path values and fills defaults, as Fastify does', async () => {
    const query = await app.inject({ method: 'GET', url: '/query?n=42' });
    assert.equal(query.statusCode, 200);
    assert.deepEqual(query.json(), { got: { n: 42, tag: 'none' } });
    const notNumber = await app.inject({ method: 'GET', url: '/query?n=many' });
    assert.equal(notNumber.statusCode, 400);
    assert.match(notNumber.json().message, /querystring\/n must be integer/);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/items/7' })).json(), { got: { id: 7 } });
    assert.equal((await app.inject({ method: 'GET', url: '/items/0' })).statusCode, 400);
  });

  it('matches a headers schema written with capitals against the lower-cased names requests carry', async () => {
    const ok = await app.inject({ method: 'GET', url: '/header', headers: { 'x-tenant': 'acme' } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { got: 'acme' });
    const missing = await app.inject({ method: 'GET', url: '/header' });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().message, /x-tenant/);
    assert.equal((await app.inject({ method: 'GET', url: '/header', headers: { 'x-tenant': 'ACME' } })).statusCode, 400);
  });

  it('compiles a schema only when a request needs it: a broken one fails that route, not the start', async () => {
    const res = await app.inject({ method: 'GET', url: '/broken' });
    assert.equal(res.statusCode, 500);
    assert.notEqual(res.json().reached, true);
  });
});
