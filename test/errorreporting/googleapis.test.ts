import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TRACE = 'Error: connection refused\n    at connect (/srv/db.js:20:11)\n    at start (/srv/main.js:4:3)';

for (const database of DATABASES) {
  describe(`errorreporting through the googleapis client (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
    });
    after(async () => t.close());

    // An API key (a string `auth`) for reporting; an OAuth client with a fixed token for reading.
    const withKey = () => google.clouderrorreporting({ version: 'v1beta1', rootUrl: t.url('errorreporting') + '/', auth: DEV_API_KEY });
    const withToken = () => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: DEV_TOKEN });
      return google.clouderrorreporting({ version: 'v1beta1', rootUrl: t.url('errorreporting') + '/', auth });
    };

    it('reports an event and sees it in groupStats and events.list, also after a restart', async () => {
      const res = await withKey().projects.events.report({
        projectName: 'projects/client-project',
        requestBody: { serviceContext: { service: 'api', version: '7' }, message: TRACE, eventTime: '2026-03-01T11:59:00+00:30' },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.data, {});

      await t.restart();
      const reader = withToken();
      const stats = await reader.projects.groupStats.list({ projectName: 'projects/client-project', 'timeRange.period': 'PERIOD_1_DAY', timedCountDuration: '3600s' });
      assert.equal(stats.data.errorGroupStats?.length, 1);
      const group = stats.data.errorGroupStats![0];
      assert.equal(group.count, '1');
      assert.deepEqual(group.affectedServices, [{ service: 'api', version: '7' }]);
      const events = await reader.projects.events.list({ projectName: 'projects/client-project', groupId: group.group!.groupId! });
      assert.equal(events.data.errorEvents?.[0].eventTime, '2026-03-01T11:29:00Z');
      assert.equal(events.data.errorEvents?.[0].message, TRACE);
    });

    it('updates and reads a group, then deletes the events', async () => {
      const reader = withToken();
      const stats = await reader.projects.groupStats.list({ projectName: 'projects/client-project' });
      const name = stats.data.errorGroupStats![0].group!.name!;
      const updated = await reader.projects.groups.update({ name, requestBody: { name, resolutionStatus: 'ACKNOWLEDGED', trackingIssues: [{ url: 'https://bugs.example/42' }] } });
      assert.equal(updated.data.resolutionStatus, 'ACKNOWLEDGED');
      const got = await reader.projects.groups.get({ groupName: name });
      assert.deepEqual(got.data.trackingIssues, [{ url: 'https://bugs.example/42' }]);
      const regional = await reader.projects.locations.groupStats.list({ projectName: 'projects/client-project/locations/global' });
      assert.equal(regional.data.errorGroupStats?.[0].group?.name, name.replace('/groups/', '/locations/global/groups/'));
      const deleted = await reader.projects.deleteEvents({ projectName: 'projects/client-project' });
      assert.deepEqual(deleted.data, {});
      const after = await reader.projects.groupStats.list({ projectName: 'projects/client-project' });
      assert.equal(after.data.errorGroupStats, undefined);
    });

    it('surfaces the Google error of a rejected report', async () => {
      await assert.rejects(
        withKey().projects.events.report({ projectName: 'projects/client-project', requestBody: { serviceContext: { service: 'api' }, message: 'no trace at all' } }),
        (err: any) => {
          assert.equal(err.status ?? err.code, 400);
          assert.equal(err.message, 'ReportedErrorEvent.context must contain a location unless `message` contain an exception or stacktrace.');
          return true;
        },
      );
      await assert.rejects(
        withKey().projects.events.report({ projectName: 'projects/client-project', requestBody: { serviceContext: { service: 'api', resourceType: 'gce_instance' }, message: TRACE } }),
        (err: any) => err.status === 400 || err.code === 400,
      );
      const stats = await withToken().projects.groupStats.list({ projectName: 'projects/client-project' });
      assert.equal(stats.data.errorGroupStats, undefined);
    });
  });
}
