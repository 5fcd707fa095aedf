import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { GoogleError } from '../../src/core/google/index.ts';
import { groupIdOf } from '../../src/services/errorreporting/domain/fingerprint.ts';
import { readGroupUpdate } from '../../src/services/errorreporting/domain/group-update.ts';
import { isAnalysable } from '../../src/services/errorreporting/domain/log-bucket.ts';
import { isProjectId } from '../../src/services/errorreporting/domain/project.ts';
import { timedCounts } from '../../src/services/errorreporting/domain/query.ts';
import { NO_LOCATION_MESSAGE, acceptReport } from '../../src/services/errorreporting/domain/report.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const TRACE = 'Error: boom\n    at run (/app/a.js:1:2)';
const ok = (extra: Record<string, unknown> = {}) => ({ serviceContext: { service: 'web' }, message: TRACE, ...extra });

function rejects(body: unknown, message: string | RegExp) {
  assert.throws(
    () => acceptReport(body, NOW),
    (err: unknown) => err instanceof GoogleError && err.status === 400 && (typeof message === 'string' ? err.message === message : message.test(err.message)),
  );
}

describe('acceptReport', () => {
  it('normalises eventTime to Z with 0, 3, 6 or 9 fraction digits', () => {
    assert.equal(acceptReport(ok({ eventTime: '2026-03-01T13:00:00+01:00' }), NOW).eventTime, '2026-03-01T12:00:00Z');
    assert.equal(acceptReport(ok({ eventTime: '2026-03-01T11:00:00.5Z' }), NOW).eventTime, '2026-03-01T11:00:00.500Z');
    assert.equal(acceptReport(ok({ eventTime: '2026-03-01T06:30:00.1234-05:30' }), NOW).eventTime, '2026-03-01T12:00:00.123400Z');
    assert.equal(acceptReport(ok({ eventTime: '2026-03-01T11:00:00.123456789Z' }), NOW).eventTime, '2026-03-01T11:00:00.123456789Z');
    assert.equal(acceptReport(ok(), NOW).eventTime, '2026-03-01T12:00:00Z');
  });

  it('bounds eventTime to 30 days back and 24 hours ahead', () => {
    acceptReport(ok({ eventTime: '2026-01-30T12:00:00Z' }), NOW);
    acceptReport(ok({ eventTime: '2026-03-02T12:00:00Z' }), NOW);
    rejects(ok({ eventTime: '2026-01-30T11:59:59Z' }), /older than the log retention period/);
    rejects(ok({ eventTime: '2026-03-02T12:00:01Z' }), /more than 24 hours in the future/);
    rejects(ok({ eventTime: '2026-02-30T00:00:00Z' }), /^Invalid value at 'event.event_time'/);
    rejects(ok({ eventTime: 1700000000 }), /^Invalid value at 'event.event_time'/);
  });

  it('requires service and message, and rejects wrong types, unknown names and resourceType', () => {
    rejects({ message: TRACE }, 'ReportedErrorEvent.service_context must be set.');
    rejects({ serviceContext: {}, message: TRACE }, 'ReportedErrorEvent.service_context.service must be set.');
    rejects({ serviceContext: { service: 'web' } }, 'ReportedErrorEvent.message must be set.');
    rejects(ok({ message: 42 }), "Invalid value at 'event.message' (TYPE_STRING), 42");
    rejects({ serviceContext: { service: ['web'] }, message: TRACE }, "Invalid value at 'event.service_context.service' (TYPE_STRING), [\"web\"]");
    rejects(ok({ extra: 1 }), 'Invalid JSON payload received. Unknown name "extra": Cannot find field.');
    rejects({ serviceContext: { service: 'web', resourceType: 'gae_app' }, message: TRACE }, /resource_type is output only/);
    rejects([], /^Invalid value at 'event'/);
  });

  it('needs a trace or a report location with a function name', () => {
    rejects(ok({ message: 'plain words' }), NO_LOCATION_MESSAGE);
    rejects(ok({ message: 'plain', context: { reportLocation: { filePath: 'a.js', lineNumber: 3 } } }), 'ReportedErrorEvent.context.report_location.function_name must be set.');
    const event = acceptReport(ok({ message: 'plain', context: { reportLocation: { filePath: 'a.js', lineNumber: '3', functionName: 'run' }, user: 'u1' } }), NOW);
    assert.deepEqual(event.context, { reportLocation: { filePath: 'a.js', lineNumber: 3, functionName: 'run' }, user: 'u1' });
  });

  it('answers any input with an event or a Google 400, never another failure', () => {
    const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(TRACE), fc.constant('2026-03-01T11:00:00+02:00'));
    const shaped = fc.record(
      {
        eventTime: anyValue,
        serviceContext: fc.oneof(anyValue, fc.record({ service: anyValue, version: anyValue, resourceType: anyValue }, { requiredKeys: [] })),
        message: anyValue,
        context: fc.oneof(
          anyValue,
          fc.record({ user: anyValue, reportLocation: fc.oneof(anyValue, fc.record({ functionName: anyValue, lineNumber: anyValue, filePath: anyValue }, { requiredKeys: [] })), httpRequest: anyValue, sourceReferences: anyValue }, { requiredKeys: [] }),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(shaped, fc.jsonValue()), (body) => {
        try {
          const event = acceptReport(JSON.parse(JSON.stringify(body)), NOW);
          assert.equal(typeof event.groupId, 'string');
        } catch (err) {
          assert.ok(err instanceof GoogleError && err.status === 400, String(err));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('groups by exception type and top frames, ignoring line numbers and the service', () => {
    const a = acceptReport(ok(), NOW).groupId;
    assert.equal(acceptReport(ok({ message: 'Error: other words\n    at run (/app/a.js:90:7)' }), NOW).groupId, a);
    assert.equal(acceptReport({ serviceContext: { service: 'api', version: '2' }, message: TRACE }, NOW).groupId, a);
    assert.notEqual(acceptReport(ok({ message: 'TypeError: boom\n    at run (/app/a.js:1:2)' }), NOW).groupId, a);
  });
});

describe('grouping and rules', () => {
  it('group ids are stable, URL-safe and differ with any part of the key', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (type, frames) => {
        const id = groupIdOf({ exceptionType: type, frames });
        assert.match(id, /^[A-Za-z0-9_-]{17}$/);
        assert.equal(groupIdOf({ exceptionType: type, frames: [...frames] }), id);
        assert.notEqual(groupIdOf({ exceptionType: type + 'x', frames }), id);
        assert.notEqual(groupIdOf({ exceptionType: type, frames: [frames[0] + 'x', ...frames.slice(1)] }), id);
      }),
    );
  });

  it('analyses only without CMEK and with the bucket at home or routed', () => {
    assert.equal(isAnalysable('p1', { cmekEnabled: false, bucketProject: 'p1', routed: false }), true);
    assert.equal(isAnalysable('p1', { cmekEnabled: false, bucketProject: 'p2', routed: true }), true);
    assert.equal(isAnalysable('p1', { cmekEnabled: false, bucketProject: 'p2', routed: false }), false);
    assert.equal(isAnalysable('p1', { cmekEnabled: true, bucketProject: 'p1', routed: false }), false);
    assert.equal(isAnalysable('p1', { cmekEnabled: true, bucketProject: 'p2', routed: true }), false);
  });

  it('knows project ids and numbers', () => {
    for (const id of ['my-project', 'abcdef', 'a2345678901234567890123456789z', '123456789012']) assert.ok(isProjectId(id), id);
    for (const id of ['abc', 'My-Project', '1project', 'project-', 'a'.repeat(31), 'my_project', '0123', '']) assert.ok(!isProjectId(id), id);
  });

  it('reads a groups.update body', () => {
    assert.deepEqual(readGroupUpdate({ resolutionStatus: 'MUTED', trackingIssues: [{ url: 'https://x/1' }] }, ['projects/p/groups/g'], 'g'), {
      resolutionStatus: 'MUTED',
      trackingIssues: [{ url: 'https://x/1' }],
    });
    assert.deepEqual(readGroupUpdate({}, ['projects/p/groups/g'], 'g'), { resolutionStatus: 'OPEN', trackingIssues: [] });
    assert.throws(() => readGroupUpdate({ resolutionStatus: 'GONE' }, ['projects/p/groups/g'], 'g'), /resolution_status/);
    assert.throws(() => readGroupUpdate({ name: 'projects/p/groups/h' }, ['projects/p/groups/g'], 'g'), /does not match/);
    assert.throws(() => readGroupUpdate({ trackingIssues: [{}] }, ['projects/p/groups/g'], 'g'), /url must be set/);
  });
});

describe('timedCounts', () => {
  const H = 3600_000;
  const range = { period: 'PERIOD_6_HOURS', beginMs: NOW - 6 * H, endMs: NOW };

  it('aligns buckets on the end of the range by default, each holding its start and not its end, the range end in the last', () => {
    const buckets = timedCounts([NOW, NOW - 1, NOW - H + 1, NOW - H, NOW - H - 1, NOW - 6 * H, NOW - 6 * H - 1], range, H, 'ALIGNMENT_EQUAL_AT_END');
    assert.deepEqual(
      buckets.map((b) => [b.startMs - NOW, b.endMs - NOW, b.count]),
      [
        [-6 * H, -5 * H, 1],
        [-2 * H, -H, 1],
        [-H, 0, 4],
      ],
    );
  });

  it('rounds buckets on the alignment time and clips them to the range', () => {
    const begin = Date.parse('2026-03-01T06:00:00Z');
    const r = { period: 'x', beginMs: begin + 30 * 60_000, endMs: begin + 3 * H };
    const buckets = timedCounts([begin + 40 * 60_000, begin + 2 * H + 1], r, H, 'ALIGNMENT_EQUAL_ROUNDED', 0);
    assert.deepEqual(
      buckets.map((b) => [new Date(b.startMs).toISOString(), new Date(b.endMs).toISOString(), b.count]),
      [
        ['2026-03-01T06:30:00.000Z', '2026-03-01T07:00:00.000Z', 1],
        ['2026-03-01T08:00:00.000Z', '2026-03-01T09:00:00.000Z', 1],
      ],
    );
  });

  it('counts every event in the range exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: range.beginMs, max: range.endMs })), fc.integer({ min: 1000, max: 7 * H }), fc.boolean(), (times, d, atEnd) => {
        const buckets = timedCounts(times, range, d, atEnd ? 'ALIGNMENT_EQUAL_AT_END' : 'ALIGNMENT_EQUAL_ROUNDED');
        assert.equal(buckets.reduce((n, b) => n + b.count, 0), times.length);
        for (const b of buckets) assert.ok(b.startMs >= range.beginMs && b.endMs <= range.endMs && b.startMs < b.endMs);
      }),
    );
  });
});
