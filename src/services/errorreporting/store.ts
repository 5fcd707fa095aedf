// Queries of the error reporting tables. Routes and the read model call these; no SQL lives anywhere else.
import { sql, type Kysely, type QueryCreator, type SelectQueryBuilder } from 'kysely';
import { ReadThroughCache, type CacheBudget } from '../../core/cache.ts';
import type { Database } from '../../core/db/index.ts';
import { BatchedLookup, pairKey, rowsByKey, rowsByPair } from '../../core/db/batched-lookup.ts';
import { prepared, preparedStatement, rowInsert, runCompiled, valuesOf } from '../../core/db/prepared.ts';
import { defaultLogBucket, type LogBucketSettings } from './domain/log-bucket.ts';
import type { BucketPlan, ServiceFilter, TimeRange } from './domain/query.ts';
import type { AcceptedEvent, ErrorContext } from './domain/report.ts';
import type { ResolutionStatus } from './domain/group-update.ts';
import { onePerContext } from '../../core/per-context.ts';

export type { ResolutionStatus };

export interface GroupRow {
  projectId: string;
  groupId: string;
  service: string;
  exceptionType: string;
  resolutionStatus: ResolutionStatus;
  trackingIssues: Array<{ url: string }>;
  createdAt: number;
}

export interface GroupAggregate {
  groupId: string;
  count: number;
  affectedUsers: number;
  firstSeen: number;
  lastSeen: number;
}

export interface GroupSlice {
  groupId: string;
  service: string;
  version: string;
  /** Bucket index of the timed-count plan (0 without one). */
  index: number;
  count: number;
  latestId: number;
}

export interface StoredEvent {
  id: number;
  groupId: string;
  eventTimeMs: number;
  eventTime: string;
  service: string;
  version: string;
  message: string;
  context?: ErrorContext;
}

export interface LogEntry {
  id: number;
  receivedAt: number;
  eventTime: string;
  service: string;
  version: string | null;
  message: string;
  analysed: boolean;
  groupId: string | null;
}

/** Budget of the log bucket settings kept in memory: a few bytes a project, absent settings included. */
const LOG_BUCKET_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 2 * 1024 * 1024 };

const LOG_COLUMNS = ['project_id', 'received_at', 'event_time', 'service', 'version', 'message', 'context', 'analysed', 'group_id'];
const EVENT_COLUMNS = ['project_id', 'group_id', 'event_time', 'event_time_text', 'received_at', 'service', 'version', 'user_name', 'message', 'context'];

/** Something that starts queries: a database, a transaction or the query creator of a WITH clause. */
type Creator = Pick<QueryCreator<any>, 'insertInto'>;

const logInsert = (db: Creator) => rowInsert(db, 'errorreporting_log', LOG_COLUMNS);
const eventInsert = (db: Creator) => rowInsert(db, 'errorreporting_events', EVENT_COLUMNS);

/**
 * A new group starts OPEN; an existing one keeps its status, except that a RESOLVED group whose error occurs again
 * after its resolution is OPEN again (the real API's ResolutionStatus.OPEN); an event dated before the resolution is
 * one the fix was meant for. Event times are compared in milliseconds, so one in the millisecond of the resolution
 * counts as after it. Parameters: project, group, service, exception type, now, now, event time.
 */
const groupUpsert = (db: Creator) =>
  db
    .insertInto('errorreporting_groups')
    .values({
      project_id: '',
      group_id: '',
      service: '',
      exception_type: '',
      resolution_status: sql`'OPEN'`,
      tracking_issues: sql`'[]'`,
      created_at: 0,
      updated_at: 0,
    })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'group_id'])
        .doUpdateSet({ resolution_status: sql`'OPEN'`, resolved_at: sql`null`, updated_at: sql`excluded.updated_at` })
        .where('errorreporting_groups.resolution_status', '=', sql<string>`'RESOLVED'`)
        .where('errorreporting_groups.resolved_at', '<=', 0),
    );

/** The service's one store: the routes and the admin routes share its cache. */
export const errorStoreOf = onePerContext((ctx): ErrorStore => new ErrorStore(ctx.db));

// Writes go through the group-commit path; the aggregations behind groupStats and events.list run off the event loop.
export class ErrorStore {
  readonly #database: Database;
  readonly #db: Kysely<any>;
  /**
   * Log bucket settings by project, read by every reported event. Absent settings are kept too (most projects have
   * none). SQLite only: this process is the table's one writer.
   */
  readonly #logBuckets: ReadThroughCache<string, { settings: LogBucketSettings | null }> | null;
  /** PostgreSQL, shared by several instances: the settings asked in one turn of the event loop, in one query. */
  readonly #batchedLogBuckets: BatchedLookup<LogBucketSettings> | null;
  /** PostgreSQL: the groups asked in one turn (every groups.get, every event listing's group), read with one query. */
  readonly #batchedGroups: BatchedLookup<GroupRow> | null;

  constructor(database: Database) {
    this.#database = database;
    this.#db = database.kysely;
    this.#logBuckets = database.dialect === 'sqlite' ? new ReadThroughCache(LOG_BUCKET_CACHE_BUDGET, (b) => (b.settings?.bucketProject.length ?? 0) * 2 + 16) : null;
    this.#batchedLogBuckets = database.dialect === 'postgres' ? new BatchedLookup((ids) => this.#loadLogBuckets(ids)) : null;
    this.#batchedGroups = database.dialect === 'postgres' ? new BatchedLookup((keys) => this.#loadGroups(keys)) : null;
  }

  /** Drops the cached settings (after the tables were emptied or replaced behind this object's back). */
  forgetCache(): void {
    this.#logBuckets?.clear();
  }

  async logBucket(projectId: string): Promise<LogBucketSettings> {
    if (this.#batchedLogBuckets) return (await this.#batchedLogBuckets.get(projectId)) ?? defaultLogBucket(projectId);
    const found = this.#logBuckets ? await this.#logBuckets.get(projectId, async () => ({ settings: await this.#loadLogBucket(projectId) })) : { settings: await this.#loadLogBucket(projectId) };
    return found!.settings ?? defaultLogBucket(projectId);
  }

  async #loadLogBucket(projectId: string): Promise<LogBucketSettings | null> {
    const row = (await this.#selectLogBucket(this.#db, projectId)).rows[0];
    return row ? toLogBucket(row) : null;
  }

  async #loadLogBuckets(projectIds: string[]): Promise<Map<string, LogBucketSettings>> {
    return rowsByKey(this.#db, 'errorreporting_log_buckets', 'project_id', projectIds, toLogBucket);
  }

  // Read by every reported event: compiled once.
  readonly #selectLogBucket = prepared<any>(() => this.#db.selectFrom('errorreporting_log_buckets').selectAll().where('project_id', '=', ''));

  async putLogBucket(projectId: string, s: LogBucketSettings, now: number): Promise<void> {
    const values = { cmek_enabled: s.cmekEnabled ? 1 : 0, bucket_project: s.bucketProject, routed: s.routed ? 1 : 0, updated_at: now };
    try {
      await this.#database.write((tx) =>
        tx
          .insertInto('errorreporting_log_buckets')
          .values({ project_id: projectId, ...values })
          .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
          .execute(),
      );
    } finally {
      // Also when the write failed: a commit whose fsync failed may still have changed the row.
      this.#logBuckets?.forget(projectId);
    }
  }

  /**
   * Writes the event to the log and, when analysed, to its group; one unit of work. On PostgreSQL that is one
   * statement (the log and group writes as data-modifying WITH clauses): one round trip instead of a transaction's
   * five, and the group's row lock is held for that statement only.
   */
  async record(projectId: string, event: AcceptedEvent, analysed: boolean, now: number): Promise<void> {
    const context = event.context ? JSON.stringify(event.context) : null;
    const log = valuesOf('errorreporting_log', LOG_COLUMNS, {
      project_id: projectId,
      received_at: now,
      event_time: event.eventTime,
      service: event.service,
      version: event.version ?? null,
      message: event.message,
      context,
      analysed: analysed ? 1 : 0,
      group_id: analysed ? event.groupId : null,
    });
    const group = [projectId, event.groupId, event.service, event.exceptionType, now, now, event.eventTimeMs];
    const row = valuesOf('errorreporting_events', EVENT_COLUMNS, {
      project_id: projectId,
      group_id: event.groupId,
      event_time: event.eventTimeMs,
      event_time_text: event.eventTime,
      received_at: now,
      service: event.service,
      version: event.version ?? '',
      // Users are told apart by the reported user, else by the remote address of the HTTP request.
      user_name: event.context?.user || event.context?.httpRequest?.remoteIp || null,
      message: event.message,
      context,
    });
    if (this.#database.dialect === 'postgres') {
      await this.#database.writeStatement(analysed ? this.#recordAnalysed(...log, ...group, ...row) : this.#insertLog(...log));
      return;
    }
    await this.#database.write(async (tx) => {
      await runCompiled(tx, this.#insertLog(...log));
      if (!analysed) return;
      await runCompiled(tx, this.#upsertGroup(...group));
      await runCompiled(tx, this.#insertEvent(...row));
    });
  }

  // The writes of every reported event: compiled once. The inserts' parameters are their columns' values in order.
  readonly #insertLog = preparedStatement(() => logInsert(this.#db));
  readonly #upsertGroup = preparedStatement(() => groupUpsert(this.#db));
  readonly #insertEvent = preparedStatement(() => eventInsert(this.#db));
  /** PostgreSQL: the three as one statement; parameters those of the log, the group and the event, in that order. */
  readonly #recordAnalysed = preparedStatement(() =>
    eventInsert(
      this.#db
        .with('logged', (qc) => logInsert(qc))
        .with('grouped', (qc) => groupUpsert(qc)),
    ),
  );

  async log(projectId: string, limit: number): Promise<LogEntry[]> {
    const rows = await this.#db.selectFrom('errorreporting_log').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      receivedAt: Number(r.received_at),
      eventTime: r.event_time,
      service: r.service,
      version: r.version ?? null,
      message: r.message,
      analysed: Number(r.analysed) === 1,
      groupId: r.group_id ?? null,
    }));
  }

  async logCount(projectId: string): Promise<number> {
    const row = await this.#db.selectFrom('errorreporting_log').select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Per group: events, distinct users, first and last event time, within the range and filter. */
  async aggregates(projectId: string, filter: ServiceFilter, range: TimeRange, groupIds: string[]): Promise<GroupAggregate[]> {
    const rows = await this.#database.heavyRead(
      this.#events(projectId, filter, range, groupIds)
        .select((eb) => [
          'group_id',
          eb.fn.countAll().as('n'),
          eb.fn.count('user_name').distinct().as('users'),
          eb.fn.min('event_time').as('first_seen'),
          eb.fn.max('event_time').as('last_seen'),
        ])
        .groupBy('group_id'),
    );
    return rows.map((r) => ({
      groupId: r.group_id,
      count: Number(r.n),
      affectedUsers: Number(r.users),
      firstSeen: Number(r.first_seen),
      lastSeen: Number(r.last_seen),
    }));
  }

  /** First and last event time of each group under the filter, whatever the time range (answered from an index). */
  async seenBounds(projectId: string, filter: ServiceFilter, groupIds: string[]): Promise<Array<{ groupId: string; firstSeen: number; lastSeen: number }>> {
    if (groupIds.length === 0) return [];
    const rows = await this.#database.heavyRead(
      this.#events(projectId, filter, undefined, groupIds)
        .select((eb) => ['group_id', eb.fn.min('event_time').as('first_seen'), eb.fn.max('event_time').as('last_seen')])
        .groupBy('group_id'),
    );
    return rows.map((r) => ({ groupId: r.group_id as string, firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen) }));
  }

  /**
   * One pass over the events of the listed groups in the range, split by service, version and (with a plan) bucket
   * index: what the affected services, the timed counts and the representative of each group need.
   */
  async groupSlices(projectId: string, filter: ServiceFilter, range: TimeRange, groupIds: string[], plan?: BucketPlan): Promise<GroupSlice[]> {
    if (groupIds.length === 0) return [];
    // The bucket's origin moves with the clock, so it is a parameter: a literal would make every request's SQL new,
    // and each new text a statement prepared and dropped. Grouping by the select list's positions lets PostgreSQL
    // see the bucket expression as the selected one (it cannot match two expressions with parameters).
    const origin = plan ? sql`cast(${Math.trunc(plan.originMs)} as bigint)` : undefined;
    // The same index as bucketIndex of bucketTime in domain/query.ts (the offsets are never negative, so division
    // truncates as floor).
    const time = sql`case when event_time < cast(${range.endMs} as bigint) then event_time else cast(${range.endMs - 1} as bigint) end`;
    const offset = plan?.fromEnd ? sql`${origin} - 1 - ${time}` : sql`${time} - ${origin}`;
    const index = plan ? sql<number>`(${offset}) / cast(${Math.trunc(plan.durationMs)} as bigint)` : sql<number>`0`;
    const rows = await this.#database.heavyRead(
      this.#events(projectId, filter, range, groupIds)
        .select((eb) => ['group_id', 'service', 'version', index.as('k'), eb.fn.countAll().as('n'), eb.fn.max('id').as('latest_id')])
        .groupBy(plan ? [sql`1`, sql`2`, sql`3`, sql`4`] : ['group_id', 'service', 'version']),
    );
    return rows.map((r) => ({
      groupId: r.group_id as string,
      service: r.service as string,
      version: r.version as string,
      index: Number(r.k),
      count: Number(r.n),
      latestId: Number(r.latest_id),
    }));
  }

  async eventsById(ids: number[]): Promise<StoredEvent[]> {
    if (ids.length === 0) return [];
    return (await this.#db.selectFrom('errorreporting_events').selectAll().where('id', 'in', ids).execute()).map(toEvent);
  }

  async listEvents(projectId: string, groupId: string, filter: ServiceFilter, range: TimeRange, offset: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.#database.heavyRead(
      this.#events(projectId, filter, range, [groupId]).selectAll().orderBy('event_time', 'desc').orderBy('id', 'desc').offset(offset).limit(limit),
    );
    return rows.map(toEvent);
  }

  async deleteEvents(projectId: string): Promise<void> {
    await this.#database.write((tx) => tx.deleteFrom('errorreporting_events').where('project_id', '=', projectId).execute());
  }

  async groups(projectId: string, groupIds?: string[]): Promise<GroupRow[]> {
    let q = this.#db.selectFrom('errorreporting_groups').selectAll().where('project_id', '=', projectId);
    if (groupIds) {
      if (groupIds.length === 0) return [];
      q = q.where('group_id', 'in', groupIds);
    }
    return (await q.execute()).map(toGroup);
  }

  async group(projectId: string, groupId: string): Promise<GroupRow | undefined> {
    if (this.#batchedGroups) return this.#batchedGroups.get(pairKey(projectId, groupId));
    const row = (await this.#groupById(this.#db, projectId, groupId)).rows[0];
    return row ? toGroup(row) : undefined;
  }

  /** Groups by `pairKey(project, group)`: every project asked with every group asked, the pairs asked read back. */
  async #loadGroups(keys: string[]): Promise<Map<string, GroupRow>> {
    return rowsByPair(this.#db, 'errorreporting_groups', ['project_id', 'group_id'], keys, toGroup);
  }

  // Read on every groups.get and event listing's group: compiled once.
  readonly #groupById = prepared<any>(() => this.#db.selectFrom('errorreporting_groups').selectAll().where('project_id', '=', '').where('group_id', '=', ''));

  /** Replaces the mutable fields of an existing group; false when there is no such group. */
  async updateGroup(projectId: string, groupId: string, status: ResolutionStatus, trackingIssues: Array<{ url: string }>, now: number): Promise<boolean> {
    const res = await this.#database.write((tx) =>
      tx
        .updateTable('errorreporting_groups')
        .set({
          resolution_status: status,
          // A group resolved again keeps the time it was first resolved; any other status has none.
          resolved_at: status === 'RESOLVED' ? sql`coalesce(case when resolution_status = 'RESOLVED' then resolved_at end, ${now})` : null,
          tracking_issues: JSON.stringify(trackingIssues),
          updated_at: now,
        })
        .where('project_id', '=', projectId)
        .where('group_id', '=', groupId)
        .executeTakeFirst(),
    );
    return Number(res.numUpdatedRows) > 0;
  }

  #events(projectId: string, filter: ServiceFilter, range: TimeRange | undefined, groupIds: string[]): SelectQueryBuilder<any, 'errorreporting_events', object> {
    let q = this.#db.selectFrom('errorreporting_events').where('project_id', '=', projectId);
    if (range) q = q.where('event_time', '>=', range.beginMs).where('event_time', '<=', range.endMs);
    if (groupIds.length) q = q.where('group_id', 'in', groupIds);
    if (filter.service !== undefined) q = q.where('service', '=', filter.service);
    if (filter.version !== undefined) q = q.where('version', '=', filter.version);
    // Reports carry no monitored resource here, so a resource type filter matches nothing.
    if (filter.resourceType !== undefined) q = q.where('id', '<', 0);
    return q;
  }
}

function toGroup(r: any): GroupRow {
  return {
    projectId: r.project_id,
    groupId: r.group_id,
    service: r.service,
    exceptionType: r.exception_type,
    resolutionStatus: r.resolution_status,
    trackingIssues: JSON.parse(r.tracking_issues),
    createdAt: Number(r.created_at),
  };
}

function toEvent(r: any): StoredEvent {
  return {
    id: Number(r.id),
    groupId: r.group_id,
    eventTimeMs: Number(r.event_time),
    eventTime: r.event_time_text,
    service: r.service,
    version: r.version,
    message: r.message,
    context: r.context ? JSON.parse(r.context) : undefined,
  };
}

function toLogBucket(row: any): LogBucketSettings {
  return { cmekEnabled: Number(row.cmek_enabled) === 1, bucketProject: row.bucket_project, routed: Number(row.routed) === 1 };
}
