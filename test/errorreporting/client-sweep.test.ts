// Every method of projects and projects.locations driven through the googleapis client: the request reaches the route
// with the client's own parameter and body names, lists page through `pageToken`, and each answer matches the
// `Schema$...` type the client declares for it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { clientShapes } from '../helpers/client-shapes.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const PROJECT = 'projects/sweep-project';
const REGIONAL = `${PROJECT}/locations/global`;
const { assert: assertShape, allPages } = clientShapes('clouderrorreporting', 'v1beta1');

/** A trace whose innermost frames differ by `n`, so each makes a group of its own. */
const trace = (n: number) => `Error: failure ${n}\n    at step${n} (/srv/app.js:${n}:1)\n    at run (/srv/main.js:4:3)`;

for (const database of DATABASES) {
  describe(`errorreporting through the googleapis client, every method (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
    });
    after(async () => t.close());

    const client = (auth: string | InstanceType<typeof google.auth.OAuth2>) =>
      google.clouderrorreporting({ version: 'v1beta1', rootUrl: t.url('errorreporting') + '/', auth });
    const withKey = () => client(DEV_API_KEY);
    const withToken = () => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: DEV_TOKEN });
      return client(auth);
    };

    it('reports with every field of ReportedErrorEvent', async () => {
      const reporter = withKey();
      for (const n of [1, 2, 3]) {
        const res = await reporter.projects.events.report({
          projectName: PROJECT,
          requestBody: {
            eventTime: `2026-03-01T11:0${n}:00.5Z`,
            serviceContext: { service: 'api', version: `v${n}` },
            message: trace(n),
            context: {
              httpRequest: { method: 'GET', url: `https://app.example/${n}`, userAgent: 'sweep', referrer: 'https://app.example/', responseStatusCode: 500, remoteIp: '192.0.2.1' },
              user: `user-${n}`,
              reportLocation: { filePath: '/srv/app.js', lineNumber: n, functionName: `step${n}` },
              sourceReferences: [{ repository: 'https://git.example/app', revisionId: 'abc123' }],
            },
          },
        });
        assertShape('ReportErrorEventResponse', res.data);
      }
      await reporter.projects.events.report({ projectName: PROJECT, requestBody: { serviceContext: { service: 'api', version: 'v1' }, message: trace(1), eventTime: '2026-03-01T11:30:00Z' } });
    });

    for (const [scope, projectName] of [['projects', PROJECT], ['projects.locations', REGIONAL]] as const) {
      it(`${scope}: groupStats.list and events.list with paging, groups.get and groups.update`, async () => {
        const reader = withToken();
        const projects = reader.projects;
        const level = scope === 'projects' ? projects : projects.locations;
        const stats = await allPages<{ group: { name: string; groupId: string }; count: string }>('ListGroupStatsResponse', 'errorGroupStats', (pageToken) =>
          level.groupStats.list({
            projectName,
            pageSize: 1,
            pageToken,
            'timeRange.period': 'PERIOD_1_DAY',
            timedCountDuration: '600s',
            alignment: 'ALIGNMENT_EQUAL_ROUNDED',
            alignmentTime: '2026-03-01T00:00:00Z',
            order: 'COUNT_DESC',
            'serviceFilter.service': 'api',
          }),
        );
        assert.equal(stats.pages, 3);
        assert.deepEqual(stats.items.map((s) => s.count), ['2', '1', '1']);
        const [group] = stats.items.map((s) => s.group);
        assert.ok(group.name.startsWith(`${projectName}/groups/`), group.name);

        const named = await level.groupStats.list({ projectName, groupId: [group.groupId], 'serviceFilter.version': 'v1', 'serviceFilter.resourceType': '' });
        assertShape('ListGroupStatsResponse', named.data);

        const events = await allPages<{ eventTime: string }>('ListEventsResponse', 'errorEvents', (pageToken) =>
          level.events.list({ projectName, groupId: group.groupId, pageSize: 1, pageToken, 'timeRange.period': 'PERIOD_1_WEEK', 'serviceFilter.service': 'api', 'serviceFilter.version': 'v1' }),
        );
        assert.deepEqual(events.items.map((e) => e.eventTime), ['2026-03-01T11:30:00Z', '2026-03-01T11:01:00.500Z']);

        const got = await level.groups.get({ groupName: group.name });
        assertShape('ErrorGroup', got.data);
        const updated = await level.groups.update({ name: group.name, requestBody: { name: group.name, groupId: group.groupId, resolutionStatus: 'ACKNOWLEDGED', trackingIssues: [{ url: 'https://bugs.example/1' }] } });
        assertShape('ErrorGroup', updated.data);
        assert.equal(updated.data.resolutionStatus, 'ACKNOWLEDGED');
      });
    }

    it('projects.locations.deleteEvents, then projects.deleteEvents', async () => {
      const reader = withToken();
      assertShape('DeleteEventsResponse', (await reader.projects.locations.deleteEvents({ projectName: `${PROJECT}/locations/us-central1` })).data);
      assert.equal((await reader.projects.groupStats.list({ projectName: PROJECT })).data.errorGroupStats?.length, 3);
      assertShape('DeleteEventsResponse', (await reader.projects.locations.deleteEvents({ projectName: REGIONAL })).data);
      assert.equal((await reader.projects.groupStats.list({ projectName: PROJECT })).data.errorGroupStats, undefined);
      await withKey().projects.events.report({ projectName: PROJECT, requestBody: { serviceContext: { service: 'api' }, message: trace(4) } });
      assertShape('DeleteEventsResponse', (await reader.projects.deleteEvents({ projectName: PROJECT })).data);
      const after = await reader.projects.groupStats.list({ projectName: PROJECT });
      assertShape('ListGroupStatsResponse', after.data);
      assert.equal(after.data.errorGroupStats, undefined);
    });
  });
}
