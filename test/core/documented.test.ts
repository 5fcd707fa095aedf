import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { SYSTEM_PARAMETERS } from '../../src/core/google/parameters.ts';
import { googleQuery } from '../../src/core/google/query-schema.ts';
import { documented } from '../../src/core/http/documented.ts';
import { stringEnum } from '../../src/core/http/schema-types.ts';
import { createListener } from '../../src/core/http/listener.ts';
import { serveOpenApi } from '../../src/core/http/openapi.ts';

describe('documented route schemas', () => {
  it('describe the body in the OpenAPI document but leave checking to the handler', async () => {
    const app = createListener({ name: 't', log: pino({ level: 'silent' }) });
    await serveOpenApi(app, { title: 't' });
    const Body = Type.Object({ name: Type.String({ maxLength: 3 }) }, { additionalProperties: false });
    app.post('/things', documented({ body: Body }), async (req) => ({ got: req.body }));
    app.post('/enforced', { schema: { body: Body } }, async (req) => ({ got: req.body }));
    await app.ready();
    const loose = await app.inject({ method: 'POST', url: '/things', payload: { name: 'too long', extra: 1 } });
    assert.equal(loose.statusCode, 200);
    assert.deepEqual(loose.json(), { got: { name: 'too long', extra: 1 } });
    const strict = await app.inject({ method: 'POST', url: '/enforced', payload: { name: 'too long' } });
    assert.equal(strict.statusCode, 400, 'an ordinary route schema is still enforced');
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schema = doc.paths['/things'].post.requestBody.content['application/json'].schema;
    assert.equal(schema.properties.name.maxLength, 3);
    await app.close();
  });
});

describe('googleQuery', () => {
  it('describes a method parameter beside every system parameter the family accepts', async () => {
    const schema = googleQuery({ pageSize: Type.Optional(Type.Integer()) });
    assert.deepEqual(Object.keys(schema.properties).sort(), [...SYSTEM_PARAMETERS, 'pageSize'].sort());
    assert.equal(schema.additionalProperties, false);
  });

  it('leaves the query string open for a method that ignores unknown parameters', async () => {
    const own = { pageSize: Type.Optional(Type.Integer()) };
    const ignoring = googleQuery(own, { unknownParameters: 'ignored' });
    assert.equal(ignoring.additionalProperties, true);
    assert.deepEqual(Object.keys(ignoring.properties), Object.keys(googleQuery(own).properties));
    assert.equal(googleQuery(own, { unknownParameters: 'refused' }).additionalProperties, false);
  });
});

describe('stringEnum', () => {
  it('is a plain string enum carrying the given options', async () => {
    assert.deepEqual(JSON.parse(JSON.stringify(stringEnum(['a', 'b'], { description: 'd' }))), { type: 'string', enum: ['a', 'b'], description: 'd' });
  });
});
