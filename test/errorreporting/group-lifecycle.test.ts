// How groups form and change through reports, seen through the googleapis client: one group for the same failure in
// several services (ErrorGroup.group_id), and a RESOLVED group reopened when its error occurs again (ResolutionStatus).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const trace = (fn: string) => `Error: connection refused\n    at ${fn} (/srv/db.js:20:11)\n    at start (/srv/main.js:4:3)`;

for (const database of DATABASES) {
  describe(`errorreporting group lifecycle (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
    });
    after(async () => t.close());

    const client = () => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: DEV_TOKEN });
      return google.clouderrorreporting({ version: 'v1beta1', rootUrl: t.url('errorreporting') + '/', auth });
    };
    const reporter = () => google.clouderrorreporting({ version: 'v1beta1', rootUrl: t.url('errorreporting') + '/', auth: DEV_API_KEY });
    const report = (projectName: string, service: string, fn: string, version?: string, eventTime?: string) =>
      reporter().projects.events.report({ projectName, requestBody: { serviceContext: version ? { service, version } : { service }, message: trace(fn), eventTime } });
    const groupStats = async (params: { projectName: string; 'serviceFilter.service'?: string }) =>
      (await client().projects.groupStats.list(params)).data.errorGroupStats ?? [];

    it('puts the same failure from different services in one group', async () => {
      const projectName = 'projects/shared-failure';
      await report(projectName, 'web', 'connect', 'v1');
      await report(projectName, 'worker', 'connect');
      await report(projectName, 'worker', 'connect');

      const stats = await groupStats({ projectName });
      assert.equal(stats.length, 1);
      const [group] = stats;
      assert.equal(group.count, '3');
      assert.deepEqual(group.affectedServices, [{ service: 'web', version: 'v1' }, { service: 'worker' }]);
      assert.equal(group.numAffectedServices, 2);

      // The service filter narrows the counts of that one group.
      const worker = await groupStats({ projectName, 'serviceFilter.service': 'worker' });
      assert.deepEqual(
        worker.map((s) => [s.group?.groupId, s.count, s.numAffectedServices]),
        [[group.group?.groupId, '2', 1]],
      );
      const events = await client().projects.events.list({ projectName, groupId: group.group!.groupId! });
      assert.deepEqual(events.data.errorEvents?.map((e) => e.serviceContext?.service).sort(), ['web', 'worker', 'worker']);
    });

    it('keeps different failures of one service apart', async () => {
      const projectName = 'projects/two-failures';
      await report(projectName, 'web', 'connect');
      await report(projectName, 'web', 'query');
      const stats = await groupStats({ projectName });
      assert.equal(stats.length, 2);
    });

    it('writes back a group read through the location path under its project path, and the other way round', async () => {
      const projectName = 'projects/two-name-forms';
      await report(projectName, 'web', 'connect');
      const regional = (await client().projects.locations.groupStats.list({ projectName: `${projectName}/locations/global` })).data.errorGroupStats!;
      const group = regional[0].group!;
      const projectForm = `${projectName}/groups/${group.groupId}`;
      const acknowledged = await client().projects.groups.update({ name: projectForm, requestBody: { ...group, resolutionStatus: 'ACKNOWLEDGED' } });
      assert.deepEqual(acknowledged.data, { name: projectForm, groupId: group.groupId, resolutionStatus: 'ACKNOWLEDGED' });
      const resolved = await client().projects.locations.groups.update({ name: group.name!, requestBody: { ...acknowledged.data, resolutionStatus: 'RESOLVED' } });
      assert.equal(resolved.data.resolutionStatus, 'RESOLVED');
      // Another group's name, in either form, is still refused and changes nothing.
      for (const name of [`${projectName}/groups/Cother`, `${projectName}/locations/global/groups/Cother`]) {
        await assert.rejects(client().projects.groups.update({ name: projectForm, requestBody: { name, resolutionStatus: 'MUTED' } }), (err: any) => {
          assert.equal(err.status, 400);
          assert.equal(err.message, `ErrorGroup.name "${name}" does not match the group in the request path "${projectForm}".`);
          return true;
        });
      }
      assert.equal((await client().projects.groups.get({ groupName: projectForm })).data.resolutionStatus, 'RESOLVED');
    });

    it('reopens a resolved group when its error occurs again, and leaves the other statuses alone', async () => {
      const projectName = 'projects/recurring-failure';
      const statuses: Record<string, string> = { connect: 'RESOLVED', query: 'ACKNOWLEDGED', close: 'MUTED' };
      const names: Record<string, string> = {};
      for (const [fn, resolutionStatus] of Object.entries(statuses)) {
        await report(projectName, 'web', fn);
        const stats = await groupStats({ projectName });
        names[fn] = stats.find((s) => s.representative?.message === trace(fn))!.group!.name!;
        const issue = [{ url: `https://bugs.example/${fn}` }];
        const updated = await client().projects.groups.update({ name: names[fn], requestBody: { resolutionStatus, trackingIssues: issue } });
        assert.equal(updated.data.resolutionStatus, resolutionStatus);
      }

      for (const fn of Object.keys(statuses)) await report(projectName, 'web', fn);

      const after = async (fn: string) => (await client().projects.groups.get({ groupName: names[fn] })).data;
      assert.deepEqual(await after('connect'), {
        name: names.connect,
        groupId: names.connect.split('/').pop(),
        resolutionStatus: 'OPEN',
        trackingIssues: [{ url: 'https://bugs.example/connect' }],
      });
      assert.equal((await after('query')).resolutionStatus, 'ACKNOWLEDGED');
      assert.equal((await after('close')).resolutionStatus, 'MUTED');
    });

    it('does not reopen a resolved group for a report that was only logged', async () => {
      const projectName = 'projects/unanalysed-recurrence';
      await report(projectName, 'web', 'connect');
      const [stats] = await groupStats({ projectName });
      const name = stats.group!.name!;
      await client().projects.groups.update({ name, requestBody: { resolutionStatus: 'RESOLVED' } });
      // With customer-managed encryption on the bucket, reports are logged but not analysed.
      const bucket = await call(`${t.adminUrl}/services/errorreporting/${projectName}/log-bucket`, { method: 'PUT', body: { cmekEnabled: true } });
      assert.equal(bucket.status, 200, bucket.text);
      await report(projectName, 'web', 'connect');
      assert.equal((await client().projects.groups.get({ groupName: name })).data.resolutionStatus, 'RESOLVED');
    });

    it('keeps a resolved group resolved for an event dated before its resolution, and reopens it for a later one', async () => {
      const projectName = 'projects/late-report';
      await report(projectName, 'web', 'connect');
      const [stats] = await groupStats({ projectName });
      const name = stats.group!.name!;
      const resolvedAt = t.rt.clock.now();
      const resolved = await client().projects.groups.update({ name, requestBody: { resolutionStatus: 'RESOLVED' } });
      assert.equal(resolved.data.resolutionStatus, 'RESOLVED');
      const at = (ms: number) => new Date(resolvedAt + ms).toISOString();
      // An event of a millisecond before the resolution, reported after it, is one the fix was meant for.
      await report(projectName, 'web', 'connect', undefined, at(-1));
      assert.equal((await client().projects.groups.get({ groupName: name })).data.resolutionStatus, 'RESOLVED');
      // Resolving it again (later on the clock) keeps the first resolution time.
      await call(`${t.adminUrl}/clock`, { body: { advance: '1h' } });
      await client().projects.groups.update({ name, requestBody: { resolutionStatus: 'RESOLVED', trackingIssues: [{ url: 'https://bugs.example/1' }] } });
      await report(projectName, 'web', 'connect', undefined, at(0));
      assert.deepEqual((await client().projects.groups.get({ groupName: name })).data, {
        name,
        groupId: name.split('/').pop(),
        resolutionStatus: 'OPEN',
        trackingIssues: [{ url: 'https://bugs.example/1' }],
      });
      // Both events are kept and counted, whatever they did to the status.
      const [after] = await groupStats({ projectName });
      assert.equal(after.count, '3');
    });
  });
}
