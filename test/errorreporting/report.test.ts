import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DEV_PRINCIPAL_ID } from '../../src/core/runtime.ts';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TRACE = 'TypeError: boom\n    at handler (/app/index.js:10:5)\n    at main (/app/index.js:3:1)';
const NO_LOCATION = {
  error: {
    code: 400,
    message: 'ReportedErrorEvent.context must contain a location unless `message` contain an exception or stacktrace.',
    status: 'INVALID_ARGUMENT',
  },
};

for (const database of DATABASES) {
  describe(`errorreporting events:report (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    let narrowToken: string;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
      base = t.url('errorreporting');
      narrowToken = (await t.rt.identity.issueCredential({ principalId: DEV_PRINCIPAL_ID, type: 'bearer', scopes: ['https://www.googleapis.com/auth/drive'] })).value;
    });
    after(async () => t.close());

    const reportUrl = (project: string, query = `key=${DEV_API_KEY}`) => `${base}/v1beta1/projects/${project}/events:report?${query}`;
    const logOf = async (project: string) => (await call(`${t.adminUrl}/services/errorreporting/projects/${project}/log`)).body;
    const groupStats = async (project: string) =>
      (await call(`${base}/v1beta1/projects/${project}/groupStats`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } })).body;

    it('accepts an event with an API key and answers {}', async () => {
      const res = await call(reportUrl('good-project'), { body: { serviceContext: { service: 'web', version: 'v1' }, message: TRACE, eventTime: '2026-03-01T13:30:00.250+01:00' } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      const log = await logOf('good-project');
      assert.equal(log.total, 1);
      assert.equal(log.entries[0].eventTime, '2026-03-01T12:30:00.250Z');
      assert.equal(log.entries[0].analysed, true);
    });

    it('accepts a bearer token with either scope, and the encoded path forms', async () => {
      const stackdriverOnly = (await t.rt.identity.issueCredential({ principalId: DEV_PRINCIPAL_ID, type: 'bearer', scopes: ['stackdriver-integration'] })).value;
      const body = { serviceContext: { service: 'worker' }, message: TRACE };
      for (const [url, headers] of [
        [`${base}/v1beta1/projects/path-forms/events:report`, { authorization: `Bearer ${stackdriverOnly}` }],
        [`${base}/v1beta1/projects/path-forms/events:report`, { authorization: `Bearer ${DEV_TOKEN}` }],
        [`${base}/v1beta1/projects%2Fpath-forms/events:report?key=${DEV_API_KEY}`, {}],
        [`${base}/v1beta1/projects/path-forms/events%3Areport?key=${DEV_API_KEY}`, {}],
        [`${base}/v1beta1/projects/123456789/events:report?key=${DEV_API_KEY}`, {}],
      ] as const) {
        const res = await call(url, { body, headers });
        assert.equal(res.status, 200, `${url}: ${res.text}`);
      }
      assert.equal((await logOf('path-forms')).total, 4);
    });

    it('accepts a message without a trace when a report location names the function', async () => {
      const res = await call(reportUrl('good-project'), {
        body: { serviceContext: { service: 'web' }, message: 'quota exceeded', context: { reportLocation: { filePath: 'billing.js', lineNumber: 42, functionName: 'charge' }, user: 'ann' } },
      });
      assert.equal(res.status, 200, res.text);
    });

    const eventsOf = async (project: string) => {
      const [stats] = (await groupStats(project)).errorGroupStats;
      const res = await call(`${base}/v1beta1/projects/${project}/events?groupId=${stats.group.groupId}`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      return res.body.errorEvents;
    };

    it('accepts a trace with the all-default context the Node.js library sends, and keeps only the fields set', async () => {
      const defaults = { httpRequest: { method: '', url: '', userAgent: '', referrer: '', responseStatusCode: 0, remoteIp: '' }, user: '', reportLocation: { filePath: '', lineNumber: 0, functionName: '' } };
      const res = await call(reportUrl('node-library'), { body: { serviceContext: { service: 'node' }, message: TRACE, context: defaults } });
      assert.equal(res.status, 200, res.text);
      const partial = { ...defaults, httpRequest: { ...defaults.httpRequest, method: 'GET', responseStatusCode: 500 }, reportLocation: { filePath: '/app/index.js', lineNumber: 0, functionName: '' } };
      assert.equal((await call(reportUrl('node-library'), { body: { serviceContext: { service: 'node' }, message: TRACE, context: partial } })).status, 200);
      const events = await eventsOf('node-library');
      assert.deepEqual(events.map((e: any) => e.context), [{ httpRequest: { method: 'GET', responseStatusCode: 500 }, reportLocation: { filePath: '/app/index.js' } }, undefined]);
      // Without a trace the function name is still needed, default or absent.
      const noTrace = await call(reportUrl('node-library'), { body: { serviceContext: { service: 'node' }, message: 'quota exceeded', context: defaults } });
      assert.equal(noTrace.status, 400);
      assert.equal(noTrace.body.error.message, 'ReportedErrorEvent.context.report_location.function_name must be set.');
      assert.equal((await logOf('node-library')).total, 2);
    });

    it('reads an empty serviceContext.resourceType as unset', async () => {
      const res = await call(reportUrl('empty-resource-type'), { body: { serviceContext: { service: 'web', version: '', resourceType: '' }, message: TRACE } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual((await eventsOf('empty-resource-type'))[0].serviceContext, { service: 'web' });
    });

    const reportsAll = async (project: string, messages: string[]) => {
      for (const message of messages) {
        const res = await call(reportUrl(project), { body: { serviceContext: { service: 'app' }, message } });
        assert.equal(res.status, 200, `${message}: ${res.text}`);
      }
      assert.deepEqual((await groupStats(project)).errorGroupStats.map((s: any) => s.count), messages.map(() => '1'));
    };

    it('recognises the traces of Node.js errors named with a code', async () => {
      await reportsAll('node-errors', [
        'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string. Received undefined\n    at Object.openSync (node:fs:571:10)\n    at Object.readFileSync (node:fs:452:35)',
        'DOMException [AbortError]: This operation was aborted\n    at new DOMException (node:internal/per_context/domexception:53:5)',
      ]);
    });

    it('recognises traces whose message runs over several lines', async () => {
      await reportsAll('multi-line-messages', [
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n1 !== 2\n\n    at check (/app/check.js:4:10)',
        'Error: first line\nsecond line\n    at check (/app/check.js:4:10)',
        'com.fasterxml.jackson.databind.exc.MismatchedInputException: Cannot deserialize value of type `int`\n at [Source: (String)"{}"; line: 1, column: 1]\n\tat com.fasterxml.jackson.databind.DeserializationContext.reportInputMismatch(DeserializationContext.java:1741)',
        'System.InvalidOperationException: first line\nsecond line\n   at App.Program.Main(String[] args) in /app/Program.cs:line 10',
      ]);
    });

    it('accepts fields under their proto names, as proto3 JSON does, and answers in camelCase', async () => {
      const body = {
        service_context: { service: 'web', version: 'v3' },
        event_time: '2026-03-01T11:00:00Z',
        message: 'quota exceeded',
        context: { http_request: { method: 'GET', response_status_code: 429, remote_ip: '10.0.0.1' }, report_location: { file_path: 'billing.js', line_number: 7, function_name: 'charge' } },
      };
      const res = await call(reportUrl('proto-names'), { body });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await eventsOf('proto-names'), [
        {
          eventTime: '2026-03-01T11:00:00Z',
          serviceContext: { service: 'web', version: 'v3' },
          message: 'quota exceeded',
          context: { httpRequest: { method: 'GET', responseStatusCode: 429, remoteIp: '10.0.0.1' }, reportLocation: { filePath: 'billing.js', lineNumber: 7, functionName: 'charge' } },
        },
      ]);
      const [stats] = (await groupStats('proto-names')).errorGroupStats;
      const groupUrl = `${base}/v1beta1/${stats.group.name}`;
      const auth = { authorization: `Bearer ${DEV_TOKEN}` };
      const put = await call(groupUrl, { method: 'PUT', headers: auth, body: { group_id: stats.group.groupId, resolution_status: 'ACKNOWLEDGED', tracking_issues: [{ url: 'https://bugs.example/7' }] } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual((await call(groupUrl, { headers: auth })).body, { ...stats.group, resolutionStatus: 'ACKNOWLEDGED', trackingIssues: [{ url: 'https://bugs.example/7' }] });
      // A field given under both names is refused, and the group is left as it was.
      const twice = await call(groupUrl, { method: 'PUT', headers: auth, body: { resolutionStatus: 'MUTED', resolution_status: 'RESOLVED' } });
      assert.equal(twice.status, 400);
      assert.equal(twice.body.error.message, 'Invalid JSON payload received. Field "resolutionStatus" is given twice, also as "resolution_status".');
      assert.equal((await call(groupUrl, { headers: auth })).body.resolutionStatus, 'ACKNOWLEDGED');
    });

    const bad: Array<{ name: string; url?: () => string; body?: unknown; raw?: string; headers?: Record<string, string>; status: number; rpc: string; message: string | RegExp }> = [
      { name: 'missing serviceContext', body: { message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'ReportedErrorEvent.service_context must be set.' },
      { name: 'missing service', body: { serviceContext: { version: '1' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'ReportedErrorEvent.service_context.service must be set.' },
      { name: 'missing message', body: { serviceContext: { service: 'web' } }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'ReportedErrorEvent.message must be set.' },
      { name: 'message of the wrong type', body: { serviceContext: { service: 'web' }, message: 7 }, status: 400, rpc: 'INVALID_ARGUMENT', message: "Invalid value at 'event.message' (TYPE_STRING), 7" },
      { name: 'serviceContext of the wrong type', body: { serviceContext: 'web', message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid value at 'event.service_context'/ },
      { name: 'a NUL character in a string', body: { serviceContext: { service: 'web' }, message: TRACE + '\u0000' }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid value at 'event.message' \(TYPE_STRING\)/ },
      { name: 'unparseable eventTime', body: { serviceContext: { service: 'web' }, message: TRACE, eventTime: 'yesterday' }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid value at 'event.event_time'/ },
      { name: 'eventTime older than 30 days', body: { serviceContext: { service: 'web' }, message: TRACE, eventTime: '2026-01-01T00:00:00Z' }, status: 400, rpc: 'INVALID_ARGUMENT', message: /older than the log retention period/ },
      { name: 'eventTime more than 24 h ahead', body: { serviceContext: { service: 'web' }, message: TRACE, eventTime: '2026-03-02T12:00:01Z' }, status: 400, rpc: 'INVALID_ARGUMENT', message: /more than 24 hours in the future/ },
      { name: 'caller-set resourceType', body: { serviceContext: { service: 'web', resourceType: 'gae_app' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: /resource_type is output only/ },
      { name: 'reportLocation without functionName', body: { serviceContext: { service: 'web' }, message: 'x', context: { reportLocation: { filePath: 'a.js' } } }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'ReportedErrorEvent.context.report_location.function_name must be set.' },
      { name: 'a field under both its names', body: { serviceContext: { service: 'web' }, service_context: { service: 'web' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received. Field "serviceContext" is given twice, also as "service_context".' },
      { name: 'unknown field', body: { serviceContext: { service: 'web', team: 'x' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: `Invalid JSON payload received. Unknown name "team" at 'event.service_context': Cannot find field.` },
      { name: 'bad project id form', url: () => reportUrl('Bad_Project'), body: { serviceContext: { service: 'web' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid project name: "projects\/Bad_Project"/ },
      { name: 'not a project name', url: () => `${base}/v1beta1/folders%2F123456/events:report?key=${DEV_API_KEY}`, body: { serviceContext: { service: 'web' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid project name: "folders\/123456"/ },
      { name: 'missing credentials', url: () => `${base}/v1beta1/projects/good-project/events:report`, body: { serviceContext: { service: 'web' }, message: TRACE }, status: 401, rpc: 'UNAUTHENTICATED', message: /^Request is missing required authentication credential/ },
      { name: 'wrong API key', url: () => reportUrl('good-project', 'key=nope'), body: { serviceContext: { service: 'web' }, message: TRACE }, status: 400, rpc: 'INVALID_ARGUMENT', message: 'API key not valid. Please pass a valid API key.' },
      { name: 'unknown bearer token', url: () => reportUrl('good-project', ''), headers: { authorization: 'Bearer nope' }, body: { serviceContext: { service: 'web' }, message: TRACE }, status: 401, rpc: 'UNAUTHENTICATED', message: /^Request had invalid authentication credentials/ },
      { name: 'malformed JSON', raw: '{"serviceContext": {"service": "web"}, "message": ', headers: { 'content-type': 'application/json' }, status: 400, rpc: 'INVALID_ARGUMENT', message: /^Invalid JSON payload received/ },
      { name: 'unsupported content type', raw: 'message=x', headers: { 'content-type': 'text/csv' }, status: 415, rpc: 'INVALID_ARGUMENT', message: /^Unsupported content type/ },
      { name: 'body over 1 MiB', body: { serviceContext: { service: 'web' }, message: TRACE + 'x'.repeat(1024 * 1024) }, status: 413, rpc: 'INVALID_ARGUMENT', message: 'Request payload size exceeds the limit.' },
    ];

    for (const c of bad) {
      it(`rejects ${c.name} with the Google error body and records nothing`, async () => {
        const before = (await logOf('good-project')).total;
        const res = await call(c.url?.() ?? reportUrl('good-project'), { body: c.body, raw: c.raw, headers: c.headers });
        assert.equal(res.status, c.status, res.text);
        assert.equal(res.body.error.code, c.status);
        assert.equal(res.body.error.status, c.rpc);
        if (typeof c.message === 'string') assert.equal(res.body.error.message, c.message);
        else assert.match(res.body.error.message, c.message);
        assert.equal(res.body.error.errors[0].message, res.body.error.message);
        assert.equal((await logOf('good-project')).total, before);
      });
    }

    it('rejects a token without either scope with 403', async () => {
      const before = (await logOf('good-project')).total;
      const res = await call(reportUrl('good-project', ''), { body: { serviceContext: { service: 'web' }, message: TRACE }, headers: { authorization: `Bearer ${narrowToken}` } });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.status, 'PERMISSION_DENIED');
      assert.equal(res.body.error.message, 'Request had insufficient authentication scopes.');
      assert.equal((await logOf('good-project')).total, before);
    });

    it('answers a message without a trace with exactly the real API body', async () => {
      const before = (await logOf('good-project')).total;
      for (const message of ['Something failed', 'Error: no frames', 'Traceback (most recent call last):\nnothing']) {
        const res = await call(reportUrl('good-project'), { body: { serviceContext: { service: 'web' }, message } });
        assert.equal(res.status, 400);
        assert.deepEqual(JSON.parse(res.text), NO_LOCATION);
      }
      assert.equal((await logOf('good-project')).total, before);
    });

    it('applies the log bucket rule: recorded always, analysed only when the spec allows', async () => {
      const admin = `${t.adminUrl}/services/errorreporting/projects/bucket-rule/log-bucket`;
      assert.deepEqual((await call(admin)).body, { cmekEnabled: false, bucketProject: 'bucket-rule', routed: false });
      const send = () => call(reportUrl('bucket-rule'), { body: { serviceContext: { service: 'web' }, message: TRACE } });
      const cases: Array<[Record<string, unknown>, boolean]> = [
        [{ cmekEnabled: true }, false],
        [{ bucketProject: 'central-logs' }, false],
        [{ bucketProject: 'central-logs', routed: true }, true],
        [{ bucketProject: 'central-logs', routed: true, cmekEnabled: true }, false],
        [{}, true],
      ];
      for (const [settings, analysed] of cases) {
        const put = await call(admin, { method: 'PUT', body: settings });
        assert.equal(put.status, 200, put.text);
        assert.equal((await send()).status, 200);
        const log = await logOf('bucket-rule');
        assert.equal(log.entries[0].analysed, analysed, JSON.stringify(settings));
      }
      const stats = await groupStats('bucket-rule');
      assert.equal(stats.errorGroupStats[0].count, '2');
      assert.equal((await logOf('bucket-rule')).total, 5);
    });

    it('rejects bad log bucket settings and keeps the old ones', async () => {
      const admin = `${t.adminUrl}/services/errorreporting/projects/bucket-bad/log-bucket`;
      await call(admin, { method: 'PUT', body: { cmekEnabled: true } });
      for (const body of [{ cmekEnabled: 'yes' }, { bucketProject: 'Not Valid' }, { other: 1 }]) {
        const res = await call(admin, { method: 'PUT', body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.error.message, 'string');
      }
      assert.equal((await call(`${t.adminUrl}/services/errorreporting/projects/Bad_Id/log-bucket`)).status, 400);
      assert.equal((await call(admin)).body.cmekEnabled, true);
    });

    it('answers generated bodies with 200 (one log entry) or a Google 400 (none), never anything else', async () => {
      const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constant(TRACE), fc.constant('\ud800 lone'));
      const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }), fc.constant('2026-03-01T11:00:00.123456789-03:00'));
      const body = fc.record(
        {
          serviceContext: fc.oneof(value, fc.record({ service: value, version: value }, { requiredKeys: [] })),
          message: fc.oneof(value, text.map((t) => t + '\n' + TRACE)),
          eventTime: value,
          context: fc.oneof(value, fc.record({ user: value, reportLocation: fc.record({ functionName: value, filePath: value, lineNumber: value }, { requiredKeys: [] }) }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const before = (await logOf('fuzz-project')).total;
          const res = await call(reportUrl('fuzz-project'), { body: b });
          assert.ok(res.status === 200 || res.status === 400, `${res.status} ${res.text}`);
          if (res.status === 400) assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
          assert.equal((await logOf('fuzz-project')).total, before + (res.status === 200 ? 1 : 0));
        }),
        { numRuns: 60 },
      );
    });

    it('counts concurrent reports of a new group once each, in one group', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => call(reportUrl('race-project'), { body: { serviceContext: { service: 'web' }, message: TRACE } })),
      );
      assert.deepEqual([...new Set(results.map((r) => r.status))], [200]);
      const stats = await groupStats('race-project');
      assert.equal(stats.errorGroupStats.length, 1);
      assert.equal(stats.errorGroupStats[0].count, '20');
    });

    it('keeps events across a restart', async () => {
      await call(reportUrl('durable-project'), { body: { serviceContext: { service: 'web' }, message: TRACE } });
      await t.restart();
      base = t.url('errorreporting');
      const stats = await groupStats('durable-project');
      assert.equal(stats.errorGroupStats.length, 1);
      assert.equal(stats.errorGroupStats[0].count, '1');
      assert.equal((await logOf('durable-project')).total, 1);
    });

    it('empties its tables on an admin reset', async () => {
      await call(`${t.adminUrl}/services/errorreporting/projects/durable-project/log-bucket`, { method: 'PUT', body: { cmekEnabled: true } });
      const res = await call(`${t.adminUrl}/reset`, { body: { service: 'errorreporting' } });
      assert.equal(res.status, 200, res.text);
      assert.equal((await logOf('durable-project')).total, 0);
      assert.equal(await groupStats('durable-project').then((b) => b.errorGroupStats), undefined);
      assert.equal((await call(`${t.adminUrl}/services/errorreporting/projects/durable-project/log-bucket`)).body.cmekEnabled, false);
    });
  });
}
