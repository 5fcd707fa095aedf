import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { google } from 'googleapis';
import { GOOGLE_APIS, type DiscoveryMethod, type DiscoveryResource, type RestDescription } from '../../src/core/google/discovery.ts';
import { SERVICE_IDS, type ServiceId, type ServiceManifest } from '../../src/core/service.ts';
import { manifestOf } from '../../src/services/index.ts';
import { DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

/** The routes each service registers, seen by a hook of the test's own (not by what produces the documents). */
const registered = new Map<ServiceId, Array<{ method: string; url: string }>>();

function recording(manifest: ServiceManifest): ServiceManifest {
  return {
    ...manifest,
    async register(app, ctx) {
      const routes: Array<{ method: string; url: string }> = [];
      registered.set(manifest.id, routes);
      app.addHook('onRoute', (route) => {
        // Fastify adds a HEAD route for every GET; the documents leave those out (a HEAD named explicitly stays).
        if (route.method === 'HEAD') return;
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      });
      await manifest.register(app, ctx);
    },
  };
}

/** Fastify's route syntax in OpenAPI's: `::` is a literal colon, `:name` a parameter, a wildcard `{path}`. */
function openApiPath(url: string): string {
  return url
    .split('::')
    .map((part) => part.replace(/:(\w+)/g, '{$1}').replace('*', '{path}'))
    .join(':');
}

function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((verb) => `${verb.toUpperCase()} ${path}`)).sort();
}

function discoveryMethods(resource: DiscoveryResource): DiscoveryMethod[] {
  return [...Object.values(resource.methods ?? {}), ...Object.values(resource.resources ?? {}).flatMap(discoveryMethods)];
}

describe('service descriptions', () => {
  let t: TestRuntime;
  before(async () => {
    t = await startTestRuntime({
      services: SERVICE_IDS.map((id) => recording(manifestOf(id))),
      database: 'sqlite',
      // The secrets store refuses requests without its request header; its description must still be served.
      settings: { secrets: { requireRequestHeader: true } },
    });
  });
  after(async () => t?.close());

  for (const id of SERVICE_IDS) {
    it(`${id}: serves a valid OpenAPI 3 document without credentials, listing every registered route`, async () => {
      const res = await call(`${t.url(id)}/openapi.json`);
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const result = await new Validator().validate(res.body);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
      assert.equal(res.body.openapi, '3.0.3');
      assert.deepEqual(res.body.servers, [{ url: t.url(id) }]);

      const routes = registered.get(id)!;
      assert.ok(routes.length > 0);
      const expected = [...new Set(routes.map((r) => `${r.method} ${openApiPath(r.url)}`))].sort();
      assert.deepEqual(operationsOf(res.body), expected);
    });
  }

  it('documents a wildcard route as one path whose parameter holds the rest of the URL', async () => {
    const secrets = (await call(`${t.url('secrets')}/openapi.json`)).body;
    assert.deepEqual(Object.keys(secrets.paths), ['/{path}']);
    assert.deepEqual(Object.keys(secrets.paths['/{path}']).sort(), ['delete', 'get', 'head', 'options', 'patch', 'post', 'put']);
    assert.equal(secrets.paths['/{path}'].get.parameters[0].name, 'path');
    // The store still refuses its own paths without the request header.
    assert.equal((await call(`${t.url('secrets')}/v1/sys/health`)).status, 412);
    const bidding = (await call(`${t.url('bidding')}/openapi.json`)).body;
    assert.match(bidding.paths['/v2beta1/{path}'].get.description, /Every path under \/v2beta1\//);
  });

  it('documents path parameters and custom verbs as the router matches them', async () => {
    const doc = (await call(`${t.url('errorreporting')}/openapi.json`)).body;
    const report = doc.paths['/v1beta1/projects/{projectId}/events:report'].post;
    const inPath = report.parameters.filter((p: any) => p.in === 'path');
    assert.deepEqual(inPath.map((p: any) => [p.name, p.required]), [['projectId', true]]);
    assert.ok(report.parameters.some((p: any) => p.in === 'query' && p.name === 'key'), 'the documented query string is listed too');
    assert.ok(report.requestBody.content['application/json'].schema.properties.message, 'and the documented body');
    assert.ok(doc.paths['/v1/entities:search'] === undefined);
    assert.ok((await call(`${t.url('entities')}/openapi.json`)).body.paths['/v1/entities:search'].get);
  });

  it('keeps the Google-style family rules on the description routes (system parameters, prettyPrint)', async () => {
    const bad = await call(`${t.url('calendar')}/openapi.json?alt=xml`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 400);
    const compact = await call(`${t.url('calendar')}/openapi.json?prettyPrint=false`);
    assert.equal(compact.status, 200);
    assert.ok(!compact.text.includes('\n'));
  });

  for (const id of SERVICE_IDS) {
    const api = GOOGLE_APIS[id];
    if (!api) {
      it(`${id}: serves no discovery document (it does not follow a Google API)`, async () => {
        // The secrets store refuses any path of its own without its request header (see the settings above).
        const refused = id === 'secrets' ? 412 : 404;
        assert.equal((await call(`${t.url(id)}/discovery/v1/apis/x/v1/rest`)).status, refused);
        assert.equal((await call(`${t.url(id)}/$discovery/rest`)).status, refused);
      });
      continue;
    }
    it(`${id}: serves a discovery document at both Google addresses, with every route under its API as a method`, async () => {
      const byQuery = await call(`${t.url(id)}/$discovery/rest?version=${api.version}`);
      const byPath = await call(`${t.url(id)}/discovery/v1/apis/${api.name}/${api.version}/rest`);
      assert.equal(byQuery.status, 200, byQuery.text);
      assert.equal(byPath.status, 200, byPath.text);
      assert.deepEqual(byPath.body, byQuery.body);
      const doc = byQuery.body as RestDescription;
      assert.equal(doc.kind, 'discovery#restDescription');
      assert.equal(doc.discoveryVersion, 'v1');
      assert.equal(doc.id, `${api.name}:${api.version}`);
      assert.equal(doc.name, api.name);
      assert.equal(doc.version, api.version);
      assert.equal(doc.rootUrl, `${t.url(id)}/`);
      assert.equal(doc.servicePath, api.servicePath);
      assert.equal(doc.baseUrl, `${t.url(id)}/${api.servicePath}`);
      assert.equal(doc.parameters.key.location, 'query');

      const methods = discoveryMethods(doc);
      assert.equal(new Set(methods.map((m) => m.id)).size, methods.length, 'method ids are unique');
      for (const m of methods) assert.ok(m.id.startsWith(`${api.name}.`), m.id);
      const described = methods.map((m) => `${m.httpMethod} /${api.servicePath}${m.path.replace('{+path}', '{path}')}`).sort();
      const expected = [...new Set(registered.get(id)!.map((r) => `${r.method} ${openApiPath(r.url)}`))]
        .filter((op) => op.split(' ')[1].startsWith(api.routePrefix))
        .sort();
      assert.ok(expected.length > 0);
      assert.deepEqual(described, expected);
      for (const m of methods) {
        for (const name of m.parameterOrder) assert.equal(m.parameters[name].location, 'path');
      }

      const wrongVersion = await call(`${t.url(id)}/$discovery/rest?version=v0`);
      assert.equal(wrongVersion.status, 404);
      assert.equal(wrongVersion.body.error.code, 404);
      assert.equal((await call(`${t.url(id)}/discovery/v1/apis/other/${api.version}/rest`)).status, 404);
    });
  }

  it('names resources and methods after the paths', async () => {
    const doc = (await call(`${t.url('calendar')}/discovery/v1/apis/calendar/v3/rest`)).body as RestDescription;
    const events = doc.resources!.calendars.resources!.events.methods!;
    assert.deepEqual([events.list.httpMethod, events.list.path], ['GET', 'calendars/{calendarId}/events']);
    assert.deepEqual([events.get.httpMethod, events.get.path], ['GET', 'calendars/{calendarId}/events/{eventId}']);
    assert.deepEqual(events.get.parameterOrder, ['calendarId', 'eventId']);
    assert.deepEqual([events.quickAdd.httpMethod, events.quickAdd.path], ['POST', 'calendars/{calendarId}/events/quickAdd']);
    assert.equal(doc.resources!.calendars.methods!.clear.id, 'calendar.calendars.clear');
    const bidding = (await call(`${t.url('bidding')}/$discovery/rest`)).body as RestDescription;
    assert.equal(bidding.methods!.get.path, 'v2beta1/{+path}');
    assert.equal(bidding.methods!.get.parameters.path.pattern, '^.*$');
  });

  it('drives the service through a googleapis client built from its discovery document', async () => {
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: DEV_TOKEN });
    const errors: any = await google.discoverAPI(`${t.url('errorreporting')}/discovery/v1/apis/clouderrorreporting/v1beta1/rest`, { auth } as any);
    const trace = 'Error: disk full\n    at write (/srv/log.js:3:9)';
    const reported = await errors.projects.events.report({ projectId: 'described-project', requestBody: { serviceContext: { service: 'api' }, message: trace } });
    assert.equal(reported.status, 200);
    const stats = await errors.projects.groupStats.list({ projectId: 'described-project' });
    assert.equal(stats.data.errorGroupStats.length, 1);
    assert.equal(stats.data.errorGroupStats[0].count, '1');
  });

  it('describes the upload addresses of methods that take content, so a client built from it uploads', async () => {
    const doc = (await call(`${t.url('files')}/discovery/v1/apis/drive/v2/rest`)).body as RestDescription;
    assert.deepEqual(doc.resources!.files.methods!.insert.mediaUpload!.protocols, {
      simple: { multipart: true, path: '/upload/drive/v2/files' },
      resumable: { multipart: true, path: '/resumable/upload/drive/v2/files' },
    });
    assert.equal(doc.resources!.files.methods!.list.supportsMediaUpload, undefined);

    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: DEV_TOKEN });
    const drive: any = await google.discoverAPI(`${t.url('files')}/$discovery/rest?version=v2`, { auth } as any);
    const created = await drive.files.insert({ requestBody: { title: 'notes.txt' }, media: { mimeType: 'text/plain', body: 'described upload' } });
    assert.equal(created.data.title, 'notes.txt');
    // A discovered method takes no per-call options (a second argument is its callback); gaxios reads text as text.
    const content = await drive.files.get({ fileId: created.data.id, alt: 'media' });
    assert.equal(content.data, 'described upload');
  });
});
