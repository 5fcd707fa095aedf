import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { SystemClock } from '../../src/core/clock.ts';
import { Vault } from '../../src/core/crypto.ts';
import type { Database } from '../../src/core/db/index.ts';
import { createListener } from '../../src/core/http/listener.ts';
import { REDACT_PATHS } from '../../src/core/http/redact.ts';
import { Identity } from '../../src/core/identity.ts';
import { authenticateGoogle, decodePageToken, encodePageToken, installGoogleFamily, invalidArgument, notFound } from '../../src/core/google/index.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

describe('Google-style family', () => {
  let app: FastifyInstance;
  let tdb: TestDatabase;
  let db: Database;
  let identity: Identity;
  const logLines: string[] = [];

  before(async () => {
    tdb = testDatabase('sqlite');
    db = await tdb.open();
    identity = new Identity(db.kysely, new SystemClock(), new Vault(Buffer.alloc(32, 7)));
    await identity.createPrincipal({ id: 'p1', kind: 'user', name: 'P' });
    await identity.issueCredential({ principalId: 'p1', type: 'api_key', value: 'good-api-key' });
    await identity.issueCredential({ principalId: 'p1', type: 'bearer', value: 'cloud-token', scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
    await identity.issueCredential({ principalId: 'p1', type: 'bearer', value: 'drive-token', scopes: ['drive'] });
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    const log = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    app = createListener({ name: 'test', log, bodyLimit: 1024 });
    installGoogleFamily(app);
    app.get('/v1/things', async () => ({ items: [{ id: 'a', name: 'A', extra: { x: 1, y: 2 } }], nextPageToken: 't' }));
    app.post('/v1/things', async (req) => ({ got: req.body }));
    app.get('/v1/missing', async () => {
      throw notFound();
    });
    app.get('/v1/bad', async () => {
      throw invalidArgument('Invalid value for name', 'name');
    });
    app.get('/v1/crash', async () => {
      throw new Error('secret internals');
    });
    app.get('/v1/authed', async (req) => {
      const caller = await authenticateGoogle(req, identity, { scopes: ['cloud-platform'], apiKey: true });
      return { principal: caller.principal.id, via: caller.via };
    });
    app.get('/v1/oauth-only', async (req) => {
      await authenticateGoogle(req, identity, { scopes: ['cloud-platform'], apiKey: false });
      return {};
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
    await tdb.dispose();
  });

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body };
  };

  it('pretty-prints by default and compacts with prettyPrint=false', async () => {
    assert.match((await get('/v1/things')).raw, /\n {2}"items"/);
    assert.doesNotMatch((await get('/v1/things?prettyPrint=false')).raw, /\n/);
  });

  it('applies a fields selection', async () => {
    const { body } = await get('/v1/things?fields=items(id,extra/y)');
    assert.deepEqual(body, { items: [{ id: 'a', extra: { y: 2 } }] });
  });

  it('accepts every system parameter it does not act on', async () => {
    const res = await get('/v1/things?quotaUser=u1&upload_protocol=raw&$.xgafv=2&callback=cb&userIp=1.2.3.4&alt=json');
    assert.equal(res.status, 200);
  });

  it('rejects malformed system parameters with the error body', async () => {
    for (const [query, location] of [['fields=items(', 'fields'], ['alt=xml', 'alt'], ['alt=media', 'alt'], ['$.xgafv=3', '$.xgafv'], [`quotaUser=${'q'.repeat(41)}`, 'quotaUser']]) {
      const res = await get(`/v1/things?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 400);
      assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
      assert.equal(res.body.error.errors[0].location, location);
    }
  });

  it('renders thrown errors, unknown routes, bad JSON, big bodies and crashes in the envelope', async () => {
    let res = await get('/v1/missing');
    assert.deepEqual(res.body, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', errors: [{ domain: 'global', reason: 'notFound', message: 'Requested entity was not found.' }] } });
    res = await get('/v1/bad');
    assert.equal(res.body.error.errors[0].location, 'name');
    res = await get('/v1/nowhere');
    assert.equal(res.status, 404);
    assert.equal(res.body.error.status, 'NOT_FOUND');
    const bad = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).error.message, /^Invalid JSON payload received/);
    const big = await app.inject({ method: 'POST', url: '/v1/things', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(2000) }) });
    assert.equal(big.statusCode, 413);
    assert.equal(JSON.parse(big.body).error.code, 413);
    res = await get('/v1/crash');
    assert.equal(res.status, 500);
    assert.equal(res.body.error.message, 'Internal error encountered.');
    assert.doesNotMatch(res.raw, /secret internals/);
  });

  it('authenticates API keys and bearer tokens with scopes', async () => {
    assert.deepEqual((await get('/v1/authed?key=good-api-key')).body, { principal: 'p1', via: 'api_key' });
    assert.deepEqual((await get('/v1/authed', { authorization: 'Bearer cloud-token' })).body, { principal: 'p1', via: 'bearer' });
    assert.deepEqual((await get('/v1/authed?access_token=cloud-token')).body, { principal: 'p1', via: 'bearer' });
    let res = await get('/v1/authed');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.status, 'UNAUTHENTICATED');
    res = await get('/v1/authed?key=wrong-key');
    assert.equal(res.status, 400);
    assert.equal(res.body.error.message, 'API key not valid. Please pass a valid API key.');
    res = await get('/v1/authed', { authorization: 'Bearer not-a-token' });
    assert.equal(res.status, 401);
    res = await get('/v1/authed', { authorization: 'Bearer drive-token' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.message, 'Request had insufficient authentication scopes.');
    res = await get('/v1/oauth-only?key=good-api-key');
    assert.equal(res.status, 401);
  });

  it('never writes credentials to the log', async () => {
    await get('/v1/authed?key=good-api-key&fields=principal');
    await get('/v1/authed', { authorization: 'Bearer cloud-token' });
    const text = logLines.join('');
    assert.match(text, /"url":"\/v1\/authed\?key=\[redacted\]&fields=principal"/);
    assert.doesNotMatch(text, /good-api-key|cloud-token/);
  });

  it('binds page tokens to their query', () => {
    const token = encodePageToken({ offset: 20 }, 'list:a');
    assert.deepEqual(decodePageToken(token, 'list:a'), { offset: 20 });
    assert.throws(() => decodePageToken(token, 'list:b'), /Invalid page token/);
    assert.throws(() => decodePageToken('garbage!', 'list:a'), /Invalid page token/);
  });
});

describe('listener framework errors', () => {
  it('answers an undecodable URL in the family envelope', async () => {
    const app = createListener({ name: 'fw', log: pino({ level: 'silent' }) });
    installGoogleFamily(app);
    app.get('/v1/things/:id', async () => ({}));
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/v1/things/%E0%A4%A' });
    assert.equal(res.statusCode, 400);
    const body = JSON.parse(res.body);
    assert.equal(body.error.code, 400);
    assert.equal(body.error.status, 'INVALID_ARGUMENT');
    await app.close();
  });
});
