// The error reporting OpenAPI document describes the request parameters and bodies of the public methods, and
// requests derived from that description get no 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { fuzzDocumented } from '../helpers/openapi-requests.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const PROJECT = 'shape-project';

for (const database of DATABASES) {
  describe(`errorreporting OpenAPI shapes (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    let doc: any;
    let groupId: string;

    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
      base = t.url('errorreporting');
      doc = (await call(`${base}/openapi.json`)).body;
      const message = 'TypeError: failed\n    at render (/app/render.js:10:5)';
      const reported = await call(`${base}/v1beta1/projects/${PROJECT}/events:report?key=${DEV_API_KEY}`, { body: { serviceContext: { service: 'web' }, message } });
      assert.equal(reported.status, 200, reported.text);
      const stats = await call(`${base}/v1beta1/projects/${PROJECT}/groupStats`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      groupId = stats.body.errorGroupStats[0].group.groupId;
    });
    after(async () => t.close());

    const operation = (path: string, method: string) => {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} is documented`);
      return op;
    };
    const bodyOf = (path: string, method: string) => operation(path, method).requestBody.content['application/json'].schema;
    const queryOf = (path: string, method: string) => new Map<string, any>(operation(path, method).parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]));

    it('describes the ReportedErrorEvent that events:report takes', () => {
      const event = bodyOf('/v1beta1/projects/{projectId}/events:report', 'post');
      assert.deepEqual(event.required.sort(), ['message', 'serviceContext']);
      assert.equal(event.additionalProperties, false);
      assert.deepEqual(event.properties.serviceContext.required, ['service']);
      assert.equal(event.properties.eventTime.format, 'date-time');
      const location = event.properties.context.properties.reportLocation;
      assert.equal(location.required, undefined);
      assert.equal(location.properties.functionName.type, 'string');
      assert.equal(location.properties.lineNumber.minimum, 0);
      assert.equal(event.properties.context.properties.httpRequest.properties.responseStatusCode.type, 'integer');
    });

    it('describes the ErrorGroup that groups.update takes', () => {
      const group = bodyOf('/v1beta1/projects/{projectId}/groups/{groupId}', 'put');
      assert.deepEqual(group.properties.resolutionStatus.enum, ['RESOLUTION_STATUS_UNSPECIFIED', 'OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'MUTED']);
      assert.deepEqual(group.properties.trackingIssues.items.required, ['url']);
      const param = operation('/v1beta1/projects/{projectId}/locations/{location}/groups/{groupId}', 'put').parameters.find((p: any) => p.name === 'groupId');
      assert.equal(param.schema.pattern, '^[A-Za-z0-9_-]{1,64}$');
    });

    it('describes the parameters of groupStats.list and events.list', () => {
      const stats = queryOf('/v1beta1/projects/{projectId}/groupStats', 'get');
      assert.deepEqual(stats.get('order').schema.enum, ['GROUP_ORDER_UNSPECIFIED', 'COUNT_DESC', 'LAST_SEEN_DESC', 'CREATED_DESC', 'AFFECTED_USERS_DESC']);
      assert.ok(stats.get('timeRange.period').schema.enum.includes('PERIOD_1_WEEK'));
      assert.equal(stats.get('groupId').schema.type, 'array');
      assert.ok(stats.has('serviceFilter.service') && stats.has('timedCountDuration') && stats.has('alignmentTime') && stats.has('fields'));
      const events = queryOf('/v1beta1/projects/{projectId}/locations/{location}/events', 'get');
      assert.equal(events.get('groupId').required, true);
      assert.equal(events.get('pageSize').schema.type, 'integer');
    });

    it('answers requests derived from the document without a 5xx', async () => {
      const findings = await fuzzDocumented(base, doc, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
        pathValues: {
          projectId: [PROJECT, 'other-project', '123456'],
          location: ['global', 'us-central1', '-'],
          projectName: [`projects/${PROJECT}`, `projects/${PROJECT}/locations/global`],
          groupId: [groupId],
          groupName: [`projects/${PROJECT}/groups/${groupId}`],
          method: ['events:report'],
        },
        runs: RUNS,
      });
      assert.deepEqual(findings, []);
    });
  });
}
