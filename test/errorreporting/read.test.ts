import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const AUTH = { authorization: `Bearer ${DEV_TOKEN}` };
const trace = (type: string, fn: string) => `${type}: failed\n    at ${fn} (/app/${fn}.js:10:5)\n    at main (/app/main.js:3:1)`;

for (const database of DATABASES) {
  describe(`errorreporting read side (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    const P = 'read-project';
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
      base = t.url('errorreporting');
    });
    after(async () => t.close());

    const report = async (body: Record<string, unknown>, project = P) => {
      const res = await call(`${base}/v1beta1/projects/${project}/events:report?key=${DEV_API_KEY}`, { body });
      assert.equal(res.status, 200, res.text);
    };
    const get = (path: string, headers: Record<string, string> = AUTH) => call(`${base}/v1beta1/projects/${P}/${path}`, { headers });
    const moveClock = (advance: string) => call(`${t.adminUrl}/clock`, { body: { advance } });
    let groupA: string;
    let groupB: string;

    before(async () => {
      // Group A: three events (two users) from web v1 and web v2; group B: one event from the worker service, an hour
      // earlier; group C: a report location without a trace.
      await report({ serviceContext: { service: 'worker' }, message: trace('RangeError', 'drain'), eventTime: '2026-03-01T11:00:00Z' });
      await report({ serviceContext: { service: 'web', version: 'v1' }, message: trace('TypeError', 'render'), eventTime: '2026-03-01T11:30:00Z', context: { user: 'ann' } });
      await report({ serviceContext: { service: 'web', version: 'v2' }, message: trace('TypeError', 'render'), eventTime: '2026-03-01T11:45:00.123456Z', context: { user: 'bob' } });
      await report({ serviceContext: { service: 'web', version: 'v2' }, message: trace('TypeError', 'render'), context: { user: 'bob', httpRequest: { method: 'GET', url: '/x', responseStatusCode: 500 } } });
      await report({ serviceContext: { service: 'cron' }, message: 'nightly job skipped', eventTime: '2026-03-01T10:00:00Z', context: { reportLocation: { functionName: 'nightly', filePath: 'cron.js' } } });
      const stats = (await get('groupStats')).body.errorGroupStats;
      groupA = stats[0].group.groupId;
      groupB = stats.find((s: any) => s.affectedServices[0].service === 'worker').group.groupId;
    });

    it('lists group stats by count with int64 strings, users, services, first/last seen and a representative', async () => {
      const res = await get('groupStats?timedCountDuration=3600s&timeRange.period=PERIOD_1_DAY');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.timeRangeBegin, '2026-02-28T12:00:00Z');
      const [a, ...rest] = res.body.errorGroupStats;
      assert.equal(rest.length, 2);
      // The worker's event names no user: its zero affectedUsersCount is left out, as proto3 JSON does.
      const worker = rest.find((s: any) => s.group.groupId === groupB);
      assert.equal(worker.count, '1');
      assert.equal(Object.hasOwn(worker, 'affectedUsersCount'), false);
      assert.deepEqual(a.group, { name: `projects/${P}/groups/${groupA}`, groupId: groupA, resolutionStatus: 'OPEN' });
      assert.equal(a.count, '3');
      assert.equal(a.affectedUsersCount, '2');
      assert.equal(a.firstSeenTime, '2026-03-01T11:30:00Z');
      assert.equal(a.lastSeenTime, '2026-03-01T12:00:00Z');
      assert.deepEqual(a.affectedServices, [{ service: 'web', version: 'v1' }, { service: 'web', version: 'v2' }]);
      assert.equal(a.numAffectedServices, 2);
      assert.deepEqual(a.timedCounts, [{ count: '3', startTime: '2026-03-01T11:00:00Z', endTime: '2026-03-01T12:00:00Z' }]);
      assert.equal(a.representative.serviceContext.service, 'web');
      assert.deepEqual(a.representative.context.httpRequest, { method: 'GET', url: '/x', responseStatusCode: 500 });
    });

    it('honours the fields selector', async () => {
      const res = await get(`groupStats?groupId=${groupA}&fields=errorGroupStats(count,group/groupId)`);
      assert.deepEqual(res.body, { errorGroupStats: [{ count: '3', group: { groupId: groupA } }] });
      const dotted = await get(`groupStats?groupId=${groupA}&fields=errorGroupStats(group.groupId,count)`);
      assert.deepEqual(dotted.body, res.body);
    });

    it('aligns timed counts on a rounded alignment time', async () => {
      const res = await get(`groupStats?groupId=${groupA}&timedCountDuration=1800s&alignment=ALIGNMENT_EQUAL_ROUNDED&alignmentTime=2026-03-01T00:15:00Z`);
      assert.deepEqual(res.body.errorGroupStats[0].timedCounts, [
        { count: '1', startTime: '2026-03-01T11:15:00Z', endTime: '2026-03-01T11:45:00Z' },
        { count: '2', startTime: '2026-03-01T11:45:00Z', endTime: '2026-03-01T12:00:00Z' },
      ]);
    });

    it('orders by last seen, creation and affected users, and filters by service', async () => {
      const ids = async (q: string) => (await get(`groupStats?${q}`)).body.errorGroupStats?.map((s: any) => s.group.groupId) ?? [];
      assert.deepEqual((await ids('order=LAST_SEEN_DESC')).slice(0, 2), [groupA, groupB]);
      assert.equal((await ids('order=CREATED_DESC')).length, 3);
      assert.equal((await ids('order=AFFECTED_USERS_DESC'))[0], groupA);
      assert.deepEqual(await ids('serviceFilter.service=worker'), [groupB]);
      assert.deepEqual(await ids('serviceFilter.service=web&serviceFilter.version=v1'), [groupA]);
      assert.deepEqual(await ids('serviceFilter.service=nobody'), []);
      assert.deepEqual(await ids(`groupId=${groupB}`), [groupB]);
    });

    it('pages group stats with a token bound to the query', async () => {
      const first = await get('groupStats?pageSize=2');
      assert.equal(first.body.errorGroupStats.length, 2);
      const token = first.body.nextPageToken;
      assert.equal(typeof token, 'string');
      const second = await get(`groupStats?pageSize=2&pageToken=${token}`);
      assert.equal(second.body.errorGroupStats.length, 1);
      assert.equal(second.body.nextPageToken, undefined);
      const wrong = await get(`groupStats?pageSize=2&order=LAST_SEEN_DESC&pageToken=${token}`);
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error.message, 'Invalid page token.');
    });

    it('lists the events of a group newest first, with paging', async () => {
      const res = await get(`events?groupId=${groupA}&pageSize=2`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.errorEvents.map((e: any) => e.eventTime), ['2026-03-01T12:00:00Z', '2026-03-01T11:45:00.123456Z']);
      assert.deepEqual(res.body.errorEvents[1].serviceContext, { service: 'web', version: 'v2' });
      const next = await get(`events?groupId=${groupA}&pageSize=2&pageToken=${res.body.nextPageToken}`);
      assert.deepEqual(next.body.errorEvents.map((e: any) => e.context.user), ['ann']);
      assert.equal(next.body.nextPageToken, undefined);
    });

    it('moves time ranges with the clock', async () => {
      assert.equal((await moveClock('2h')).status, 200);
      const hour = await get('groupStats?timeRange.period=PERIOD_1_HOUR');
      assert.equal(hour.body.errorGroupStats, undefined);
      assert.equal(hour.body.timeRangeBegin, '2026-03-01T13:00:00Z');
      const sixHours = await get('groupStats?timeRange.period=PERIOD_6_HOURS');
      assert.equal(sixHours.body.errorGroupStats.length, 3);
      assert.equal((await get(`events?groupId=${groupA}&timeRange.period=PERIOD_1_HOUR`)).body.errorEvents, undefined);
      await moveClock('7d');
      assert.equal((await get('groupStats?timeRange.period=PERIOD_1_WEEK')).body.errorGroupStats, undefined);
      assert.equal((await get('groupStats?timeRange.period=PERIOD_30_DAYS')).body.errorGroupStats.length, 3);
      assert.equal((await get('groupStats')).body.errorGroupStats.length, 3);
    });

    it('rejects bad read parameters and API keys', async () => {
      const cases: Array<[string, number, RegExp]> = [
        ['groupStats?order=BIGGEST', 400, /^Invalid value at 'order' \(type\.googleapis\.com\/google\.devtools\.clouderrorreporting\.v1beta1\.ErrorGroupOrder\), "BIGGEST"$/],
        ['groupStats?timeRange.period=PERIOD_1_YEAR', 400, /^Invalid value at 'time_range.period'/],
        ['groupStats?timedCountDuration=1h', 400, /^Invalid value at 'timed_count_duration'/],
        ['groupStats?timedCountDuration=99999999999999999999s', 400, /^Invalid value at 'timed_count_duration'/],
        ['groupStats?serviceFilter.service=a%00b', 400, /^Invalid value for serviceFilter.service/],
        ['groupStats?pageToken=garbage', 400, /^Invalid page token/],
        ['groupStats?alignmentTime=noon', 400, /^Invalid value at 'alignment_time'/],
        ['groupStats?pageSize=-1', 400, /pageSize/],
        ['groupStats?colour=red', 400, /^Invalid JSON payload received. Unknown name "colour"/],
        ['events', 400, /^groupId must be set/],
        ['events?groupId=a%20b', 400, /^Invalid group id/],
      ];
      for (const [path, status, message] of cases) {
        const res = await get(path);
        assert.equal(res.status, status, path);
        assert.match(res.body.error.message, message, path);
      }
      const key = await get('groupStats', {});
      assert.equal(key.status, 401);
      const apiKey = await call(`${base}/v1beta1/projects/${P}/groupStats?key=${DEV_API_KEY}`);
      assert.equal(apiKey.status, 401);
      assert.match(apiKey.body.error.message, /^API keys are not supported by this API/);
      const badProject = await call(`${base}/v1beta1/projects/X/groupStats`, { headers: AUTH });
      assert.equal(badProject.status, 400);
    });

    it('gets and updates a group; muted groups leave groupStats unless asked for', async () => {
      const name = `projects/${P}/groups/${groupB}`;
      let res = await get(`groups/${groupB}`);
      assert.deepEqual(res.body, { name, groupId: groupB, resolutionStatus: 'OPEN' });
      res = await call(`${base}/v1beta1/${name}`, { method: 'PUT', headers: AUTH, body: { name, resolutionStatus: 'MUTED', trackingIssues: [{ url: 'https://issues.example/1' }] } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { name, groupId: groupB, resolutionStatus: 'MUTED', trackingIssues: [{ url: 'https://issues.example/1' }] });
      assert.deepEqual((await call(`${base}/v1beta1/projects%2F${P}%2Fgroups%2F${groupB}`, { headers: AUTH })).body, res.body);
      const all = (await get('groupStats')).body.errorGroupStats.map((s: any) => s.group.groupId);
      assert.ok(!all.includes(groupB));
      assert.equal((await get(`groupStats?groupId=${groupB}`)).body.errorGroupStats[0].group.resolutionStatus, 'MUTED');
      // Named groups appear even with no events in the range, with their all-time first and last seen. Their zero
      // counts are left out, as proto3 JSON leaves out every scalar at its default.
      const zero = (await get(`groupStats?groupId=${groupB}&groupId=${groupA}&timeRange.period=PERIOD_1_HOUR&timedCountDuration=600s`)).body.errorGroupStats;
      assert.deepEqual(zero.map((s: any) => s.group.groupId).sort(), [groupA, groupB].sort());
      for (const field of ['count', 'affectedUsersCount', 'numAffectedServices', 'affectedServices']) {
        assert.deepEqual(zero.map((s: any) => Object.hasOwn(s, field)), [false, false], field);
      }
      // Without buckets, timedCounts is left out like every empty list.
      assert.deepEqual(zero.map((s: any) => Object.hasOwn(s, 'timedCounts')), [false, false]);
      assert.equal(zero.find((s: any) => s.group.groupId === groupB).lastSeenTime, '2026-03-01T11:00:00Z');
    });

    it('rejects bad group updates and unknown groups without changing anything', async () => {
      const path = `${base}/v1beta1/projects/${P}/groups/${groupA}`;
      for (const [body, status] of [
        [{ resolutionStatus: 'CLOSED' }, 400],
        [{ trackingIssues: 'https://x' }, 400],
        [{ trackingIssues: [{ link: 'x' }] }, 400],
        [{ name: `projects/${P}/groups/other` }, 400],
        [{ comment: 'x' }, 400],
      ] as const) {
        const res = await call(path, { method: 'PUT', headers: AUTH, body });
        assert.equal(res.status, status, JSON.stringify(body));
        assert.equal(res.body.error.code, status);
      }
      const missing = await call(`${base}/v1beta1/projects/${P}/groups/Cnothere`, { method: 'PUT', headers: AUTH, body: { resolutionStatus: 'RESOLVED' } });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.status, 'NOT_FOUND');
      assert.equal((await get('groups/Cnothere')).status, 404);
      assert.equal((await get(`groups/${groupA}`)).body.resolutionStatus, 'OPEN');
    });

    it('deletes the events of a project and keeps other projects', async () => {
      await report({ serviceContext: { service: 'web' }, message: trace('TypeError', 'render') }, 'other-project');
      const res = await call(`${base}/v1beta1/projects/${P}/events`, { method: 'DELETE', headers: AUTH });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {});
      assert.equal((await get('groupStats')).body.errorGroupStats, undefined);
      assert.equal((await get(`events?groupId=${groupA}`)).body.errorEvents, undefined);
      const other = await call(`${base}/v1beta1/projects/other-project/groupStats`, { headers: AUTH });
      assert.equal(other.body.errorGroupStats.length, 1);
    });

    it('serves the location-scoped twins: events live in global, other locations are empty', async () => {
      await report({ serviceContext: { service: 'web' }, message: trace('TypeError', 'render') }, 'regional-project');
      const at = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${base}/v1beta1/projects/regional-project/${path}`, { headers: AUTH, ...init });
      const global = (await at('locations/global/groupStats')).body.errorGroupStats;
      assert.equal(global.length, 1);
      const id = global[0].group.groupId;
      assert.equal(global[0].group.name, `projects/regional-project/locations/global/groups/${id}`);
      assert.equal((await at('locations/-/groupStats')).body.errorGroupStats.length, 1);
      assert.equal((await call(`${base}/v1beta1/projects%2Fregional-project%2Flocations%2Fglobal/groupStats`, { headers: AUTH })).body.errorGroupStats.length, 1);
      assert.equal((await at('locations/us-central1/groupStats')).body.errorGroupStats, undefined);
      assert.equal((await at(`locations/global/events?groupId=${id}`)).body.errorEvents.length, 1);
      assert.equal((await at(`locations/europe-west1/events?groupId=${id}`)).body.errorEvents, undefined);

      const name = `projects/regional-project/locations/global/groups/${id}`;
      const put = await call(`${base}/v1beta1/${name}`, { method: 'PUT', headers: AUTH, body: { name, resolutionStatus: 'RESOLVED' } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, { name, groupId: id, resolutionStatus: 'RESOLVED' });
      assert.equal((await at(`groups/${id}`)).body.resolutionStatus, 'RESOLVED');
      assert.equal((await at(`locations/us-central1/groups/${id}`)).status, 404);
      assert.equal((await at(`locations/-/groups/${id}`)).status, 400);
      assert.equal((await at('locations/Not_A_Place/groupStats')).status, 400);

      assert.deepEqual((await at('locations/us-central1/events', { method: 'DELETE' })).body, {});
      assert.equal((await at('groupStats')).body.errorGroupStats.length, 1);
      assert.deepEqual((await at('locations/global/events', { method: 'DELETE' })).body, {});
      assert.equal((await at('groupStats')).body.errorGroupStats, undefined);
    });

    it('answers unknown paths in the Google format', async () => {
      const unknown = await call(`${base}/v1beta1/projects/${P}/nothing/here`, { headers: AUTH });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 404);
      const regionalReport = await call(`${base}/v1beta1/projects%2F${P}%2Flocations%2Fglobal/events:report?key=${DEV_API_KEY}`, { body: {} });
      assert.equal(regionalReport.status, 404);
    });

    // Last: it moves the clock.
    it('reads timed counts with the same SQL whatever the clock (a new text per request is a statement prepared and dropped)', async () => {
      const project = 'stable-sql-project';
      await report({ serviceContext: { service: 'web' }, message: trace('TypeError', 'render') }, project);
      const texts: string[][] = [];
      const db = t.rt.db;
      const heavyRead = db.heavyRead;
      const seen: string[] = [];
      db.heavyRead = ((query) => {
        seen.push(query.compile().sql);
        return heavyRead.call(db, query);
      }) as typeof heavyRead;
      try {
        for (const advance of ['0s', '1037s']) {
          await moveClock(advance);
          seen.length = 0;
          const res = await call(`${base}/v1beta1/projects/${project}/groupStats?timedCountDuration=3600s&timeRange.period=PERIOD_1_DAY`, { headers: AUTH });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.errorGroupStats[0].count, '1');
          texts.push([...seen]);
        }
      } finally {
        db.heavyRead = heavyRead;
      }
      assert.ok(texts[0]!.length > 0);
      assert.deepEqual(texts[1], texts[0]);
    });
  });
}
